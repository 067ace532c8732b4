"""Bot-only games played through the engine alone: for tests, simulations and benchmarks.

The sequence numbers, rng derivation and forced-move resolution are the platform's, so a
playout's log replays in a real match exactly as it does here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .contract import Game, IllegalMove, Move, State
from .digest import GENESIS, chain_digest
from .driver import next_step
from .rng import event_rng


@dataclass
class Playout:
    seed: str
    players: int
    options: dict[str, Any]
    log: list[tuple[int, Move, str]] = field(default_factory=list)  # (seat, move, source)
    digests: list[str] = field(default_factory=list)
    final: State | None = None
    result: dict[str, Any] | None = None
    forced: int = 0
    asked: int = 0  # decisions a person would have been asked

    @property
    def moves(self) -> int:
        return len(self.log)


def player_names(count: int) -> list[str]:
    return [f"Player {i + 1}" for i in range(count)]


def play(
    game: Game,
    players: int,
    seed: str,
    options: dict[str, Any] | None = None,
    *,
    check: bool = False,
    max_moves: int = 20_000,
) -> Playout:
    """Play one game to its end with bots. With `check`, verify the contract at every step."""
    options = game.validate_options(players, options or {})
    state = game.setup(player_names(players), options, event_rng(seed, 0))
    playout = Playout(seed=seed, players=players, options=options)
    previous = GENESIS
    if check:
        _check_position(game, state, players)
    while game.result(state) is None:
        if len(playout.log) >= max_moves:
            raise AssertionError(f"no end after {max_moves} moves (seed {seed})")
        automatic, seats = next_step(game, state)
        if automatic is not None:
            seat, move, source = automatic.seat, automatic.move, automatic.source
            playout.forced += 1
        else:
            bot_rng = event_rng(seed + ":bot", len(playout.log) + 1)
            seat = seats[0] if len(seats) == 1 else bot_rng.choice(seats)
            move = game.bot_move(state, seat, bot_rng)
            source = "bot"
            playout.asked += 1
            if check:
                _check_choice(game, state, seat, move)
        seq = len(playout.log) + 1
        try:
            state = game.apply(state, seat, move, event_rng(seed, seq))
        except IllegalMove as error:
            raise AssertionError(f"seq {seq}: legal move {move} refused: {error}") from error
        playout.log.append((seat, move, source))
        previous = chain_digest(previous, state)
        playout.digests.append(previous)
        if check:
            _check_position(game, state, players)
    playout.final = state
    playout.result = game.result(state).as_json()
    return playout


def replay(game: Game, playout: Playout) -> State:
    """Rebuild the final position from the log and check every digest on the way."""
    state = game.setup(player_names(playout.players), playout.options, event_rng(playout.seed, 0))
    previous = GENESIS
    for seq, ((seat, move, _source), expected) in enumerate(
        zip(playout.log, playout.digests, strict=True), start=1
    ):
        state = game.apply(state, seat, move, event_rng(playout.seed, seq))
        previous = chain_digest(previous, state)
        if previous != expected:
            raise AssertionError(f"replay differs at seq {seq}")
    return state


def _check_choice(game: Game, state: State, seat: int, move: Move) -> None:
    legal = game.legal_moves(state, seat)
    assert move in legal, f"bot chose {move}, not among {len(legal)} legal moves"
    text = game.format_move(state, seat, move)
    assert game.parse(text, state, seat) == move, f"{text!r} does not parse back to {move}"
    assert game.default_move(state, seat) in legal, "default move is not legal"


def _check_position(game: Game, state: State, players: int) -> None:
    assert json.loads(json.dumps(state)) == state, "state is not plain JSON"
    game.check_invariants(state)
    if game.result(state) is None:
        seats = game.to_act(state)
        assert seats, "nobody to act and no result"
        assert all(0 <= s < players for s in seats), f"bad seats to act: {seats}"
        for seat in seats:
            legal = game.legal_moves(state, seat)
            assert legal, f"seat {seat} must act but has no legal move"
            only = legal[0] if len(legal) == 1 else None
            assert game.only_move(state, seat) == only, f"only_move of seat {seat} is wrong"
    for seat in [None, *range(players)]:
        json.dumps(game.view(state, seat))
