"""A player's calendar as the clock reads it: time zone and quiet hours (their preferences),
vacation days, and whether their clock is stopped because they cannot be told of their turns.

`Calendars` reads the calendars of a match's players once for a whole transaction: the
service layer builds it from the seats it locked (each with its user, preferences and
whether that player booked any vacation) and hands it to the clock and to every event, so
no hook reads them again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from .models import NoticeMode, Preferences
from .preferences import calendar_days_by_user, prefs_for


def clock_stopped(prefs: Preferences | None) -> bool:
    """Whether the player cannot be told of their turns, so their deadlines wait: their email
    is failing, or they chose no email and their webhook is failing."""
    if prefs is None:
        return False
    return prefs.email_failing or (prefs.webhook_failing and prefs.mode == NoticeMode.NONE)


@dataclass(frozen=True)
class Calendar:
    prefs: Preferences  # time zone and quiet hours
    vacation: frozenset[date] = frozenset()  # booked: every match's clock skips them
    # Spent by the clock from the bank, as (match id, day): only that match skips them, so
    # one match's cap cannot leak into the player's other matches.
    spent: frozenset[tuple[int, date]] = frozenset()

    @property
    def stopped(self) -> bool:
        return clock_stopped(self.prefs)

    def days_off(self, match_id: int | None) -> frozenset[date]:
        """The days the clock of match `match_id` does not count: those booked, and those
        spent from the bank for that match."""
        return self.vacation | {day for match, day in self.spent if match == match_id}

    @property
    def bank_days(self) -> set[date]:
        """Every day counted against the player's bank, booked or spent in any match."""
        return set(self.vacation) | {day for _, day in self.spent}

    def with_spent(self, match_id: int, days) -> Calendar:
        return Calendar(self.prefs, self.vacation, self.spent | {(match_id, d) for d in days})


def calendar_from(prefs: Preferences, days) -> Calendar:
    booked, spent = days
    return Calendar(prefs, frozenset(booked), frozenset(spent))


def calendar_of(user) -> Calendar:
    """One player's calendar, read now (two queries at most)."""
    prefs = prefs_for(user)
    if user is None or user.pk is None:
        return Calendar(prefs)
    return calendar_from(prefs, calendar_days_by_user([user.pk]).get(user.pk, ((), ())))


@dataclass
class Calendars:
    """The calendars of the players of `seats` (seats read with `select_related("user",
    "user__notification_prefs")`, annotated with `vacation_booked`): preferences come with
    the seats; vacation days are read on first use, in one query, for those who booked any
    (or had any spent)."""

    seats: list
    _days: dict | None = field(default=None, repr=False)

    def of(self, user) -> Calendar:
        if user is None or user.pk is None:
            return Calendar(Preferences())
        if not any(s.user_id == user.pk for s in self.seats):
            return calendar_of(user)
        if self._days is None:
            booked = [
                s.user_id for s in self.seats if s.user_id and getattr(s, "vacation_booked", True)
            ]
            self._days = calendar_days_by_user(booked)
        return calendar_from(prefs_for(user), self._days.get(user.pk, ((), ())))
