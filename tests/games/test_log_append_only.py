import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction

from games import services
from games.models import AppendOnlyError, Move


@pytest.fixture
def finished_match(db):
    user = User.objects.create_user("anna@example.com", "anna@example.com", "pw")
    match = services.create_match(creator=user, game_slug="sealed-cards", players=2, bots=1)
    # Anna's standing order plays her lowest card; the bot answers; the match runs out.
    services.set_standing_orders(
        match_id=match.pk, seat=_seat_of(match, user), orders=["play-lowest"]
    )
    match.refresh_from_db()
    return match


def _seat_of(match, user):
    return match.seats.get(user=user).number


def test_match_plays_to_the_end_through_the_service(finished_match):
    assert finished_match.status == "finished"
    assert finished_match.moves.count() == 6


def test_orm_cannot_update_or_delete_a_move(finished_match):
    move = finished_match.moves.first()
    move.payload = {"type": "play", "card": 99}
    with pytest.raises(AppendOnlyError):
        move.save()
    with pytest.raises(AppendOnlyError):
        move.delete()
    with pytest.raises(AppendOnlyError):
        Move.objects.filter(pk=move.pk).update(payload={})
    with pytest.raises(AppendOnlyError):
        Move.objects.filter(pk=move.pk).delete()
    assert Move.objects.get(pk=move.pk).payload != {"type": "play", "card": 99}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="trigger exists on PostgreSQL only")
def test_postgresql_trigger_refuses_raw_update_and_delete(finished_match):
    move = finished_match.moves.first()
    for sql in (
        "UPDATE games_move SET payload = '{}' WHERE id = %s",
        "DELETE FROM games_move WHERE id = %s",
    ):
        with pytest.raises(IntegrityError, match="append-only"):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql, [move.pk])
    assert Move.objects.filter(pk=move.pk).exists()
