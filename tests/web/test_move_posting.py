"""Posting moves from the match page: applied once, refused with a message, never a 500."""

import pytest
from django.urls import reverse

from tests.web.conftest import hand_of, logged_in

pytestmark = pytest.mark.django_db


def post_move(client, match, command, *, seq=None, token="form-token-1"):
    return client.post(
        reverse("match_move", args=[match.pk]),
        {"command": command, "seq": match.head_seq if seq is None else seq, "token": token},
        follow=True,
    )


def test_a_legal_move_is_applied(duel, anna):
    card = hand_of(duel, anna)[0]
    response = post_move(logged_in(anna), duel, f"play {card}")
    assert response.status_code == 200
    assert f"Applied: play {card}." in response.content.decode()
    move = duel.moves.get()
    assert move.payload == {"type": "play", "card": card}
    assert move.source == "web"
    assert card not in hand_of(duel, anna)


def test_a_chosen_move_is_confirmed_with_its_command(duel, anna):
    url = reverse("match_detail", args=[duel.pk])
    card = hand_of(duel, anna)[0]
    page = logged_in(anna).get(url).content.decode()
    assert f'data-target="cmd:play {card}"' in page
    page = logged_in(anna).get(url, {"s": f"cmd:play {card}"}).content.decode()
    assert f'name="command" value="play {card}"' in page


def test_an_illegal_move_shows_the_reason_and_appends_nothing(duel, anna):
    response = post_move(logged_in(anna), duel, "play 99")
    assert response.status_code == 200
    assert "you cannot play 99" in response.content.decode()
    assert duel.moves.count() == 0


def test_an_unreadable_command_says_what_was_expected(duel, anna):
    response = post_move(logged_in(anna), duel, "dance a jig")
    assert "Expected &#x27;play N&#x27;" in response.content.decode()
    assert duel.moves.count() == 0


def test_an_empty_command_is_refused(duel, anna):
    response = post_move(logged_in(anna), duel, "")
    assert "Type a command." in response.content.decode()
    assert duel.moves.count() == 0


def test_a_double_submit_of_the_same_form_applies_once(duel, anna):
    client = logged_in(anna)
    card = hand_of(duel, anna)[0]
    seq = duel.head_seq
    post_move(client, duel, f"play {card}", seq=seq, token="double-click")
    second = post_move(client, duel, f"play {card}", seq=seq, token="double-click")
    assert duel.moves.count() == 1
    assert f"Already applied: play {card}." in second.content.decode()


def test_a_move_for_an_outdated_position_is_refused(duel, anna, ben):
    seen = duel.head_seq
    post_move(logged_in(ben), duel, f"play {hand_of(duel, ben)[0]}", token="ben-form")
    duel.refresh_from_db()
    post_move(logged_in(anna), duel, f"play {hand_of(duel, anna)[0]}", token="anna-form")
    assert duel.moves.count() == 2  # the trick is over: a new question for both
    response = post_move(logged_in(anna), duel, f"play {hand_of(duel, anna)[0]}", seq=seen)
    assert "moved on" in response.content.decode()
    assert duel.moves.count() == 2


def test_another_seats_sealed_answer_does_not_outdate_mine(duel, anna, ben):
    seen = duel.head_seq
    post_move(logged_in(ben), duel, f"play {hand_of(duel, ben)[0]}", token="ben-form")
    response = post_move(logged_in(anna), duel, f"play {hand_of(duel, anna)[0]}", seq=seen)
    assert "moved on" not in response.content.decode()
    assert duel.moves.count() == 2


def test_a_second_move_when_it_is_not_your_turn_is_refused(duel, anna):
    client = logged_in(anna)
    hand = hand_of(duel, anna)
    post_move(client, duel, f"play {hand[0]}", token="first-form")
    duel.refresh_from_db()
    response = post_move(client, duel, f"play {hand[1]}", token="second-form")
    assert "It is not your turn." in response.content.decode()
    assert duel.moves.count() == 1


def test_a_tampered_form_changes_nothing(duel, anna):
    client = logged_in(anna)
    for data in (
        {"command": "play 1"},
        {"command": "play 1", "seq": "x", "token": "abcdefgh"},
        {"command": "play 1", "seq": 0, "token": "no spaces allowed"},
    ):
        response = client.post(reverse("match_move", args=[duel.pk]), data, follow=True)
        assert response.status_code == 200
    assert duel.moves.count() == 0


def test_against_a_bot_the_bot_answers_at_once(against_bot, anna):
    before = against_bot.moves.count()
    card = hand_of(against_bot, anna)[0]
    post_move(logged_in(anna), against_bot, f"play {card}")
    against_bot.refresh_from_db()
    assert against_bot.moves.count() > before
    assert against_bot.moves.filter(source="web").count() == 1


def test_a_parser_that_trips_gives_a_message_not_a_500(duel, anna, monkeypatch):
    def broken_parse(text, state, seat):
        raise ValueError("the parser has a bug")

    monkeypatch.setattr(duel.game, "parse", broken_parse)
    response = post_move(logged_in(anna), duel, "play 3")
    assert response.status_code == 200
    assert "could not be read" in response.content.decode()
    assert duel.moves.count() == 0


def test_the_command_is_read_under_the_lock_from_the_position_loaded_there(duel, anna, monkeypatch):
    """The web move reads no position of its own: the service parses the command inside
    its transaction, after locking the match, against the state it applies the move to."""
    from django.db import connection

    from games import selectors, services

    outside = len(connection.atomic_blocks)
    reads = []

    def load_state(match, *args, **kwargs):
        reads.append(len(connection.atomic_blocks) > outside)
        return real_load_state(match, *args, **kwargs)

    real_load_state = selectors.load_state
    monkeypatch.setattr(selectors, "load_state", load_state)
    monkeypatch.setattr(services, "load_state", load_state)
    parsed_from = []
    real_interpret = services.interpret

    def interpret(game, state, seat, text, language=None):
        parsed_from.append(state)
        return real_interpret(game, state, seat, text, language)

    monkeypatch.setattr(services, "interpret", interpret)
    card = hand_of(duel, anna)[0]
    reads.clear()
    logged_in(anna).post(
        reverse("match_move", args=[duel.pk]),
        {"command": f"play {card}", "seq": duel.head_seq, "token": "under-the-lock"},
    )
    assert duel.moves.count() == 1
    assert reads and all(reads), "the position was read outside the move's transaction"
    assert len(parsed_from) == 1
