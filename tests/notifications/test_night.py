"""No reminder, digest or mail of the clock's in the player's night (issue 46): their quiet
hours, or 22:00 to 07:00 in their zone when they set none, read with that day's own UTC
offset, across the change to and from summer time."""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from notifications import outbox, reminders
from notifications.digest import send_digests
from notifications.models import Kind, Notification
from players.models import NoticeMode, Preferences
from players.preferences import in_night, night_end_after

from .conftest import start_match

pytestmark = pytest.mark.night

AMSTERDAM = ZoneInfo("Europe/Amsterdam")


@pytest.mark.parametrize(
    "day",
    [
        date(2024, 3, 30),
        date(2024, 3, 31),
        date(2024, 10, 26),
        date(2024, 10, 27),
        date(2024, 6, 3),
    ],
)
@pytest.mark.parametrize("quiet", [None, (time(23, 0), time(8, 0))])
def test_a_reminder_never_falls_in_the_night_on_the_day_the_clocks_change(day, quiet):
    prefs = Preferences(time_zone="Europe/Amsterdam")
    if quiet:
        prefs.quiet_start, prefs.quiet_end = quiet
    start = (quiet or (time(22), time(7)))[0]
    for hour in range(24):
        deadline = datetime.combine(day, time(hour, 30), AMSTERDAM).astimezone(UTC)
        for hours in (1, 2, 24):
            at = reminders.reminder_time(prefs, deadline, hours)
            local = at.astimezone(AMSTERDAM)
            assert not in_night(prefs, at), (deadline, hours, local)
            # A tick up to ten minutes late still writes it in the evening.
            assert not in_night(prefs, at + timedelta(minutes=10)), (deadline, hours, local)
            if at != deadline - timedelta(hours=hours):  # moved: before the night's start
                assert local.time() == (datetime.combine(day, start) - timedelta(minutes=15)).time()


def test_a_reminder_a_late_tick_writes_in_the_night_waits_for_the_morning(anna, ben):
    Preferences.objects.create(user=anna, time_zone="Europe/Amsterdam", reminder_hours=[2])
    with time_machine.travel(datetime(2024, 6, 3, 12, 0, tzinfo=UTC), tick=False):
        match = start_match(anna, ben, days_per_move=1)
    seat = match.seats.get(user=anna)
    late = datetime(2024, 6, 4, 0, 30, tzinfo=UTC)  # 02:30 in Amsterdam
    outbox.reminder(seat, deadline=late + timedelta(hours=2), hours=2, now=late)
    row = Notification.objects.get(kind=Kind.REMINDER, user=anna)
    assert row.send_after == datetime(2024, 6, 4, 5, 0, tzinfo=UTC)  # 07:00 in Amsterdam


def test_a_digest_hour_in_the_night_waits_for_the_morning(anna, ben):
    prefs = Preferences.objects.create(
        user=anna, time_zone="America/New_York", mode=NoticeMode.DIGEST, digest_hour=23
    )
    with time_machine.travel(datetime(2024, 6, 3, 12, 0, tzinfo=UTC), tick=False):
        start_match(anna, ben, days_per_move=3)
    eleven_pm = datetime(2024, 6, 4, 3, 5, tzinfo=UTC)  # 23:05 in New York
    with time_machine.travel(eleven_pm, tick=False):
        assert send_digests() == 0
    prefs.refresh_from_db()
    assert prefs.digest_due_at == night_end_after(prefs, eleven_pm)
    assert prefs.digest_due_at.astimezone(ZoneInfo("America/New_York")).hour == 7
    with time_machine.travel(prefs.digest_due_at, tick=False):
        assert send_digests() == 1


def test_a_reminder_written_by_the_tick_reads_the_players_own_night(anna, ben):
    """The tick reads calendars for a batch of seats; the mail it writes then must still
    read the player's saved zone (a default Preferences once took the user's cache)."""
    Preferences.objects.create(user=anna, time_zone="America/New_York", reminder_hours=[10])
    Preferences.objects.create(user=ben, time_zone="America/New_York", reminder_hours=[10])
    with time_machine.travel(datetime(2024, 6, 3, 18, 0, tzinfo=UTC), tick=False):
        start_match(anna, ben, days_per_move=2)  # deadline: 14:00 in New York, 5 June
    # The reminder was due at 21:45 in New York on the 4th; the tick runs late, at 03:00.
    late = datetime(2024, 6, 5, 7, 0, tzinfo=UTC)
    with time_machine.travel(late, tick=False):
        reminders.send_reminders(late)
    rows = Notification.objects.filter(kind=Kind.REMINDER)
    assert rows.count() == 2
    for row in rows:
        assert row.send_after == datetime(2024, 6, 5, 11, 0, tzinfo=UTC)  # 07:00 there


def _turns(match) -> dict[int, datetime]:
    rows = Notification.objects.filter(kind=Kind.TURN, channel="email", match=match)
    return {row.user_id: row.send_after for row in rows.filter(seq=match.head_seq)}


def test_a_turn_notice_in_the_night_waits_for_the_morning_and_costs_no_waking_time(anna, ben):
    """Without quiet hours, mail another player's move causes waits for the end of the
    night (22:00 to 07:00 in their zone), and the deadline is placed past the night, so the
    held notice costs nothing."""
    for user in (anna, ben):
        Preferences.objects.create(user=user, time_zone="Europe/Amsterdam")
    eleven_pm = datetime(2024, 6, 3, 21, 0, tzinfo=UTC)  # 23:00 in Amsterdam (CEST)
    with time_machine.travel(eleven_pm, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    morning = datetime(2024, 6, 4, 5, 0, tzinfo=UTC)  # 07:00 there
    assert _turns(match) == {anna.pk: morning, ben.pk: morning}
    # A day per move from 23:00 ends in the next night: the deadline is 08:00 after it,
    # more than a day after the notice arrives.
    assert match.seats.get(user=anna).deadline_at == datetime(2024, 6, 5, 6, 0, tzinfo=UTC)


def test_a_player_who_is_up_gets_the_turn_notice_at_once(anna, ben):
    """A move of their own in the last hour: they are playing, at any hour."""
    from games import services
    from games.selectors import load_state

    for user in (anna, ben):
        Preferences.objects.create(user=user, time_zone="Europe/Amsterdam")
    eleven_pm = datetime(2024, 6, 3, 21, 0, tzinfo=UTC)
    with time_machine.travel(eleven_pm, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    for minutes, user in ((10, anna), (20, ben)):  # both play the first trick on the page
        with time_machine.travel(eleven_pm + timedelta(minutes=minutes), tick=False):
            seat = match.seats.get(user=user).number
            match.refresh_from_db()
            move = match.game.legal_moves(load_state(match), seat)[0]
            services.submit_move(match_id=match.pk, seat=seat, move=move, source="web")
    match.refresh_from_db()
    now = eleven_pm + timedelta(minutes=20)
    assert _turns(match) == {anna.pk: now, ben.pk: now}
    # An hour and more later, who has not moved since is asleep again.
    with time_machine.travel(now + timedelta(minutes=61), tick=False):
        assert outbox.held_until(
            anna, Preferences.objects.get(user=anna), now + timedelta(minutes=61)
        ) == datetime(2024, 6, 4, 5, 0, tzinfo=UTC)
