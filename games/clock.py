"""A player's clock: when a seat's decision times out, the sweep that finds the seats whose
time is up, and the timeouts it hands to the service layer.

Time is counted on the player's calendar (players.calendar): with weekends off, Saturdays
and Sundays in the player's time zone do not count, nor do the player's vacation days. A
deadline that would fall in the player's night (their quiet hours, or 22:00 to 07:00) moves
past its end, so holding mail overnight can never cost a player a move. `deadline_after` is
that rule as a pure function.

The service layer asks `deadline_for` when a seat is asked (with the calendar it read once
for the whole move) and stores the deadline on `Seat`; a vacation booked later extends it,
through `effective_deadline`, which the sweep, the reminders and the pages read. On a time
bank each seat's bank is a `SeatClock`, settled each time the seat is asked again.

A player who cannot be told of their turns is not timed out: their clock stops while
their address is marked failing (`Calendar.stopped`), and while a notice asking them is
still being retried (the `clock_held` signal: the notifications app answers it), and the
time is given back when the notice gets through (`give_time_back`).

Before a timeout, `reprieve`: for a player seen recently, one day of their vacation bank is
spent on the day their turn waited past its deadline, within the match's cap
(games.vacation_bank: absence is not vacation); and nobody forfeits a seat without an email
warning them first, with a day's grace.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.db.models import F, Q
from django.dispatch import Signal
from django.utils import timezone

from players.calendar import Calendar, calendar_from, calendar_of
from players.models import Preferences
from players.preferences import (
    calendar_days_by_user,
    in_night,
    night_end_after,
    prefs_by_user,
    zone,
)

from . import vacation_bank
from .models import Match, MatchStatus, MoveKind, Seat, SeatClock, TimeControl, TimeoutPolicy

log = logging.getLogger(__name__)

# Sent by the sweep with `asked`, the (match, seat, deadline_seq) it found overdue; each
# receiver returns the set of those whose clock is held (their notice is still retried).
clock_held = Signal()

DAY = 86400
QUIET_GRACE = timedelta(hours=1)  # after the night ends, time to read the morning's mail
MAX_CALENDAR_DAYS = 3660


def _is_off_day(weekends_off: bool, vacation: frozenset[date]) -> Callable[[date], bool]:
    def off(day: date) -> bool:
        return (weekends_off and day.weekday() >= 5) or day in vacation

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


def deadline_after(
    start: datetime, seconds: int, calendar: Calendar, weekends_off: bool, match_id: int | None
) -> datetime:
    """`seconds` of the player's counted time in match `match_id` after `start`, never
    inside their night (their quiet hours, or 22:00 to 07:00 in their zone): a turn notice
    held overnight (notifications.outbox.held_until) costs them no waking time."""
    tz = zone(calendar.prefs)
    off = _is_off_day(weekends_off, calendar.days_off(match_id))
    deadline = add_counted(start, seconds, tz, off)
    if in_night(calendar.prefs, deadline):
        deadline = night_end_after(calendar.prefs, deadline) + QUIET_GRACE
    return deadline


def reads_log(match: Match) -> bool:
    """Whether `deadline_for` reads this transaction's moves from the log: a time bank
    charges the time the seat's answer took, from the answer's row."""
    return match.time_control == TimeControl.BANK


def _initial_bank(match: Match) -> int:
    return max(1, match.bank_days) * DAY


def deadline_for(match: Match, seat: Seat, now: datetime, calendar: Calendar) -> datetime:
    """When `seat`'s decision that starts at `now` times out (called by the service layer,
    inside its transaction, when the seat is asked).

    Days per move: that many counted days from now. Time bank: the bank first pays for the
    time the seat took over its previous decision, then earns the increment; the deadline is
    when what is left runs out.
    """
    if match.time_control != TimeControl.BANK:
        return deadline_after(
            now, match.days_per_move * DAY, calendar, match.weekends_off, match.pk
        )
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
        off = _is_off_day(match.weekends_off, calendar.days_off(match.pk))
        used = counted_seconds(clock.asked_at, answered.created_at, zone(calendar.prefs), off)
        clock.bank_seconds = max(0, clock.bank_seconds - used) + match.increment_days * DAY
    if answered is not None or clock.asked_seq is None:
        clock.asked_at = now
        clock.asked_seq = match.head_seq
    clock.save()
    return deadline_after(
        clock.asked_at, clock.bank_seconds, calendar, match.weekends_off, match.pk
    )


def deadline_restored(match: Match, seat: Seat, cancelled, calendar: Calendar) -> datetime | None:
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
                off = _is_off_day(match.weekends_off, calendar.days_off(match.pk))
                used = counted_seconds(
                    clock.asked_at, cancelled.created_at, zone(calendar.prefs), off
                )
                clock.bank_seconds = max(0, clock.bank_seconds - used)
                clock.asked_at = cancelled.created_at
                clock.asked_seq = cancelled.seq
            clock.save()
    return cancelled.deadline_at


_NOT_GIVEN = object()


def effective_deadline(
    seat: Seat, calendar: Calendar | None = None, clock=_NOT_GIVEN
) -> datetime | None:
    """The seat's deadline as it stands now: the stored one, later if vacation was booked
    after it was set. `calendar` and `clock` (the seat's SeatClock or None) may be given by
    a caller that read them for many seats at once."""
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
    calendar = calendar or calendar_of(seat.user)
    later = deadline_after(start, seconds, calendar, match.weekends_off, match.pk)
    return max(seat.deadline_at, later)


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
        yield with_calendars(seats)
        if len(seats) < batch:
            return
        after = (seats[-1].deadline_at, seats[-1].pk)


def with_calendars(seats: list[Seat]) -> list[tuple]:
    users = {s.user_id for s in seats if s.user_id}
    prefs = prefs_by_user(users)
    days = calendar_days_by_user(users)
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
            # Not Preferences(user=seat.user) for the default: assigning the user would put
            # those defaults (UTC, no quiet hours) in the user's cache, and every mail
            # written for the seat afterwards would read them instead of the saved ones.
            saved = prefs.get(seat.user_id)
            calendar = calendar_from(
                saved if saved is not None else Preferences(), days.get(seat.user_id, ((), ()))
            )
        else:
            calendar = Calendar(Preferences())
        out.append((seat, calendar, clocks.get((seat.match_id, seat.number))))
    return out


def _overdue_in(batch: list[tuple], now: datetime) -> list[tuple[int, int, int]]:
    found = []
    for seat, calendar, clock in batch:
        if calendar.stopped:
            continue  # the clock is stopped until the player can be reached
        deadline = effective_deadline(seat, calendar, clock)
        if deadline is not None and deadline <= now and seat.deadline_seq is not None:
            found.append((seat.match_id, seat.number, seat.deadline_seq))
    if not found:
        return found
    held = set().union(*(held for _, held in clock_held.send(sender=Seat, asked=found)))
    return [f for f in found if f not in held]


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
        from .tasks import enforce_deadline  # the tasks module imports this one

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
    from . import services  # the service layer imports this module

    return services.enforce_timeout(match_id=match_id, seat=seat, deadline_seq=deadline_seq)


FORFEIT_GRACE = timedelta(days=1)  # after the warning, before a seat is forfeited


@dataclass(frozen=True)
class Reprieve:
    """Why a timeout due now waits, and until when."""

    deadline: datetime
    vacation_days: tuple[date, ...] = ()  # spent from the player's bank
    vacation_left: int = 0  # days the clock may still spend for them in this match
    warned: bool = False  # of the forfeit this timeout would be

    @property
    def reason(self) -> str:
        if self.vacation_days:
            days = ", ".join(str(day) for day in self.vacation_days)
            return f"Vacation spent from the bank ({days}); the deadline moved."
        if self.warned:
            return "The player was warned of the forfeit; the deadline moved by a day."
        return "A vacation booked since moved the deadline."


def _day_to_spend(
    seat: Seat, calendar: Calendar, deadline: datetime
) -> tuple[date | None, datetime]:
    """The one day whose spending moves the deadline on, and the deadline it gives: the
    day the deadline falls on, or the day before when the night pushed it past midnight."""
    local = deadline.astimezone(zone(calendar.prefs)).date()
    for day in (local, local - timedelta(days=1)):
        if day in calendar.days_off(seat.match_id):
            continue
        moved = effective_deadline(seat, calendar.with_spent(seat.match_id, [day]))
        if moved is not None and moved > deadline:
            return day, moved
    return None, deadline


def reprieve(match: Match, seat: Seat, calendar: Calendar, now: datetime) -> Reprieve | None:
    """What holds off the timeout of `seat`, due now: a vacation booked since the deadline
    was stored (nothing is spent); else one day of the player's vacation bank, the day the
    deadline as it stands fell on, if they showed a sign of life recently and the match's
    cap allows (games.vacation_bank.spend_day); else a warning if this timeout would
    forfeit their seat and they were not warned for this decision. None: the timeout goes
    ahead. Called by the service layer under the lock; spending a day writes it (a
    `Vacation` of the clock's, for this match only)."""
    if seat.user_id is None or seat.is_bot:
        return None
    deadline = effective_deadline(seat, calendar) or now
    if deadline > now:
        return Reprieve(deadline)
    day, moved = _day_to_spend(seat, calendar, deadline)
    spent = day and vacation_bank.spend_day(seat.user, match, day, calendar.bank_days, now)
    if spent:
        return Reprieve(moved, vacation_days=(spent.day,), vacation_left=spent.left)
    forfeits = (
        match.timeout_policy == TimeoutPolicy.FORFEIT and seat.timeouts + 1 >= match.forfeit_after
    )
    if forfeits and seat.forfeit_warned_seq != seat.deadline_seq:
        return Reprieve(now + FORFEIT_GRACE, warned=True)
    return None
