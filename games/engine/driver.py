"""How a match moves on between people: forced decisions and standing orders.

The platform (games.services) and the pure playouts (games.engine.playout) both use these
functions, so a simulated game and a real match resolve the same decisions without a person.
"""

from __future__ import annotations

from dataclasses import dataclass

from .contract import Game, Move, State

FORCED = "forced"
STANDING = "standing"


@dataclass(frozen=True)
class AutomaticMove:
    seat: int
    move: Move
    source: str  # FORCED or STANDING


def next_step(
    game: Game, state: State, orders: dict[int, frozenset[str]] | None = None
) -> tuple[AutomaticMove | None, list[int]]:
    """The next decision nobody needs to be asked about, if any; else the seats whose answer
    is awaited from a person (or a bot). One look at each seat to act (`Game.only_move`),
    where asking `next_automatic` and then `seats_to_ask` would look twice.

    A seat whose standing orders answer the question plays that. A seat with exactly one
    legal move plays it (the rulebook leaves no choice) — but in a simultaneous decision only
    once no other seat still has a real choice, so that its answer does not come before the
    others'; until then it waits, unasked. A seat whose lack of choice comes from what only
    it knows (`Game.asks_when_forced`: a sealed bid of zero from a player with no silver) is
    asked like anyone, alone or not: played at once it would tell the table why, and played
    once the others have answered it would tell the last of them, who sees the decision
    close on their own answer while that seat was still "deciding". Seats are looked at in
    `to_act` order.
    """
    if game.result(state) is not None:
        return None, []
    seats = game.to_act(state)
    forced: AutomaticMove | None = None
    asked: list[int] = []
    for seat in seats:
        only = game.only_move(state, seat)
        if only is not None and not game.asks_when_forced(state, seat):
            forced = forced or AutomaticMove(seat, only, FORCED)
            continue
        asked.append(seat)
        seat_orders = (orders or {}).get(seat)
        if seat_orders:
            move = game.standing_move(state, seat, seat_orders)
            if move is not None:
                return AutomaticMove(seat, move, STANDING), []
    if forced is not None and not asked:
        return forced, []
    return None, asked


def next_automatic(
    game: Game, state: State, orders: dict[int, frozenset[str]] | None = None
) -> AutomaticMove | None:
    """The next decision nobody needs to be asked about, if any (see `next_step`)."""
    return next_step(game, state, orders)[0]


def seats_to_ask(game: Game, state: State) -> list[int]:
    """When `next_automatic` finds nothing: the seats whose answer is awaited from a person
    (or a bot). A seat with one legal move waits, unasked, for the others to answer, unless
    `asks_when_forced` says its lack of choice is its own secret."""
    return [
        s
        for s in game.to_act(state)
        if game.only_move(state, s) is None or game.asks_when_forced(state, s)
    ]
