"""Deadlines: when a seat's decision times out, the sweep that enforces it, and reminders.

Time is counted on the player's calendar: with weekends off, Saturdays and Sundays in the
player's time zone do not count, nor do the player's vacation days. A deadline that would
fall in the player's quiet hours moves past their end, so holding mail overnight can never
cost a player a move. The deadline itself is stored on `Seat` by the service layer (which
calls `deadline_for`); a vacation booked later extends it here, through
`effective_deadline`, which the sweep and the reminders read.

A player whose email is failing is not timed out: their clock stops while the address is
marked failing, and while the notice asking them a decision is still being retried, and the
time is given back when the notice gets through (`give_time_back`, notifications.reachability).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.db.models import F, Q
from django.utils import timezone

from games.models import Match, MatchStatus, MoveKind, Seat, SeatClock, TimeControl
from players.models import Preferences
from players.preferences import (
    in_quiet_hours,
    prefs_by_user,
    prefs_for,
    quiet_end_after,
    quiet_start_before,
    vacation_days,
    vacation_days_by_user,
    zone,
)

from .models import Channel, Kind, Notification, Status
from .reachability import clock_stopped

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


def compute_deadline(
    match: Match, user, start: datetime, seconds: int, calendar: tuple | None = None
) -> datetime:
    """`seconds` of the player's counted time after `start`, never inside quiet hours.
    `calendar` is the player's (preferences, vacation days) when the caller has them."""
    prefs, vacation = calendar or (prefs_for(user), vacation_days(user))
    tz = zone(prefs)
    deadline = add_counted(start, seconds, tz, _is_off_day(match, vacation))
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
    from .outbox import calendar_of

    calendar = calendar_of(match, seat.user)  # read once per move for every hook
    if match.time_control != TimeControl.BANK:
        return compute_deadline(match, seat.user, now, match.days_per_move * DAY, calendar)
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
        prefs, vacation = calendar
        off = _is_off_day(match, vacation)
        used = counted_seconds(clock.asked_at, answered.created_at, zone(prefs), off)
        clock.bank_seconds = max(0, clock.bank_seconds - used) + match.increment_days * DAY
    if answered is not None or clock.asked_seq is None:
        clock.asked_at = now
        clock.asked_seq = match.head_seq
    clock.save()
    return compute_deadline(match, seat.user, clock.asked_at, clock.bank_seconds, calendar)


def deadline_restored(match: Match, seat: Seat, cancelled) -> datetime | None:
    """The deadline `seat` had when it made the decision `cancelled` (a Move), which a
    takeback has just cancelled: a takeback gives no time back (docs/takebacks.md).

    On a time bank the clock is settled as if the seat had answered at the cancelled move
    but earned no increment for it: the time used until then is charged, and the time since
    runs on from the cancelled move's moment. `deadline_for` may already have settled it at
    that move (when the move asked the same seat again): then only the increment is taken
    back. Either way the deadline is the one the seat had, and the seat's next real answer
    is charged from the cancelled move on."""
    if match.time_control == TimeControl.BANK:
        clock = SeatClock.objects.filter(match=match, seat=seat.number).first()
        if clock is not None and clock.asked_at is not None:
            if clock.asked_seq == cancelled.seq:
                earned = match.increment_days * DAY
                clock.bank_seconds = max(0, clock.bank_seconds - earned)
            else:
                from .outbox import calendar_of

                prefs, vacation = calendar_of(match, seat.user)
                used = counted_seconds(
                    clock.asked_at, cancelled.created_at, zone(prefs), _is_off_day(match, vacation)
                )
                clock.bank_seconds = max(0, clock.bank_seconds - used)
                clock.asked_at = cancelled.created_at
                clock.asked_seq = cancelled.seq
            clock.save()
    return cancelled.deadline_at


_NOT_GIVEN = object()


def effective_deadline(
    seat: Seat, calendar: tuple | None = None, clock=_NOT_GIVEN
) -> datetime | None:
    """The seat's deadline as it stands now: the stored one, later if vacation was booked
    after it was set. `calendar` (preferences, vacation days) and `clock` (the seat's
    SeatClock or None) may be given by a caller that read them for many seats at once."""
    if seat.deadline_at is None:
        return None
    match = seat.match
    if match.time_control == TimeControl.BANK:
        if clock is _NOT_GIVEN:
            clock = SeatClock.objects.filter(match=match, seat=seat.number).first()
        if clock is None or clock.asked_at is None:
            return seat.deadline_at
        start, seconds = clock.asked_at, clock.bank_seconds
    else:
        if seat.waiting_since is None:
            return seat.deadline_at
        start, seconds = seat.waiting_since, match.days_per_move * DAY
    return max(seat.deadline_at, compute_deadline(match, seat.user, start, seconds, calendar))


def _seats_with_deadline_before(moment: datetime):
    # Served by the partial index on Seat.deadline_at (seat_deadline_due).
    return (
        Seat.objects.filter(deadline_at__isnull=False, deadline_at__lte=moment)
        .filter(match__status=MatchStatus.ACTIVE)
        .select_related("match", "user")
        .order_by("deadline_at")
    )


SWEEP_BATCH = 200  # seats per query: the first 200 by deadline come from seat_deadline_due
SWEEP_MAX_BATCHES = 25  # a sweep hands on at most 5,000 seats; the next sweep takes the rest


def _seat_batches(moment: datetime, batch: int = SWEEP_BATCH):
    """The seats with a deadline before `moment`, `batch` at a time in deadline order, each
    batch with its players' preferences and vacations and its time-bank clocks read in one
    query each: a list of (seat, calendar, clock) per batch."""
    after = None
    while True:
        query = _seats_with_deadline_before(moment)
        if after is not None:
            query = query.filter(
                Q(deadline_at__gt=after[0]) | Q(deadline_at=after[0], pk__gt=after[1])
            )
        seats = list(query.order_by("deadline_at", "pk")[:batch])
        if not seats:
            return
        yield _with_calendars(seats)
        if len(seats) < batch:
            return
        after = (seats[-1].deadline_at, seats[-1].pk)


def _with_calendars(seats: list[Seat]) -> list[tuple]:
    users = {s.user_id for s in seats if s.user_id}
    prefs = prefs_by_user(users)
    vacations = vacation_days_by_user(users)
    bank = [s for s in seats if s.match.time_control == TimeControl.BANK]
    clocks = {}
    if bank:
        wanted = Q()
        for s in bank:
            wanted |= Q(match_id=s.match_id, seat=s.number)
        clocks = {(c.match_id, c.seat): c for c in SeatClock.objects.filter(wanted)}
    out = []
    for seat in seats:
        if seat.user_id:
            default = Preferences(user=seat.user)
            calendar = (prefs.get(seat.user_id, default), vacations.get(seat.user_id, set()))
        else:
            calendar = (Preferences(), set())
        out.append((seat, calendar, clocks.get((seat.match_id, seat.number))))
    return out


def _overdue_in(batch: list[tuple], now: datetime) -> list[tuple[int, int, int]]:
    found = []
    for seat, calendar, clock in batch:
        if clock_stopped(calendar[0]):
            continue  # the clock is stopped until the player can be reached
        deadline = effective_deadline(seat, calendar, clock)
        if deadline is not None and deadline <= now and seat.deadline_seq is not None:
            found.append((seat.match_id, seat.number, seat.deadline_seq))
    if not found:
        return found
    unasked = _notice_still_retried(found)
    return [f for f in found if f not in unasked]


def _notice_still_retried(found: list[tuple[int, int, int]]) -> set[tuple[int, int, int]]:
    """Of these (match, seat, seq), the seats whose email asking them is still being
    retried: they have not been told, so their deadline waits (one query)."""
    wanted = Q()
    for match_id, seat, seq in found:
        wanted |= Q(match_id=match_id, seat=seat, seq=seq)
    return set(
        Notification.objects.filter(
            wanted,
            channel=Channel.EMAIL,
            kind__in=[Kind.START, Kind.TURN],
            status__in=[Status.PENDING, Status.SENDING],
            first_failed_at__isnull=False,
        ).values_list("match_id", "seat", "seq")
    )


def give_time_back(
    *, user, stopped_since: datetime, now: datetime, only: tuple[int, int, int] | None = None
) -> int:
    """Move the deadlines of the seats `user` is asked in (or the one seat `only` names, as
    (match, seat, seq)) later by the time their clock was stopped: from `stopped_since`, or
    from when the seat was asked if that came later. Returns the seats changed."""
    seats = Seat.objects.filter(
        user=user, deadline_at__isnull=False, match__status=MatchStatus.ACTIVE
    ).select_related("match")
    if only is not None:
        seats = seats.filter(match_id=only[0], number=only[1], deadline_seq=only[2])
    changed = []
    for seat in seats:
        start = max(stopped_since, seat.waiting_since or stopped_since)
        stopped = now - start
        if stopped <= timedelta(0):
            continue
        seat.deadline_at += stopped
        changed.append(seat)
        # A time bank is charged from when the seat was asked: that moment moves too.
        SeatClock.objects.filter(
            match_id=seat.match_id, seat=seat.number, asked_seq=seat.deadline_seq
        ).update(asked_at=F("asked_at") + stopped)
    Seat.objects.bulk_update(changed, ["deadline_at"])
    # Later deadlines, and a clock that runs again after a stop (which parks reminders).
    reschedule_reminders(user, only=only[:2] if only else None)
    for seat in changed:
        log.info(
            "match %s seat %s: deadline moved to %s", seat.match_id, seat.number, seat.deadline_at
        )
    return len(changed)


def overdue(
    now: datetime | None = None, max_batches: int | None = None
) -> list[tuple[int, int, int]]:
    """(match_id, seat, deadline_seq) of every seat whose deadline has passed (of the first
    `max_batches` × SWEEP_BATCH seats by deadline, when given)."""
    now = now or timezone.now()
    found = []
    for n, batch in enumerate(_seat_batches(now)):
        if max_batches is not None and n >= max_batches:
            break
        found.extend(_overdue_in(batch, now))
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

    now = now or timezone.now()
    handed = 0
    for n, batch in enumerate(_seat_batches(now)):
        if n >= SWEEP_MAX_BATCHES:
            log.warning("deadline sweep stopped after %s seats; the next sweep goes on", handed)
            break
        for match_id, seat, deadline_seq in _overdue_in(batch, now):
            handed += 1
            try:
                enforce(match_id, seat, deadline_seq)
            except Exception:  # one match must not stop the sweep; the next sweep retries
                log.exception("enforcing the deadline of match %s seat %s failed", match_id, seat)
    return handed


def enforce(match_id: int, seat: int, deadline_seq: int):
    from games import services

    return services.enforce_timeout(match_id=match_id, seat=seat, deadline_seq=deadline_seq)


# --- reminders ---------------------------------------------------------------------------
#
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
REMINDER_BATCH = 200
# The beat sends reminders every 300 s; a tick with a backlog (the first after an upgrade,
# or after the beat was down) stops after this long and the next one goes on.
REMINDER_TICK_BUDGET = 60.0


def reminder_time(prefs, deadline: datetime, hours: int) -> datetime:
    """`hours` before the deadline; a reminder that would fall in quiet hours comes before
    they begin instead of after, so it still arrives in time."""
    return quiet_start_before(prefs, deadline - timedelta(hours=hours))


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
    seat: Seat, calendar: tuple, clock, now: datetime
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
    prefs = calendar[0]
    if clock_stopped(prefs):
        # Mail is not getting through, and the clock waits: give_time_back schedules the
        # seat again when it runs.
        return None, None, None
    deadline = effective_deadline(seat, calendar, clock)
    if deadline is None or deadline <= now:
        return None, None, None
    asked = seat.waiting_since or now
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
                written += _remind(_with_calendars(batch), now)
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
