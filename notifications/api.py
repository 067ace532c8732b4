"""What the game service layer tells the notifications app. Called inside the transaction
that appends to the log, so the rows written here commit (or roll back) with the moves."""

from __future__ import annotations

from datetime import datetime, timedelta


def match_started(match) -> None:
    """The match has begun: tell every human seat."""


def moves_appended(match, moves, newly_to_act: list[int]) -> None:
    """Moves were appended; `newly_to_act` are seats that now owe a decision."""


def match_finished(match) -> None:
    """The match is over (finished or abandoned): results and the revealed seed."""


def deadline_for(match, seat, now: datetime) -> datetime | None:
    """When `seat`'s decision that starts at `now` times out."""
    return now + timedelta(days=match.days_per_move)
