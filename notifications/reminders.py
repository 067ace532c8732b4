"""Reminders: a seat asked to decide is reminded the player's chosen hours before its
deadline (games.clock works the deadline out), never in the player's night (their quiet
hours, or 22:00 to 07:00 in their zone when they set none)."""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from django.db.models import F, Q
from django.utils import timezone

from games.clock import effective_deadline, with_calendars
from games.models import MatchStatus, Seat
from games.vacation_bank import shows_sign_of_life, sign_of_life_window
from players.calendar import Calendar
from players.preferences import night_end_after, night_start_before

from .models import Kind, Notification

log = logging.getLogger(__name__)

# A reminder costs what is due, not the seats that exist. Each seat carries its schedule
# (Seat.reminder_seq, Seat.remind_at): the tick reads only the seats asked since it last
# looked (their deadline_seq is newer than their reminder_seq: partial index
# seat_reminder_unscheduled) and those whose next reminder time has come (seat_reminder_due),
# a batch at a time, and writes back when the next reminder may be due. The schedule is a
# cache of what `_reminder_plan` works out from the deadline, the player's calendar and
# preferences: it is only ever early (a vacation booked later moves the deadline on, and
# the seat is looked at again then), and whatever could make a reminder earlier puts the
# player's seats back in the unscheduled index (`reschedule_reminders`). Seeing every seat
# asked, the tick also wakes the digest of a player whose digest hour found nothing waiting.

MAX_REMINDER_HOURS = 7 * 24
REMINDER_MIN_GAP = timedelta(hours=1)
# A reminder that would fall in the night is due this long before the night begins, so the
# tick (every five minutes) writes it while it is still evening.
BEFORE_NIGHT = timedelta(minutes=15)
REMINDER_BATCH = 200
# The beat sends reminders every 300 s; a tick with a backlog (the first after an upgrade,
# or after the beat was down) stops after this long and the next one goes on.
REMINDER_TICK_BUDGET = 60.0


def reminder_time(prefs, deadline: datetime, hours: int) -> datetime:
    """`hours` before the deadline; a reminder that would fall in the player's night comes
    before it begins instead of after, so it still arrives in time. (A tick that finds it
    due in the night all the same, late, holds it until morning: outbox.reminder.)"""
    at = deadline - timedelta(hours=hours)
    for moment in (at, at + BEFORE_NIGHT):  # in the night, or too close to it
        night_start = night_start_before(prefs, moment)
        if night_start != moment:
            return min(at, night_start - BEFORE_NIGHT)
    return at


def _unscheduled_seats():
    # The filter is seat_reminder_unscheduled's predicate, so PostgreSQL reads that index.
    return (
        Seat.objects.filter(deadline_seq__isnull=False)
        .filter(Q(reminder_seq__isnull=True) | Q(reminder_seq__lt=F("deadline_seq")))
        .order_by("deadline_at", "pk")
    )


def _seats_with_reminder_due(now: datetime):
    # Served by seat_reminder_due.
    return Seat.objects.filter(remind_at__isnull=False, remind_at__lte=now).order_by(
        "remind_at", "pk"
    )


def _reminder_plan(
    seat: Seat, calendar: Calendar, clock, now: datetime
) -> tuple[datetime | None, int | None, datetime | None]:
    """(deadline, the reminder due now as its hours before the deadline or None, when the
    next one is due or None). A late-starting decision gets only the most urgent reminder
    that applies, and a reminder only makes sense some time after the player was asked."""
    match = seat.match
    if (
        seat.user is None
        or seat.played_by_bot
        or seat.deadline_seq is None
        or match.status != MatchStatus.ACTIVE
        or seat.number not in match.to_act
    ):
        return None, None, None
    prefs = calendar.prefs
    if calendar.stopped:
        # Mail is not getting through, and the clock waits: give_time_back schedules the
        # seat again when it runs.
        return None, None, None
    deadline = effective_deadline(seat, calendar, clock)
    if deadline is None or deadline <= now:
        return None, None, None
    # Told when asked, or, asked in their night, when it ends (the turn notice waits for
    # the morning unless they are up: outbox.held_until).
    asked = night_end_after(prefs, seat.waiting_since or now)
    hours = sorted({int(h) for h in prefs.reminder_hours or [] if 0 < int(h) <= MAX_REMINDER_HOURS})
    times = {h: reminder_time(prefs, deadline, h) for h in hours}
    times = {h: at for h, at in times.items() if asked + REMINDER_MIN_GAP < at}
    due = [h for h, at in times.items() if at <= now]
    later = [at for at in times.values() if at > now]
    return deadline, min(due, default=None), min(later, default=None)


def _reminders_sent(keys: list[tuple[int, int, int]]) -> dict[tuple[int, int, int], list[int]]:
    """The hours of the reminders already written for these (match, seat, deadline_seq)."""
    if not keys:
        return {}
    wanted = Q()
    for match_id, seat, seq in keys:
        wanted |= Q(match_id=match_id, seat=seat, seq=seq)
    sent: dict[tuple[int, int, int], list[int]] = {}
    for match_id, seat, seq, context in Notification.objects.filter(
        wanted, kind=Kind.REMINDER
    ).values_list("match_id", "seat", "seq", "context"):
        sent.setdefault((match_id, seat, seq), []).append(context.get("hours", 0))
    return sent


def _gone(user, now: datetime) -> bool:
    """A player who timed out somewhere and has shown no sign of life for the window
    (games.vacation_bank): their turn notices still go, their reminders do not."""
    if shows_sign_of_life(user, now - sign_of_life_window()):
        return False
    return Seat.objects.filter(user=user, timeouts__gt=0).exists()


def _remind(batch: list[tuple], now: datetime) -> int:
    """Write the reminders due for one batch of (seat, calendar, clock) and each seat's next
    reminder time: the reminder rows, then one UPDATE for the batch's schedules."""
    from . import outbox

    plans = [(seat, *_reminder_plan(seat, calendar, clock, now)) for seat, calendar, clock in batch]
    due = [(seat, deadline, hours) for seat, deadline, hours, _ in plans if hours is not None]
    sent = _reminders_sent([(s.match_id, s.number, s.deadline_seq) for s, _, _ in due])
    written = 0
    for seat, deadline, hours in due:
        earlier = sent.get((seat.match_id, seat.number, seat.deadline_seq), [])
        if any(h <= hours for h in earlier):
            continue  # this one, or a more urgent one, went out already
        if _gone(seat.user, now):
            continue  # a reminder would only nag someone who is gone
        written += outbox.reminder(seat, deadline=deadline, hours=hours, now=now)
    for seat, _, _, next_at in plans:
        # The decision read, not F("deadline_seq"): a seat asked again meanwhile stays
        # unscheduled, and the next batch works its schedule out again.
        seat.reminder_seq = seat.deadline_seq
        seat.remind_at = next_at
    Seat.objects.bulk_update([p[0] for p in plans], ["reminder_seq", "remind_at"])
    return written


def send_reminders(now: datetime | None = None, budget: float = REMINDER_TICK_BUDGET) -> int:
    """Write the reminder rows that are due. At most one per seat and deadline is written
    for each of the player's reminder hours, and a late-starting decision gets only the
    most urgent reminder that applies. Reads the seats asked since the last tick and those
    with a reminder due, REMINDER_BATCH at a time, for at most `budget` seconds."""
    from .digest import wake_idle

    now = now or timezone.now()
    started = time.monotonic()
    written = 0
    for seats in (_unscheduled_seats, lambda: _seats_with_reminder_due(now)):
        while True:
            # The ids first: a tick with nothing due is two small queries.
            ids = list(seats().values_list("pk", flat=True)[:REMINDER_BATCH])
            batch = list(Seat.objects.filter(pk__in=ids).select_related("match", "user"))
            if batch:
                written += _remind(with_calendars(batch), now)
                if seats is _unscheduled_seats:  # asked since the last tick
                    wake_idle({s.user_id for s in batch if s.user_id}, now)
            if len(ids) < REMINDER_BATCH:
                break
            if time.monotonic() - started > budget:
                log.warning("reminders stopped after %.0f s; the next tick goes on", budget)
                return written
    return written


def reschedule_reminders(user, only: tuple[int, int] | None = None) -> int:
    """Have the next tick work out again the reminder times of `user`'s asked seats (or of
    the one seat `only` names, as (match, seat)): their deadline moved, their clock runs
    again, or their preferences or vacations changed. Returns the seats."""
    seats = Seat.objects.filter(user=user, deadline_seq__isnull=False)
    if only is not None:
        seats = seats.filter(match_id=only[0], number=only[1])
    return seats.update(reminder_seq=None)
