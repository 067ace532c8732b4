"""What the game service layer tells the notifications app. Called inside the transaction
that appends to the log, so the rows written here commit (or roll back) with the moves."""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ObjectDoesNotExist


def seat_annotations() -> dict:
    """What the service layer's seat statement reads with each seat for this transaction's
    hooks, besides the players and their preferences: whether the seat's player has booked
    any vacation, so a deadline for people who never did costs no vacation query."""
    from players.preferences import vacation_booked

    return {"vacation_booked": vacation_booked()}


def seats_read(match, seats) -> None:
    """The service layer read the match's seats with their users and preferences under the
    match lock: this transaction's hooks use them instead of reading them again."""
    from . import outbox

    outbox.remember_seats(match, seats)


def players_invited(match, emails: list[str], inviter: str) -> None:
    """Seats were kept for these addresses: invite them to join."""
    from . import outbox

    outbox.players_invited(match, emails, inviter)


def match_started(match) -> None:
    """The match has begun: tell every human seat."""
    from . import outbox

    outbox.match_started(match)


def moves_appended(match, moves, newly_to_act: list[int]) -> None:
    """Moves were appended; `newly_to_act` are seats that now owe a decision."""
    from . import outbox

    outbox.moves_appended(match, moves, newly_to_act)


def match_finished(match) -> None:
    """The match is over (finished or abandoned): results and the revealed seed."""
    from . import outbox

    outbox.match_finished(match)


def deadline_for(match, seat, now: datetime) -> datetime | None:
    """When `seat`'s decision that starts at `now` times out: weekends off, vacation days,
    the time bank and quiet hours taken into account (notifications.deadlines)."""
    from . import deadlines

    return deadlines.deadline_for(match, seat, now)


def deadline_reads_log(match) -> bool:
    """Whether `deadline_for` reads this transaction's moves from the log: a time bank
    charges the time the seat's answer took, from the answer's row."""
    from games.models import TimeControl

    return match.time_control == TimeControl.BANK


def deadline_restored(match, seat, cancelled) -> datetime | None:
    """The deadline `seat` had when it made the decision `cancelled`, which a takeback has
    just cancelled: the seat's clock (time bank included) is put back, not restarted."""
    from . import deadlines

    return deadlines.deadline_restored(match, seat, cancelled)


def clock_stopped(seat) -> bool:
    """Whether `seat`'s player cannot be told of their turns now (their email, or the
    webhook they rely on, is failing), so their deadline waits. Reads the preferences the
    service layer loaded with the seat under the match lock."""
    from .reachability import clock_stopped as stopped

    user = getattr(seat, "user", None)
    if user is None:
        return False
    try:
        prefs = user.notification_prefs
    except ObjectDoesNotExist:  # no preferences saved: nothing is failing
        return False
    return stopped(prefs)
