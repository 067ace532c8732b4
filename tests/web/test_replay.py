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
