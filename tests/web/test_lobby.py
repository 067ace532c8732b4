"""The lobby: my matches (my turn first), open matches, creating and joining matches."""

from datetime import timedelta

import pytest
from django.urls import reverse

from games import services
from games.models import Match, MatchStatus
from tests.web.conftest import logged_in, seat_of

pytestmark = pytest.mark.django_db


def test_my_turn_comes_first_with_the_time_left(anna, ben, duel, against_bot):
    waiting = services.create_match(creator=anna, game_slug="sealed-cards", players=3)
    page = logged_in(anna).get(reverse("lobby"))
    rows = page.context["rows"]
    assert [r.your_turn for r in rows][:2] == [True, True]
    assert rows[-1].match.pk == waiting.pk
    text = page.content.decode()
    assert "Your turn" in text
    assert "2 days 23 hours" in text or "3 days" in text


def test_an_overdue_seat_says_so(duel, anna, time_machine):
    seat = duel.seats.get(user=anna)
    time_machine.move_to(seat.deadline_at + timedelta(hours=1))
    assert "overdue" in logged_in(anna).get(reverse("lobby")).content.decode()


def test_play_now_fills_every_other_seat_with_bots(anna):
    response = logged_in(anna).post(reverse("play_now"), {"game": "sealed-cards", "players": 3})
    match = Match.objects.get()
    assert response["Location"] == reverse("match_detail", args=[match.pk])
    assert match.status == MatchStatus.ACTIVE
    assert match.seats.filter(is_bot=True).count() == 2
    assert seat_of(match, anna) in match.to_act


def test_play_now_refuses_a_bad_player_count(anna):
    response = logged_in(anna).post(
        reverse("play_now"), {"game": "sealed-cards", "players": 9}, follow=True
    )
    assert "for 2 to 4 players" in response.content.decode()
    assert not Match.objects.exists()


def test_the_create_page_offers_the_game_options(anna):
    page = logged_in(anna).get(reverse("match_create") + "?game=sealed-cards&players=3")
    assert page.status_code == 200
    assert 'name="option_double_last"' in page.content.decode()


def test_create_a_match_with_options_bots_and_an_invitation(anna, ben):
    response = logged_in(anna).post(
        reverse("match_create"),
        {
            "game": "sealed-cards",
            "players": 4,
            "option_double_last": "on",
            "bots": 1,
            "invite_emails": "Ben@example.com",
            "days_per_move": 5,
            "timeout_policy": "bot",
        },
    )
    match = Match.objects.get()
    assert response["Location"] == reverse("match_detail", args=[match.pk])
    assert match.options == {"double_last": True}
    assert match.days_per_move == 5 and match.timeout_policy == "bot"
    assert match.status == MatchStatus.OPEN
    assert match.seats.filter(invited_email="ben@example.com").exists()
    assert match.seats.filter(is_bot=True).count() == 1


def test_create_refuses_more_seats_than_the_match_has(anna):
    response = logged_in(anna).post(
        reverse("match_create"),
        {
            "game": "sealed-cards",
            "players": 2,
            "bots": 1,
            "invite_emails": "x@example.com",
            "days_per_move": 3,
            "timeout_policy": "default",
        },
    )
    assert response.status_code == 200
    assert "make 3, but the match has 2 seats" in response.content.decode()
    assert not Match.objects.exists()


def test_open_matches_can_be_joined(anna, ben, outsider):
    match = services.create_match(creator=anna, game_slug="sealed-cards", players=2)
    client = logged_in(outsider)
    lobby = client.get(reverse("lobby"))
    assert match in lobby.context["open_matches"]
    client.post(reverse("match_join", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert match not in logged_in(ben).get(reverse("lobby")).context["open_matches"]


def test_a_seat_kept_for_an_invited_player_is_not_offered_to_others(anna, ben, outsider):
    match = services.create_match(
        creator=anna, game_slug="sealed-cards", players=2, invite_emails=[ben.email]
    )
    assert match not in logged_in(outsider).get(reverse("lobby")).context["open_matches"]
    assert match in logged_in(ben).get(reverse("lobby")).context["open_matches"]
    response = logged_in(outsider).post(reverse("match_join", args=[match.pk]), follow=True)
    assert "no open seat for you" in response.content.decode()
