"""The turn email: playable from its plain-text part alone, threaded, unsubscribable."""

import pytest

from games import services
from games.selectors import load_state
from notifications.emails import thread_subject
from replies.tokens import read_reply_token

from .conftest import headline, seat_of, send_all, to

pytestmark = pytest.mark.django_db


def _turn(sent, address):
    return next(m for m in to(sent, address) if headline(m).startswith("Your turn"))


def test_the_text_part_is_playable_alone(match, anna):
    message = _turn(send_all(), "anna@")
    seat = seat_of(match, anna)
    hand = load_state(match)["hands"][seat]
    names = ", ".join(s.name for s in match.seats.order_by("number"))
    assert message.subject == f"[Postal Boards] Sealed Cards #{match.pk} with {names}"
    assert headline(message) == "Your turn: play a card to trick 1"
    body = message.body
    assert "Trick 1 of 3" in body  # the board as text
    assert "Your hand: " + " ".join(f"[{c}]" for c in hand) in body  # private information
    for number, card in enumerate(hand, 1):  # the legal moves, numbered
        assert f"  {number}. play {card}" in body
    assert "Reply to this email" in body and "Deadline:" in body
    assert max(len(line) for line in body.splitlines() if "http" not in line) <= 78


def test_no_other_seat_secret_reaches_a_player(match, anna, ben):
    sent = send_all()
    state = load_state(match)
    secrets = match.game.secrets(state)
    for user in (anna, ben):
        seat = seat_of(match, user)
        for message in to(sent, user.email):
            html = message.alternatives[0][0]
            for other, strings in secrets.items():
                if other != seat:
                    for secret in strings:
                        assert secret not in message.body and secret not in html


def test_html_part_headers_and_links(match, anna):
    message = _turn(send_all(), "anna@")
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html" and "<ol" in html and "Trick 1 of 3" in html
    headers = message.extra_headers
    assert headers["Auto-Submitted"] == "auto-generated"
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert headers["List-Unsubscribe"].startswith("<https://boards.example.org/n/unsubscribe/")
    seat = seat_of(match, anna)
    # The first mail of the match is the thread's root: this turn notice, with the start.
    assert "In-Reply-To" not in headers and "References" not in headers
    assert f"Sealed Cards #{match.pk} has begun" in message.body
    assert headers["Message-ID"].endswith("@reply.example.org>")
    assert f"/matches/{match.pk}/link/?sesame=" in message.body  # opens this match only
    token = read_reply_token(message.reply_to[0].split("+")[1].split("@")[0])
    assert (token.match_id, token.seat, token.seq) == (match.pk, seat, match.head_seq)


def test_every_message_of_a_match_is_in_one_thread(match, anna, ben):
    sent = send_all()
    _play_out(match)
    sent += send_all()
    for user in (anna, ben):
        mine = to(sent, user.email)
        roots = {m.extra_headers["References"] for m in mine if "References" in m.extra_headers}
        assert len(roots) == 1
        # The first mail (the first turn notice, which tells the start) is the root; it
        # alone stands outside the thread, and every message has the match's one subject.
        first = mine[0]
        assert "has begun" in first.body and headline(first).startswith("Your turn")
        assert roots == {first.extra_headers["Message-ID"]}
        assert [m for m in mine if "References" not in m.extra_headers] == [first]
        assert {m.subject for m in mine} == {thread_subject(match)}


def _play_out(match):
    match.refresh_from_db()
    while match.status == "active":
        state = load_state(match)
        seat = match.to_act[0]
        services.submit_move(
            match_id=match.pk, seat=seat, move=match.game.default_move(state, seat), source="web"
        )
        match.refresh_from_db()


def test_game_end_reveals_the_seed_and_scores(match, anna):
    send_all()
    _play_out(match)
    end = next(m for m in to(send_all(), "anna@") if headline(m).startswith("Game over"))
    assert match.seed in end.body and match.seed_commitment in end.body
    assert "Final standing" in end.body and "points" in end.body


def test_game_start_email(anna, ben):
    from .conftest import start_match

    match = start_match(anna, ben)
    # No mail of its own: Ben's one mail is his first turn, the start told in it.
    (start,) = to(send_all(), "ben@")
    assert headline(start).startswith("Your turn")
    assert f"Sealed Cards #{match.pk} has begun" in start.body
    assert match.seed_commitment in start.body and match.seed not in start.body
    assert "3 days per move" in start.body
    assert "has begun" in start.alternatives[0][0]
