"""Deriving positions from the log: the one place that turns log rows into states."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from games.engine import GENESIS, Game, State, chain_digest, copy_state, event_rng

# Log entries whose payload is a move for the rules; resignations and system events leave
# the game state as it was (who plays a seat is the platform's business, not the rules').
APPLIED_KINDS = frozenset({"move", "timeout"})
# A takeback cancels the entry just before it: the position returns to the one before that.
TAKEBACK = "takeback"


@dataclass(frozen=True)
class LoggedMove:
    seq: int
    seat: int | None
    kind: str
    payload: dict[str, Any]


def initial_state(game: Game, names: list[str], options: dict, seed: str) -> State:
    return game.setup(list(names), dict(options), event_rng(seed, 0))


def initial_digest(state: State) -> str:
    return chain_digest(GENESIS, state)


def apply_logged(
    game: Game, state: State, entry: LoggedMove, seed: str, before: State | None = None
) -> State:
    """The position after `entry`. A takeback needs `before`: the position before the entry
    it cancels (the one just before it in the log); the loops that replay keep it."""
    if entry.kind in APPLIED_KINDS:
        return game.apply(state, entry.seat, entry.payload, event_rng(seed, entry.seq))
    if entry.kind == TAKEBACK:
        if before is None:
            raise NeedsEarlierPosition(entry.seq)
        return copy_state(before)
    return state


class NeedsEarlierPosition(Exception):
    """A takeback was met with no position before the entry it cancels (a replay that
    started from a snapshot just before it): replay from further back."""


def positions(
    game: Game, state: State, entries: Iterable[LoggedMove], seed: str
) -> Iterator[tuple[LoggedMove, State, State]]:
    """Yield (entry, before, after) for each entry; `before` is a copy, `after` is live."""
    prior = None
    for entry in entries:
        before = copy_state(state)
        state = apply_logged(game, state, entry, seed, before=prior)
        prior = before
        yield entry, before, state
