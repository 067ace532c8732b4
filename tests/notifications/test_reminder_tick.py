"""The reminder tick costs what is due, not the seats that exist."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match, Seat
from notifications import reminders
from notifications.models import Kind, Notification
from players.models import Preferences
from tests.plans import assert_served_by_indexes

from .conftest import start_match

pytestmark = pytest.mark.django_db
UTC = ZoneInfo("UTC")
FRIDAY_NOON = datetime(2024, 6, 7, 12, 0, tzinfo=UTC)
DEADLINE = FRIDAY_NOON + timedelta(days=3)


def copies(match: Match, count: int, *, later: timedelta) -> None:
    """`count` more active matches like `match`, their seats asked with deadlines `later`."""
    made = Match.objects.bulk_create(
        Match(
            game_slug=match.game_slug,
            rules_version=match.rules_version,
            player_count=match.player_count,
            seed=match.seed,
            seed_commitment=match.seed_commitment,
            status=match.status,
            started_at=match.started_at,
            head_seq=match.head_seq,
            to_act=match.to_act,
        )
        for _ in range(count)
    )
    seats = list(match.seats.all())
    Seat.objects.bulk_create(
        Seat(
            match=m,
            number=s.number,
            user=s.user,
            display_name=s.display_name,
            deadline_at=s.deadline_at + later,
            deadline_seq=s.deadline_seq,
            waiting_since=s.waiting_since,
        )
        for m in made
        for s in seats
    )


def tick_at(moment) -> tuple[int, int]:
    """(reminders written, queries run) by one tick at `moment`."""
    with time_machine.travel(moment, tick=False), CaptureQueriesContext(connection) as queries:
        written = reminders.send_reminders()
    return written, len(queries)


def test_a_tick_reads_what_is_due_not_the_seats_that_exist(anna, ben):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        start_match(anna, ben, days_per_move=3)
    match = Match.objects.get()
    idle, due = [], []
    for more in (5, 120):
        copies(match, more, later=timedelta(days=2))  # asked too, nothing due for days
        tick_at(FRIDAY_NOON + timedelta(hours=2))  # the tick after they were asked
        idle.append(tick_at(DEADLINE - timedelta(hours=30)))
        Seat.objects.filter(match=match).update(reminder_seq=None)  # the first match again
        tick_at(FRIDAY_NOON + timedelta(hours=2))
        Notification.objects.filter(kind=Kind.REMINDER).delete()
        due.append(tick_at(DEADLINE - timedelta(hours=24)))
    # Nothing due: two reads of empty index ranges, whatever the number of seats.
    assert idle == [(0, 2), (0, 2)]
    # Two reminders due: the same statements with 10 or 240 other seats asked.
    assert due[0] == due[1] and due[0][0] == 2


def test_a_seat_asked_again_or_given_new_hours_is_scheduled_again(client, anna, ben):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=3)
        reminders.send_reminders()
    seat = match.seats.get(user=anna)
    assert (seat.reminder_seq, seat.remind_at) == (
        seat.deadline_seq,
        DEADLINE - timedelta(hours=24),
    )
    # Anna asks to be told two days ahead: the schedule is worked out again.
    client.force_login(anna)
    form = {"action": "save", "mode": "every", "time_zone": "UTC", "digest_hour": "8"}
    with time_machine.travel(FRIDAY_NOON + timedelta(hours=1), tick=False):
        client.post("/n/preferences/", {**form, "reminder_hours": "48, 2"})
    assert Preferences.objects.get(user=anna).reminder_hours == [48, 2]
    assert tick_at(DEADLINE - timedelta(hours=48))[0] == 1
    assert [n.context["hours"] for n in Notification.objects.filter(kind=Kind.REMINDER)] == [48]


def test_a_backlog_is_taken_a_batch_at_a_time_within_the_budget(anna, ben, monkeypatch):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        start_match(anna, ben, days_per_move=3)
    copies(Match.objects.get(), 30, later=timedelta(0))
    asked = reminders._unscheduled_seats().count()
    monkeypatch.setattr(reminders, "REMINDER_BATCH", 20)
    with time_machine.travel(FRIDAY_NOON + timedelta(hours=2), tick=False):
        reminders.send_reminders(budget=0)  # stops after its first batch
        assert reminders._unscheduled_seats().count() == asked - 20 > 0
        reminders.send_reminders()
        assert not reminders._unscheduled_seats().exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans")
def test_the_tick_reads_seats_through_its_indexes(anna, ben):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        start_match(anna, ben, days_per_move=3)
    batch = reminders.REMINDER_BATCH
    assert_served_by_indexes(reminders._unscheduled_seats()[:batch], "seat_reminder_unscheduled")
    assert_served_by_indexes(
        reminders._seats_with_reminder_due(FRIDAY_NOON)[:batch], "seat_reminder_due"
    )
