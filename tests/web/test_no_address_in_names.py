"""A player with no name is never shown by their address or its local part: the seat name
frozen at the start, the players list, the history and the API show "Member #N"."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from community.names import public_name
from games import services

pytestmark = pytest.mark.django_db


def test_a_nameless_players_seat_shows_no_part_of_their_address():
    anna = User.objects.create_user("anna.private@example.com", "anna.private@example.com", "pw")
    bram = User.objects.create_user("bram.private@example.com", "bram.private@example.com", "pw")
    match = services.create_match(
        creator=anna,
        game_slug="sealed-cards",
        players=3,
        invite_emails=["cor.private@example.org"],
        watchable=True,
    )
    waiting = Client().get(f"/matches/{match.pk}/").content.decode()
    assert "cor.private" not in waiting and "anna.private" not in waiting
    duel = services.create_match(creator=anna, game_slug="sealed-cards", players=2)
    services.join_match(match_id=duel.pk, user=bram)
    duel.refresh_from_db()
    assert duel.status == "active"
    names = list(duel.seats.values_list("display_name", flat=True))
    assert sorted(names) == sorted([f"Member #{anna.pk}", f"Member #{bram.pk}"])
    page = Client().get(f"/matches/{duel.pk}/").content.decode()
    assert "private" not in page


def test_a_nameless_player_is_not_named_like_a_seat():
    """Seats list as "1 Bot 1, 2 ..., 3 Bot 3": a person's default name must not read as
    another seat's label ("Player 1" in seat 2)."""
    anna = User.objects.create_user("anna.private@example.com", "anna.private@example.com", "pw")
    name = public_name(anna)
    assert not re.fullmatch(r"(Player|Bot|Seat) \d+", name), name
    assert str(anna.pk) in name and "anna" not in name.lower()
