"""A player's vacation bank: the days a year their deadlines may stop, booked ahead or spent
by the clock.

Each calendar year a player has `PBM_VACATION_DAYS_PER_YEAR` days (20), plus
`PBM_VACATION_DAYS_PER_MONTH_PLAYED` (2) for each month of that year in which they made a
move, at most `PBM_VACATION_DAYS_EARNED_CAP` (10) earned. Every vacation day counts against
it, booked (players.preferences.book_vacation) or spent by the clock: when a turn waits past
its deadline, the service layer (`enforce_timeout`, through `clock.reprieve`) spends the days
from the one the deadline fell on to today instead of timing the player out, if the bank and
the match's `vacation_cap` (days the clock may spend for one player in that match) cover
them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.conf import settings
from django.db.models import F
from django.utils.translation import gettext as _

from players.models import Vacation
from players.preferences import prefs_for, vacation_days, zone

from .models import Match, Move, MoveSource


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


def spend_days(user, match: Match, first: date, last: date, days: frozenset[date]) -> list[date]:
    """Spend the days from `first` to `last` (the player's dates: the day their deadline fell
    on to today) that are not vacation days already, all of them or none: none if the bank or
    the match's cap cannot cover them all. The days spent. Called by the service layer under
    the match's lock."""
    wanted = [
        first + timedelta(days=n)
        for n in range((last - first).days + 1)
        if first + timedelta(days=n) not in days
    ]
    if not wanted or bank_of(user, last, set(days)).left < len(wanted):
        return []
    if match.vacation_cap is not None:
        spent = Vacation.objects.filter(user=user, match=match, automatic=True)
        if sum(v.days for v in spent) + len(wanted) > match.vacation_cap:
            return []
    Vacation.objects.bulk_create(
        Vacation(user=user, first_day=day, last_day=day, automatic=True, match=match)
        for day in wanted
    )
    return wanted
