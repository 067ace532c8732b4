"""Deadlines on the player's calendar, with the clock moved."""

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from games import clock
from notifications import reminders
from notifications.models import Kind, Notification
from players.models import Preferences
from players.preferences import book_vacation

from .conftest import headline, seat_of, send_all, start_match

pytestmark = pytest.mark.django_db
UTC = ZoneInfo("UTC")
FRIDAY_NOON = datetime(2024, 6, 7, 12, 0, tzinfo=UTC)


def deadline_of(match, user):
    return match.seats.get(user=user).deadline_at


def test_days_per_move(anna, ben):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=2)
    assert deadline_of(match, anna) == FRIDAY_NOON + timedelta(days=2)


def test_weekends_off_do_not_count(anna, ben):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1, weekends_off=True)
    assert deadline_of(match, anna) == datetime(2024, 6, 10, 12, 0, tzinfo=UTC)  # Monday


@pytest.mark.night
def test_weekends_are_the_players_own(anna, ben):
    Preferences.objects.create(user=anna, time_zone="Pacific/Auckland")  # UTC+12
    with time_machine.travel(FRIDAY_NOON, tick=False):  # already Saturday in Auckland
        match = start_match(anna, ben, days_per_move=1, weekends_off=True)
    local = deadline_of(match, anna).astimezone(ZoneInfo("Pacific/Auckland"))
    # Monday counted: its end, midnight, falls in her night, so the deadline is an hour
    # after it (07:00): a turn notice held overnight costs no waking time.
    assert (local.date(), local.time()) == (date(2024, 6, 11), time(8, 0))


def test_vacation_days_do_not_count(anna, ben):
    with time_machine.travel(FRIDAY_NOON - timedelta(days=7), tick=False):
        book_vacation(user=anna, first_day=date(2024, 6, 8), last_day=date(2024, 6, 9))
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    assert deadline_of(match, anna) == datetime(2024, 6, 10, 12, 0, tzinfo=UTC)
    assert deadline_of(match, ben) == datetime(2024, 6, 8, 12, 0, tzinfo=UTC)


def test_vacation_allowance(anna):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        book_vacation(user=anna, first_day=date(2024, 7, 1), last_day=date(2024, 7, 20))
        with pytest.raises(ValueError, match="allowance"):
            book_vacation(user=anna, first_day=date(2024, 8, 1), last_day=date(2024, 8, 15))


def test_a_vacation_booked_later_extends_the_running_deadline(anna, ben):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1)
        book_vacation(user=anna, first_day=date(2024, 6, 8), last_day=date(2024, 6, 8))
    stored = deadline_of(match, anna)
    with time_machine.travel(stored + timedelta(hours=1), tick=False):
        overdue = clock.overdue()
    assert [s for _, s, _ in overdue] == [seat_of(match, ben)]  # Anna has one more day


def test_a_deadline_never_falls_in_quiet_hours(anna, ben):
    Preferences.objects.create(
        user=anna, time_zone="Europe/Amsterdam", quiet_start=time(22, 0), quiet_end=time(7, 0)
    )
    asked = datetime(2024, 6, 3, 21, 30, tzinfo=UTC)  # 23:30 in Amsterdam
    with time_machine.travel(asked, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    local = deadline_of(match, anna).astimezone(ZoneInfo("Europe/Amsterdam"))
    assert (local.date(), local.time()) == (date(2024, 6, 5), time(8, 0))  # 07:00 + an hour
    assert deadline_of(match, ben) == asked + timedelta(days=1)


def test_time_bank_pays_for_time_used_and_earns_the_increment(anna):
    start = datetime(2024, 6, 3, 12, 0, tzinfo=UTC)
    with time_machine.travel(start, tick=False):
        match = start_match(anna, bots=1, time_control="bank", bank_days=3, increment_days=1)
    assert deadline_of(match, anna) == start + timedelta(days=3)
    from games import services
    from games.selectors import load_state

    with time_machine.travel(start + timedelta(days=2), tick=False):
        seat = seat_of(match, anna)
        card = load_state(match)["hands"][seat][0]
        services.submit_move(
            match_id=match.pk, seat=seat, move={"type": "play", "card": card}, source="web"
        )
    # 3 days - 2 used + 1 increment = 2 days from now.
    assert deadline_of(match, anna) == start + timedelta(days=4)


def test_the_timeout_policy_is_applied_once_by_two_overlapping_sweeps(anna, ben, no_vacation_bank):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    with time_machine.travel(FRIDAY_NOON + timedelta(days=1, minutes=1), tick=False):
        first, second = clock.overdue(), clock.overdue()  # both sweeps see the seats
        assert len(first) == 2
        for found in (first, second):
            for match_id, seat, seq in found:
                clock.enforce(match_id, seat, seq)
    timeouts = match.moves.filter(kind="timeout")
    assert sorted(timeouts.values_list("seat", flat=True)) == [0, 1]


def test_the_sweep_enforces_only_what_is_overdue(anna, ben, no_vacation_bank):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    calls = []
    with time_machine.travel(FRIDAY_NOON + timedelta(hours=23), tick=False):
        clock.sweep_deadlines(enforce=lambda *a: calls.append(a))
    assert calls == []
    with time_machine.travel(FRIDAY_NOON + timedelta(days=1), tick=False):
        clock.sweep_deadlines(enforce=clock.enforce)
        clock.sweep_deadlines(enforce=clock.enforce)
    assert match.moves.filter(kind="timeout").count() == 2


def test_a_player_is_told_when_a_deadline_played_for_them(anna, no_vacation_bank):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(
            anna, bots=1, days_per_move=1, timeout_policy="forfeit", forfeit_after=1
        )
        send_all()
    with time_machine.travel(FRIDAY_NOON + timedelta(days=1), tick=False):
        clock.sweep_deadlines(enforce=clock.enforce)  # warned first, with a day's grace
        warned = send_all()
    assert [headline(m) for m in warned][0].startswith("Warning: move by")
    with time_machine.travel(FRIDAY_NOON + timedelta(days=2, minutes=1), tick=False):
        clock.sweep_deadlines(enforce=clock.enforce)
        sent = send_all()
    # The timeout ended the match: the end mail tells what the deadline played.
    (over,) = [m for m in sent if anna.email in m.to]
    assert headline(over).startswith("Game over"), headline(over)
    assert "(you) resigned. (Forfeit after 1 timeouts.)" in over.body, over.body
    match.refresh_from_db()
    assert match.status == "finished"


def reminders_at(moment):
    with time_machine.travel(moment, tick=False):
        reminders.send_reminders()
        return [
            n.context["hours"]
            for n in Notification.objects.filter(kind=Kind.REMINDER).order_by("pk")
        ]


def test_reminders_at_the_right_times(anna, ben):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        start_match(anna, ben, days_per_move=3)
    deadline = FRIDAY_NOON + timedelta(days=3)
    assert reminders_at(deadline - timedelta(hours=25)) == []
    assert reminders_at(deadline - timedelta(hours=24)) == [24, 24]  # both players
    assert reminders_at(deadline - timedelta(hours=20)) == [24, 24]  # once only
    assert reminders_at(deadline - timedelta(hours=2)) == [24, 24, 2, 2]
    with time_machine.travel(deadline - timedelta(hours=2), tick=False):
        sent = [m for m in send_all() if headline(m).startswith("Reminder")]
    assert len(sent) == 4 and "Your deadline is" in sent[0].body


def test_reminder_hours_are_per_player_and_a_late_start_gets_only_the_urgent_one(anna, ben):
    Preferences.objects.create(user=anna, reminder_hours=[30, 6])
    with time_machine.travel(FRIDAY_NOON, tick=False):
        start_match(anna, ben, days_per_move=1)
    deadline = FRIDAY_NOON + timedelta(days=1)
    # 30 hours before was before she was asked: never sent. Ben keeps the default 24.
    assert sorted(reminders_at(deadline - timedelta(hours=6))) == [6]


@pytest.mark.night
def test_a_reminder_due_in_quiet_hours_comes_before_them(anna, ben):
    Preferences.objects.create(
        user=anna, quiet_start=time(22, 0), quiet_end=time(7, 0), reminder_hours=[2]
    )
    asked = datetime(2024, 6, 3, 6, 30, tzinfo=UTC)
    with time_machine.travel(asked, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    assert deadline_of(match, anna) == datetime(2024, 6, 4, 8, 0, tzinfo=UTC)
    # 2 hours before is 06:00, inside quiet hours: the reminder goes in the evening before,
    # a quarter of an hour before they begin (so the tick writes it while it is evening).
    # Ben set no quiet hours: his 2-hour reminder (04:30 UTC, his zone's night) too.
    assert reminders_at(datetime(2024, 6, 3, 21, 44, tzinfo=UTC)) == []
    assert reminders_at(datetime(2024, 6, 3, 21, 45, tzinfo=UTC)) == [2, 2]
    with time_machine.travel(datetime(2024, 6, 3, 21, 45, tzinfo=UTC), tick=False):
        assert len([m for m in send_all() if headline(m).startswith("Reminder")]) == 2


def test_quiet_hours_hold_mail_until_morning_without_missing_the_deadline(anna, ben):
    Preferences.objects.create(user=anna, quiet_start=time(22, 0), quiet_end=time(7, 0))
    night = datetime(2024, 6, 3, 23, 0, tzinfo=UTC)
    with time_machine.travel(night, tick=False):
        match = start_match(anna, ben, days_per_move=1)
        held = [m for m in send_all() if anna.email in m.to]
    assert held == []
    with time_machine.travel(datetime(2024, 6, 4, 7, 0, tzinfo=UTC), tick=False):
        morning = [m for m in send_all() if anna.email in m.to]
    assert len(morning) == 1  # the turn notice, the start told in it
    assert deadline_of(match, anna) > datetime(2024, 6, 4, 7, 0, tzinfo=UTC) + timedelta(hours=12)
