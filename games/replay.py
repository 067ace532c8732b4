"""Deriving positions from the log: the one place that turns log rows into states."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
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
    game: Game,
    state: State,
    entry: LoggedMove,
    seed: str,
    before: State | None = None,
    *,
    trusted: bool = False,
) -> State:
    """The position after `entry`. A takeback needs `before`: the position before the entry
    it cancels (the one just before it in the log); the loops that replay keep it.
    `trusted`: the entry was read back from the log, whose moves `apply` accepted when they
    were appended, so it goes through `game.replay_move` (narrated), not `apply`."""
    if entry.kind in APPLIED_KINDS:
        play = game.replay_move if trusted else game.apply
        return play(state, entry.seat, entry.payload, event_rng(seed, entry.seq))
    if entry.kind == TAKEBACK:
        if before is None:
            raise NeedsEarlierPosition(entry.seq)
        return copy_state(before)
    return state


def replay_rows(game: Game, state: State, rows: Sequence[Sequence[Any]], seed: str) -> State:
    """Apply log rows (seq, seat, kind, payload, ...) in order: how a position is loaded.

    Every row was accepted by `apply` when it was appended, and the log is append-only, so
    its moves go through `game.replay_move` (no shape check again; the rules' own checks
    still run), straight from the rows, with no LoggedMove built per row. Only the moves
    whose news can still be read are narrated (`narrated_rows`). The position before an
    entry is copied only when a takeback follows it, so a log without takebacks copies
    nothing. `verify_match` replays through `apply_logged` and checks every digest."""
    replay_move = game.replay_move
    narrated = narrated_rows(rows)
    if narrated is None:
        return _replay_with_takebacks(replay_move, state, rows, seed)
    # No takeback: the moves before the narrated one in a loop kept short (it is most of a
    # load's time beside the rules), one event generator moved from move to move.
    rng = event_rng(seed, 0)
    for row in rows[:narrated]:
        if row[2] in APPLIED_KINDS:
            rng.seq = row[0]
            state = replay_move(state, row[1], row[3], rng, False)
    if narrated >= 0:
        row = rows[narrated]
        rng.seq = row[0]
        state = replay_move(state, row[1], row[3], rng, True)
    return state


def narrated_rows(rows: Sequence[Sequence[Any]]) -> int | None:
    """The index of the one row whose news the replay's position shows (the last move
    applied; -1 when there is none), or None when the rows hold a takeback, whose
    restored position shows an earlier move's news (`_replay_with_takebacks`)."""
    kinds = [row[2] for row in rows]
    if TAKEBACK in kinds:
        return None
    for index in range(len(kinds) - 1, -1, -1):
        if kinds[index] in APPLIED_KINDS:
            return index
    return -1


def _replay_with_takebacks(replay_move, state: State, rows, seed: str) -> State:
    """`replay_rows` for rows with a takeback: the position before an entry a takeback
    cancels is kept, and so are the news of every move a kept or final position shows."""
    narrate = _narrated_with_takebacks(rows)
    before = None
    last = len(rows) - 1
    for index, row in enumerate(rows):
        seq, seat, kind, payload = row[0], row[1], row[2], row[3]
        kept = copy_state(state) if index < last and rows[index + 1][2] == TAKEBACK else None
        if kind in APPLIED_KINDS:
            state = replay_move(state, seat, payload, event_rng(seed, seq), narrate[index])
        elif kind == TAKEBACK:
            if before is None:
                raise NeedsEarlierPosition(seq)
            state = copy_state(before)
        before = kept
    return state


def _narrated_with_takebacks(rows) -> list[bool]:
    """Which moves' news a position can still show, walking back from the end: the final
    position shows the last move applied; a takeback discards the position it follows and
    restores the one before the entry it cancels, which shows the last move applied before
    that entry."""
    narrate = [False] * len(rows)
    shown = True  # whether the position after this row is one that is read
    for index in range(len(rows) - 1, -1, -1):
        kind = rows[index][2]
        if kind == TAKEBACK:
            shown = False
        elif kind in APPLIED_KINDS:
            narrate[index], shown = shown, False
        if index + 1 < len(rows) and rows[index + 1][2] == TAKEBACK:
            shown = True  # the position before this row is kept for that takeback
    return narrate


class NeedsEarlierPosition(Exception):
    """A takeback was met with no position before the entry it cancels (a replay that
    started from a snapshot just before it): replay from further back."""


def positions(
    game: Game, state: State, entries: Iterable[LoggedMove], seed: str
) -> Iterator[tuple[LoggedMove, State, State]]:
    """Yield (entry, before, after) for each entry; `before` is a copy, `after` is live.
    An entry is anything with a LoggedMove's seq, seat, kind and payload; entries are read
    back from the log, so they replay through the trusted `replay_move`."""
    prior = None
    for entry in entries:
        before = copy_state(state)
        state = apply_logged(game, state, entry, seed, prior, trusted=True)
        prior = before
        yield entry, before, state


def states_after(
    game: Game, state: State, entries: Sequence[LoggedMove], seed: str
) -> Iterator[tuple[LoggedMove, State]]:
    """Yield (entry, after) for each entry, `after` live: `positions` for a reader that
    needs no position before a move, so a position is copied only where a takeback follows
    (to restore it)."""
    kept = None
    for index, entry in enumerate(entries):
        follows = entries[index + 1].kind if index + 1 < len(entries) else None
        before = copy_state(state) if follows == TAKEBACK else None
        state = apply_logged(game, state, entry, seed, kept, trusted=True)
        kept = before
        yield entry, state
