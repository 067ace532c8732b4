"""The deadline sweep reads overdue seats in bounded batches, oldest deadline first, with
each batch's preferences and vacations read together, and stops after a bounded number."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import clock
from players.preferences import book_vacation

from .conftest import seat_of, start_match

pytestmark = pytest.mark.django_db
UTC = ZoneInfo("UTC")
MONDAY_NOON = datetime(2024, 6, 3, 12, 0, tzinfo=UTC)


def _matches(anna, ben, n):
    out = []
    for i in range(n):
        with time_machine.travel(MONDAY_NOON + timedelta(minutes=i), tick=False):
            out.append(start_match(anna, ben, days_per_move=1))
    return out


def test_batches_cover_every_overdue_seat_in_deadline_order(anna, ben, monkeypatch):
    monkeypatch.setattr(clock, "SWEEP_BATCH", 3)
    monkeypatch.setattr(clock, "_seat_batches", _small(clock._seat_batches, 3))
    matches = _matches(anna, ben, 4)  # 8 seats, deadlines a minute apart per match
    with time_machine.travel(MONDAY_NOON + timedelta(days=2), tick=False):
        found = clock.overdue()
        calls = []
        handed = clock.sweep_deadlines(enforce=lambda *a: calls.append(a))
    expected = [(m.pk, s, 0) for m in matches for s in (0, 1)]
    assert sorted(found) == sorted(expected)
    assert [f[0] for f in found] == sorted(f[0] for f in found)  # oldest deadline first
    assert handed == 8 and sorted(calls) == sorted(expected)


def test_a_sweep_hands_on_a_bounded_number_and_the_next_goes_on(
    anna, ben, monkeypatch, no_vacation_bank
):
    monkeypatch.setattr(clock, "SWEEP_MAX_BATCHES", 1)
    monkeypatch.setattr(clock, "_seat_batches", _small(clock._seat_batches, 3))
    _matches(anna, ben, 3)
    with time_machine.travel(MONDAY_NOON + timedelta(days=2), tick=False):
        assert clock.sweep_deadlines(enforce=clock.enforce) == 3
        assert clock.sweep_deadlines(enforce=clock.enforce) == 3
        assert len(clock.overdue()) == 0


def test_vacations_are_read_per_batch_not_per_seat(anna, ben):
    with time_machine.travel(MONDAY_NOON - timedelta(days=7), tick=False):
        book_vacation(user=anna, first_day=date(2024, 6, 4), last_day=date(2024, 6, 4))
    matches = _matches(anna, ben, 5)
    with time_machine.travel(MONDAY_NOON + timedelta(days=1, hours=1), tick=False):
        with CaptureQueriesContext(connection) as queries:
            found = clock.overdue()
    # Ben's deadlines passed; Anna has her vacation day on top.
    assert sorted(found) == sorted((m.pk, seat_of(m, ben), 0) for m in matches)
    # the seats, their preferences, their vacations, and (for the overdue ones) whether the
    # email asking them is still being retried: one query each
    assert len(queries) == 4, [q["sql"][:80] for q in queries]


def _small(batches, size):
    def smaller(moment, batch=size):
        return batches(moment, batch)

    return smaller
