"""The digest tick costs what is due, not the players who take a digest."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from notifications import digest, reminders
from notifications.models import Kind, Notification
from players.models import NoticeMode, Preferences
from tests.plans import assert_served_by_indexes

from .conftest import start_match

pytestmark = pytest.mark.django_db
UTC = ZoneInfo("UTC")
MONDAY_SIX = datetime(2024, 6, 3, 6, 0, tzinfo=UTC)


def digest_players(count: int, start: int = 0) -> None:
    users = User.objects.bulk_create(User(username=f"d{n}") for n in range(start, start + count))
    Preferences.objects.bulk_create(
        Preferences(user=u, mode=NoticeMode.DIGEST, digest_hour=8) for u in users
    )


def digests_at(moment) -> tuple[int, int]:
    """(digests written, queries run) by one tick at `moment`."""
    with time_machine.travel(moment, tick=False), CaptureQueriesContext(connection) as queries:
        written = digest.send_digests()
    return written, len(queries)


def test_a_tick_with_no_digest_due_is_one_query_however_many_take_one():
    idle = []
    for count, start in ((5, 0), (150, 5)):
        digest_players(count, start)
        digests_at(MONDAY_SIX)  # works out when each is due: 08:00
        idle.append(digests_at(MONDAY_SIX + timedelta(hours=1)))
    assert idle == [(0, 1), (0, 1)]


def test_an_empty_digest_hour_waits_for_a_match_asking_the_player_that_day(anna, ben):
    Preferences.objects.create(user=anna, mode=NoticeMode.DIGEST, digest_hour=8)
    assert digests_at(MONDAY_SIX + timedelta(hours=2))[0] == 0  # 08:00: nothing waiting
    assert Preferences.objects.get(user=anna).digest_idle
    with time_machine.travel(MONDAY_SIX + timedelta(hours=4), tick=False):
        start_match(anna, ben)
        reminders.send_reminders()  # sees the seats just asked, and wakes Anna's digest
    assert digests_at(MONDAY_SIX + timedelta(hours=4, minutes=15))[0] == 1
    assert digests_at(MONDAY_SIX + timedelta(hours=5))[0] == 0  # one a day
    assert Notification.objects.filter(kind=Kind.DIGEST, user=anna).count() == 1
    # The next morning's comes at 08:00, with the match still waiting.
    assert digests_at(MONDAY_SIX + timedelta(days=1, hours=1, minutes=59))[0] == 0
    assert digests_at(MONDAY_SIX + timedelta(days=1, hours=2))[0] == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans")
def test_the_digest_tick_reads_players_through_its_index():
    digest_players(20)
    due = Preferences.objects.filter(mode=NoticeMode.DIGEST).filter(
        Q(digest_due_at__isnull=True) | Q(digest_due_at__lte=MONDAY_SIX)
    )
    plan = assert_served_by_indexes(due, "prefs_digest_due")
    assert "Seq Scan on notifications_preferences" not in plan
