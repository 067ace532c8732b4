"""A player with no name is never shown by their address or its local part: the seat name
frozen at the start, the players list, the history and the API show "Player N"."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

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
    assert sorted(names) == sorted([f"Player {anna.pk}", f"Player {bram.pk}"])
    page = Client().get(f"/matches/{duel.pk}/").content.decode()
    assert "private" not in page
