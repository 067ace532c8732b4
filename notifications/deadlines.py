"""Deadlines: when a seat's decision times out, the sweep that enforces it, and reminders.

Time is counted on the player's calendar: with weekends off, Saturdays and Sundays in the
player's time zone do not count, nor do the player's vacation days. A deadline that would
fall in the player's quiet hours moves past their end, so holding mail overnight can never
cost a player a move. The deadline itself is stored on `Seat` by the service layer (which
calls `deadline_for`); a vacation booked later extends it here, through
`effective_deadline`, which the sweep and the reminders read.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone

from games.models import Match, MatchStatus, MoveKind, Seat, TimeControl

from .models import Kind, SeatClock
from .preferences import (
    in_quiet_hours,
    prefs_for,
    quiet_end_after,
    quiet_start_before,
    vacation_days,
    zone,
)

log = logging.getLogger(__name__)

DAY = 86400
QUIET_GRACE = timedelta(hours=1)  # after quiet hours end, time to read the morning's mail
MAX_CALENDAR_DAYS = 3660


def _is_off_day(match: Match, vacation: set[date]) -> Callable[[date], bool]:
    def off(day: date) -> bool:
        return (match.weekends_off and day.weekday() >= 5) or day in vacation

    return off


def _next_midnight(at: datetime, tz: ZoneInfo) -> datetime:
    local = at.astimezone(tz)
    following = datetime.combine(local.date() + timedelta(days=1), datetime.min.time(), tz)
    return following.astimezone(ZoneInfo("UTC"))


def add_counted(start: datetime, seconds: int, tz: ZoneInfo, off: Callable[[date], bool]):
    """The moment `seconds` of counted time after `start`, skipping off days."""
    at = start.astimezone(ZoneInfo("UTC"))
    remaining = timedelta(seconds=max(0, seconds))
    for _ in range(MAX_CALENDAR_DAYS):
        midnight = _next_midnight(at, tz)
        if off(at.astimezone(tz).date()):
            at = midnight
            continue
        if remaining <= midnight - at:
            return at + remaining
        remaining -= midnight - at
        at = midnight
    return at + remaining


def counted_seconds(start: datetime, end: datetime, tz: ZoneInfo, off: Callable[[date], bool]):
    """Counted time between two moments, off days left out."""
    at = start.astimezone(ZoneInfo("UTC"))
    end = end.astimezone(ZoneInfo("UTC"))
    total = timedelta(0)
    for _ in range(MAX_CALENDAR_DAYS):
        if at >= end:
            break
        midnight = min(_next_midnight(at, tz), end)
        if not off(at.astimezone(tz).date()):
            total += midnight - at
        at = midnight
    return int(total.total_seconds())


def compute_deadline(match: Match, user, start: datetime, seconds: int) -> datetime:
    """`seconds` of the player's counted time after `start`, never inside quiet hours."""
    prefs = prefs_for(user)
    tz = zone(prefs)
    deadline = add_counted(start, seconds, tz, _is_off_day(match, vacation_days(user)))
    if in_quiet_hours(prefs, deadline):
        deadline = quiet_end_after(prefs, deadline) + QUIET_GRACE
    return deadline


def _initial_bank(match: Match) -> int:
    return max(1, match.bank_days) * DAY


def deadline_for(match: Match, seat: Seat, now: datetime) -> datetime | None:
    """When `seat`'s decision that starts at `now` times out (called by the service layer,
    inside its transaction, when the seat is asked).

    Days per move: that many counted days from now. Time bank: the bank first pays for the
    time the seat took over its previous decision, then earns the increment; the deadline is
    when what is left runs out.
    """
    if match.time_control != TimeControl.BANK:
        return compute_deadline(match, seat.user, now, match.days_per_move * DAY)
    clock, _ = SeatClock.objects.get_or_create(
        match=match, seat=seat.number, defaults={"bank_seconds": _initial_bank(match)}
    )
    answered = None
    if clock.asked_seq is not None:
        answered = (
            match.moves.filter(
                seat=seat.number,
                seq__gt=clock.asked_seq,
                kind__in=[MoveKind.MOVE, MoveKind.TIMEOUT],
            )
            .order_by("seq")
            .only("created_at")
            .first()
        )
    if answered is not None:
        prefs = prefs_for(seat.user)
        off = _is_off_day(match, vacation_days(seat.user))
        used = counted_seconds(clock.asked_at, answered.created_at, zone(prefs), off)
        clock.bank_seconds = max(0, clock.bank_seconds - used) + match.increment_days * DAY
    if answered is not None or clock.asked_seq is None:
        clock.asked_at = now
        clock.asked_seq = match.head_seq
    clock.save()
    return compute_deadline(match, seat.user, clock.asked_at, clock.bank_seconds)


def effective_deadline(seat: Seat) -> datetime | None:
    """The seat's deadline as it stands now: the stored one, later if vacation was booked
    after it was set."""
    if seat.deadline_at is None:
        return None
    match = seat.match
    if match.time_control == TimeControl.BANK:
        clock = SeatClock.objects.filter(match=match, seat=seat.number).first()
        if clock is None or clock.asked_at is None:
            return seat.deadline_at
        start, seconds = clock.asked_at, clock.bank_seconds
    else:
        if seat.waiting_since is None:
            return seat.deadline_at
        start, seconds = seat.waiting_since, match.days_per_move * DAY
    return max(seat.deadline_at, compute_deadline(match, seat.user, start, seconds))


def _seats_with_deadline_before(moment: datetime):
    # Served by the partial index on Seat.deadline_at (seat_deadline_due).
    return (
        Seat.objects.filter(deadline_at__isnull=False, deadline_at__lte=moment)
        .filter(match__status=MatchStatus.ACTIVE)
        .select_related("match", "user")
        .order_by("deadline_at")
    )


def overdue(now: datetime | None = None) -> list[tuple[int, int, int]]:
    """(match_id, seat, deadline_seq) of every seat whose deadline has passed."""
    now = now or timezone.now()
    found = []
    for seat in _seats_with_deadline_before(now):
        deadline = effective_deadline(seat)
        if deadline is not None and deadline <= now and seat.deadline_seq is not None:
            found.append((seat.match_id, seat.number, seat.deadline_seq))
    return found


def sweep_deadlines(
    now: datetime | None = None, enforce: Callable[[int, int, int], object] | None = None
) -> int:
    """Hand every overdue seat to `enforce` (by default: enqueue the enforcement task).
    Enforcement re-checks under the match lock, so two sweeps at once apply a policy once."""
    if enforce is None:
        from .tasks import enforce_deadline

        def enforce(match_id: int, seat: int, deadline_seq: int) -> None:
            enforce_deadline.delay(match_id, seat, deadline_seq)

    found = overdue(now)
    for match_id, seat, deadline_seq in found:
        try:
            enforce(match_id, seat, deadline_seq)
        except Exception:  # one match must not stop the sweep; the next sweep retries
            log.exception("enforcing the deadline of match %s seat %s failed", match_id, seat)
    return len(found)


def enforce(match_id: int, seat: int, deadline_seq: int):
    from games import services

    return services.enforce_timeout(match_id=match_id, seat=seat, deadline_seq=deadline_seq)


# --- reminders ---------------------------------------------------------------------------

MAX_REMINDER_HOURS = 7 * 24
REMINDER_MIN_GAP = timedelta(hours=1)


def reminder_time(prefs, deadline: datetime, hours: int) -> datetime:
    """`hours` before the deadline; a reminder that would fall in quiet hours comes before
    they begin instead of after, so it still arrives in time."""
    return quiet_start_before(prefs, deadline - timedelta(hours=hours))


def send_reminders(now: datetime | None = None) -> int:
    """Write the reminder rows that are due. At most one per seat and deadline is written
    for each of the player's reminder hours, and a late-starting decision gets only the
    most urgent reminder that applies."""
    from . import outbox
    from .models import Notification

    now = now or timezone.now()
    written = 0
    for seat in _seats_with_deadline_before(now + timedelta(hours=MAX_REMINDER_HOURS)):
        if seat.user is None or seat.played_by_bot or seat.number not in seat.match.to_act:
            continue
        deadline = effective_deadline(seat)
        if deadline is None or deadline <= now:
            continue
        prefs = prefs_for(seat.user)
        hours = sorted({int(h) for h in prefs.reminder_hours or [] if 0 < int(h) <= 168})
        asked = seat.waiting_since or now
        # A reminder only makes sense some time after the player was asked.
        due = [
            h for h in hours if asked + REMINDER_MIN_GAP < reminder_time(prefs, deadline, h) <= now
        ]
        if not due:
            continue
        most_urgent = due[0]
        sent = Notification.objects.filter(
            kind=Kind.REMINDER, match=seat.match, seat=seat.number, seq=seat.deadline_seq
        ).values_list("context", flat=True)
        if any(c.get("hours", 0) <= most_urgent for c in sent):
            continue
        written += outbox.reminder(seat, deadline=deadline, hours=most_urgent, now=now)
    return written
