"""The replay page: every position as the viewer could see it, everything after the end."""

import pytest
from django.urls import reverse

from games import services
from tests.web.conftest import hand_of, logged_in, seat_of

pytestmark = pytest.mark.django_db


def finish(match, *users):
    for user in users:
        services.set_standing_orders(
            match_id=match.pk, seat=seat_of(match, user), orders=["play-lowest"]
        )
    match.refresh_from_db()
    assert match.is_over


def test_each_step_shows_the_position_and_history_up_to_it(duel, anna, ben):
    client = logged_in(anna)
    first = hand_of(duel, anna)[0]
    services.submit_move(
        match_id=duel.pk,
        seat=seat_of(duel, anna),
        move={"type": "play", "card": first},
        source="web",
    )
    url = reverse("match_replay", args=[duel.pk])
    setup = client.get(url + "?n=0")
    assert setup.context["frame"].history == []
    assert f"[{first}]" in setup.content.decode()  # still in the hand at the setup
    after = client.get(url + "?n=1")
    assert len(after.context["frame"].history) == 1
    assert f"[{first}]" not in after.content.decode()


def test_out_of_range_steps_are_clamped(duel, anna):
    client = logged_in(anna)
    url = reverse("match_replay", args=[duel.pk])
    for n in ("-5", "999", "x"):
        response = client.get(url + f"?n={n}")
        assert response.status_code == 200


def test_after_the_end_every_view_is_revealed(duel, anna, ben, outsider):
    start_hands = {u.pk: hand_of(duel, u) for u in (anna, ben)}
    finish(duel, anna, ben)
    page = logged_in(outsider).get(reverse("match_replay", args=[duel.pk]) + "?n=0")
    text = page.content.decode()
    for hand in start_hands.values():
        assert "Your hand: " + " ".join(f"[{c}]" for c in hand) in text
    assert duel.seed in text
    match_page = logged_in(outsider).get(reverse("match_detail", args=[duel.pk])).content.decode()
    assert duel.seed in match_page
    assert "Result" in match_page


def test_an_open_match_has_nothing_to_replay(anna):
    match = services.create_match(creator=anna, game_slug="sealed-cards", players=2)
    response = logged_in(anna).get(reverse("match_replay", args=[match.pk]))
    assert response.status_code == 302


def bot_match(anna, slug: str, players: int):
    """A match of `slug` played to the end: Anna's seat played by the bot's choice."""
    import random

    from games import selectors
    from games.engine import get_game

    match = services.create_match(
        creator=anna, game_slug=slug, players=players, bots=players - 1, seed=f"replay-{slug}"
    )
    game, rng = get_game(slug), random.Random(1)
    mine = seat_of(match, anna)
    for _ in range(3000):
        match.refresh_from_db()
        if match.is_over:
            return match
        state = selectors.load_state(match)
        assert mine in game.to_act(state)
        services.submit_move(
            match_id=match.pk, seat=mine, move=game.bot_move(state, mine, rng), source="web"
        )
    raise AssertionError("the match did not end")


def test_the_replay_draws_the_board_and_after_the_end_a_score_chart(anna):
    match = bot_match(anna, "blankenburg", 2)
    client = logged_in(anna)
    page = client.get(reverse("match_replay", args=[match.pk]) + "?n=5").content.decode()
    assert page.count('aria-label="The town of Blankenburg"') == 3  # public and both seats
    assert f"<h2>{match.seats.get(user=anna).name} (you)</h2>" in page  # named as in history
    frame = client.get(reverse("match_replay", args=[match.pk])).context["frame"]
    assert frame.rounds[0][1] == 0 and len(frame.rounds) > 3
    assert 'id="score-chart"' in page and "<polyline" in page
    for line in frame.chart["lines"]:
        assert (
            line["final"]
            == match.result["scores"][
                [s.name for s in match.seats.order_by("number")].index(line["name"])
            ]
        )
    assert "js/replay.js" in page  # arrow keys and play (tested in the browser)


def test_the_history_lists_the_newest_move_first(duel, anna, ben):
    for user in (anna, ben):
        card = hand_of(duel, user)[0]
        services.submit_move(
            match_id=duel.pk,
            seat=seat_of(duel, user),
            move={"type": "play", "card": card},
            source="web",
        )
    page = logged_in(anna).get(reverse("match_detail", args=[duel.pk])).content.decode()
    history = page[page.index('id="history"') :]
    assert history.index('<li value="2">') < history.index('<li value="1">')


def test_the_admin_history_is_the_paged_move_log_and_the_replay_draws_boards(staff, anna):
    match = bot_match(anna, "nieuwstad", 2)
    client = logged_in(staff)
    history = client.get(reverse("admin:games_match_history", args=[match.pk]))
    assert history.status_code == 302
    assert history["Location"].endswith(f"?match__id__exact={match.pk}")
    log = client.get(history["Location"])
    assert log.status_code == 200 and log.context["cl"].result_count == match.head_seq
    assert log.context["cl"].list_per_page < match.head_seq  # paged
    change = client.get(reverse("admin:games_match_change", args=[match.pk])).content.decode()
    assert reverse("match_replay", args=[match.pk]) in change
    assert 'name="moves-0-payload"' not in change
    replay = client.get(reverse("admin:games_match_replay", args=[match.pk]) + "?n=10")
    text = replay.content.decode()
    assert text.count("<svg") >= 3 and "Seat 1: " in text and "Seat 0" not in text
