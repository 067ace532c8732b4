"""A small world for platform tests: users and sealed-cards matches."""

from __future__ import annotations

from django.contrib.auth.models import User

from games import services


def make_user(name: str) -> User:
    email = f"{name.lower()}@example.com"
    return User.objects.create_user(
        username=email, email=email, password="correct horse", first_name=name
    )


def two_player_match(seed: str = "fixed-seed", names=("Anna", "Bram"), **kwargs):
    """Two people in a started sealed-cards match; returns (match, first_seat, second_seat)."""
    anna, bram = make_user(names[0]), make_user(names[1])
    match = services.create_match(
        creator=anna,
        game_slug="sealed-cards",
        players=2,
        invite_emails=[bram.email],
        seed=seed,
        **kwargs,
    )
    services.join_match(match_id=match.pk, user=bram)
    match.refresh_from_db()
    seats = {s.user_id: s.number for s in match.seats.all()}
    return match, seats[anna.pk], seats[bram.pk]
