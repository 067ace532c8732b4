"""The rules of Nieuwstad: setup, the opening, rounds of characters, phases, cards, events, the
end. One module a phase:

- `helpers`: what every phase uses (the rules version, narration, seats in turn, goods);
- `game_setup`: the starting position;
- `flow`: whose turn it is, the round of characters, each phase begun and finished, the end
  of a round (income, Income Tax) and the end of the game;
- `opening`: the forest tiles and starting buildings before the first round;
- `characters`: choosing characters;
- `building`: costs, the Master Builder's discount, where a building stands, a build alone;
- `proposals`: community buildings and joint building (proposals, terms, answers);
- `farming`, `bailiff` (action cards, wish cards), `events`, `merchant`: the other phases;

The state is plain JSON. `advance` moves the game on through everything that needs no
decision; every move function checks its preconditions, changes the state and calls it.
Here: the names the other modules of the game and its tests use.
"""

from __future__ import annotations

from .building import buildings_not_open, discount_options, place, where
from .events import viking_targets
from .farming import produce
from .flow import (
    advance,
    available_characters,
    best_district_party,
    card_points,
    finish_game,
    start_round,
    to_act,
    total_points,
)
from .game_setup import setup
from .helpers import (
    boats_of,
    built,
    clockwise,
    district_residents,
    either,
    guilders_text,
    house_counts,
    name,
    owned,
    ruleset,
    wood_value,
)
from .merchant import can_trade, merchant_moves, stall_slots
from .opening import any_starting_option, starting_options
from .proposals import (
    can_propose_any,
    check_terms,
    counter_moves,
    menu_split,
    move_terms,
    proposable,
    shares,
    terms_fields,
    terms_text,
)

__all__ = [
    "advance",
    "any_starting_option",
    "available_characters",
    "best_district_party",
    "boats_of",
    "buildings_not_open",
    "built",
    "can_propose_any",
    "can_trade",
    "card_points",
    "check_terms",
    "clockwise",
    "counter_moves",
    "discount_options",
    "district_residents",
    "either",
    "guilders_text",
    "finish_game",
    "house_counts",
    "menu_split",
    "merchant_moves",
    "move_terms",
    "name",
    "owned",
    "place",
    "produce",
    "proposable",
    "ruleset",
    "setup",
    "shares",
    "stall_slots",
    "start_round",
    "starting_options",
    "terms_fields",
    "terms_text",
    "to_act",
    "total_points",
    "viking_targets",
    "where",
    "wood_value",
]
