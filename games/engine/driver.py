"""How a match moves on between people: forced decisions and standing orders.

The platform (games.services) and the pure playouts (games.engine.playout) both use
`next_automatic`, so a simulated game and a real match resolve the same decisions without a
person.
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


def next_automatic(
    game: Game, state: State, orders: dict[int, frozenset[str]] | None = None
) -> AutomaticMove | None:
    """The next decision nobody needs to be asked about, if any.

    A seat with exactly one legal move plays it (the rulebook leaves no choice); a seat whose
    standing orders answer the question plays that. Seats are looked at in `to_act` order.
    """
    if game.result(state) is not None:
        return None
    for seat in game.to_act(state):
        legal = game.legal_moves(state, seat)
        if len(legal) == 1:
            return AutomaticMove(seat, legal[0], FORCED)
        seat_orders = (orders or {}).get(seat)
        if seat_orders:
            move = game.standing_move(state, seat, seat_orders)
            if move is not None:
                return AutomaticMove(seat, move, STANDING)
    return None
