"""A move's notification hooks read each person's preferences and vacations once."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.selectors import load_state
from notifications.models import Kind, Notification

from .conftest import seat_of

pytestmark = pytest.mark.django_db


def _play(match, user):
    match.refresh_from_db()
    seat = seat_of(match, user)
    card = min(load_state(match)["hands"][seat])
    return services.submit_move(
        match_id=match.pk, seat=seat, move={"type": "play", "card": card}, source="web"
    )


def test_preferences_and_vacations_are_read_once_per_move(match, anna, ben):
    _play(match, anna)
    with CaptureQueriesContext(connection) as queries:
        result = _play(match, ben)  # ends the trick: both seats are asked again
    assert result.ok
    sql = [q["sql"] for q in queries]
    prefs = [q for q in sql if "notifications_preferences" in q]
    vacations = [q for q in sql if 'FROM "notifications_vacation"' in q]
    assert len(prefs) == 1, prefs
    assert len(vacations) == 1, vacations
    match.refresh_from_db()
    turns = Notification.objects.filter(kind=Kind.TURN, seq=match.head_seq)
    assert sorted(turns.values_list("seat", flat=True)) == [0, 1]
