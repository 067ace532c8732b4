"""The rules contract, shared by every game and the platform. Pure Python: no Django."""

from .contract import (
    Game,
    IllegalMove,
    Move,
    Option,
    ParseError,
    Result,
    StandingOrder,
    State,
    Step,
    View,
    check_move,
    copy_state,
    places,
    score_line,
    shared_groups,
)
from .digest import GENESIS, canonical_json, chain_digest
from .driver import AutomaticMove, next_automatic, next_step, seats_to_ask
from .registry import available_games, get_game, register
from .rng import event_rng, new_seed, seed_commitment

__all__ = [
    "GENESIS",
    "AutomaticMove",
    "Game",
    "IllegalMove",
    "Move",
    "Option",
    "ParseError",
    "Result",
    "StandingOrder",
    "State",
    "Step",
    "View",
    "available_games",
    "canonical_json",
    "chain_digest",
    "check_move",
    "copy_state",
    "event_rng",
    "get_game",
    "new_seed",
    "next_automatic",
    "next_step",
    "places",
    "register",
    "score_line",
    "seats_to_ask",
    "seed_commitment",
    "shared_groups",
]
