"""A player's vacation bank: the days a year their deadlines may stop, booked ahead or spent
by the clock.

Each calendar year a player has `PBM_VACATION_DAYS_PER_YEAR` days (20), plus
`PBM_VACATION_DAYS_PER_MONTH_PLAYED` (2) for each month of that year in which they made a
move, at most `PBM_VACATION_DAYS_EARNED_CAP` (10) earned. Every vacation day counts against
it, booked (players.preferences.book_vacation) or spent by the clock.

Absence is not vacation. A booked day stops every match's clock. A day is spent by the
clock (`spend_day`, called through `clock.reprieve` by `enforce_timeout` when a turn waits
past its deadline) only for a player who showed a sign of life in the last
`PBM_SIGN_OF_LIFE_DAYS` (2) days (`shows_sign_of_life`), one day at a time, and only while
the match's cap allows: `Match.vacation_cap` days for that player in that match, counted in
that match alone (None: `PBM_VACATION_CAP_DAYS`, 7). A player who is simply gone times out
on the match's own terms, so the others can offer the seat or vote it out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.conf import settings
from django.db.models import F
from django.utils.translation import gettext as _

from players.models import Vacation
from players.preferences import prefs_for, vacation_days, zone

from .models import ChatMessage, Match, Move, MoveSource


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


@dataclass(frozen=True)
class Bank:
    year: int
    base: int  # the days every player has
    earned: int  # the days earned by playing this year
    used: int  # the days booked or spent this year

    @property
    def allowance(self) -> int:
        return self.base + self.earned

    @property
    def left(self) -> int:
        return max(0, self.allowance - self.used)

    def line(self) -> str:
        """How the bank reads in a turn email or on a page."""
        return _(
            "Vacation days left in %(year)s: %(left)s of %(allowance)s "
            "(%(base)s a year, %(earned)s earned by playing)."
        ) % {
            "year": self.year,
            "left": self.left,
            "allowance": self.allowance,
            "base": self.base,
            "earned": self.earned,
        }

    @staticmethod
    def earning() -> str:
        per_month = _setting("PBM_VACATION_DAYS_PER_MONTH_PLAYED", 2)
        cap = _setting("PBM_VACATION_DAYS_EARNED_CAP", 10)
        return _("You earn %(per_month)s more for each month you play, up to %(cap)s a year.") % {
            "per_month": per_month,
            "cap": cap,
        }


def months_played(user, year: int) -> int:
    """The months of `year` in which `user` made a move of their own (not a deadline's)."""
    moves = (
        Move.objects.filter(
            match__seats__user=user,
            seat=F("match__seats__number"),
            created_at__year=year,
        )
        .exclude(source=MoveSource.DEADLINE)
        .dates("created_at", "month")
    )
    return len(moves)


def earned_days(user, year: int) -> int:
    per_month = _setting("PBM_VACATION_DAYS_PER_MONTH_PLAYED", 2)
    return min(per_month * months_played(user, year), _setting("PBM_VACATION_DAYS_EARNED_CAP", 10))


def allowance(user, year: int) -> int:
    """The days `user` may take off in `year`: what booking checks against."""
    return _setting("PBM_VACATION_DAYS_PER_YEAR", 20) + earned_days(user, year)


def bank_of(user, today: date | None = None, days: set[date] | None = None) -> Bank:
    """The bank of `user` for the year of `today` (the player's today by default). `days`:
    their vacation days, if the caller read them."""
    if today is None:
        from django.utils import timezone

        today = timezone.now().astimezone(zone(prefs_for(user))).date()
    days = vacation_days(user) if days is None else days
    return Bank(
        year=today.year,
        base=_setting("PBM_VACATION_DAYS_PER_YEAR", 20),
        earned=earned_days(user, today.year),
        used=sum(1 for d in days if d.year == today.year),
    )


def default_cap() -> int:
    """The days the clock may spend for one player in a match created without a cap."""
    return _setting("PBM_VACATION_CAP_DAYS", 7)


def cap_of(match: Match) -> int:
    return match.vacation_cap if match.vacation_cap is not None else default_cap()


def sign_of_life_window() -> timedelta:
    return timedelta(days=_setting("PBM_SIGN_OF_LIFE_DAYS", 2))


# Moves a player made themself: not those a deadline, a bot, the engine or an operator made.
OWN_SOURCES = (MoveSource.WEB, MoveSource.EMAIL, MoveSource.API)


def shows_sign_of_life(user, since: datetime) -> bool:
    """Whether `user` did something here since `since`: signed in, made a move or took one
    back in any match (on the page, by mail or through the API), or posted to a match's
    board (on the page or with `say` by mail)."""
    if user.last_login is not None and user.last_login >= since:
        return True
    own_seat = {"match__seats__user": user, "seat": F("match__seats__number")}
    moved = Move.objects.filter(created_at__gte=since, source__in=OWN_SOURCES, **own_seat)
    return moved.exists() or ChatMessage.objects.filter(created_at__gte=since, author=user).exists()


def spent_in(user, match: Match) -> int:
    """The days the clock spent from `user`'s bank for `match`."""
    rows = Vacation.objects.filter(user=user, match=match, automatic=True)
    return sum(v.days for v in rows)


@dataclass(frozen=True)
class Spent:
    day: date
    left: int  # days the clock may still spend for the player in this match: bank and cap


def spend_day(user, match: Match, day: date, days: set[date], now: datetime) -> Spent | None:
    """Spend `day` (the player's date of the deadline that passed) from `user`'s bank for
    `match`, if they showed a sign of life recently, the match's cap has room, and the bank
    has the day (a day spent already for another match costs the bank nothing more). `days`:
    every day counted against their bank. None: nothing spent, the timeout goes ahead.
    Called by the service layer under the match's lock."""
    if not shows_sign_of_life(user, now - sign_of_life_window()):
        return None
    cap_left = cap_of(match) - spent_in(user, match)
    if cap_left < 1:
        return None
    bank = bank_of(user, day, days)
    if day not in days and bank.left < 1:
        return None
    Vacation.objects.create(user=user, first_day=day, last_day=day, automatic=True, match=match)
    bank_left = bank.left - (0 if day in days else 1)
    return Spent(day, min(cap_left - 1, bank_left))
