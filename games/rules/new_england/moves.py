"""Enumerating legal moves and dispatching a move to the rule that enacts it."""

from __future__ import annotations

from games.engine import IllegalMove
from games.engine.words import _

from . import rules
from .data import CARD_CHOICES, CARDS, CELL_NAMES, LAND_TYPES, MAX_FIGURE_MOVES, MAX_PURCHASES
from .rules import State


def _names(cells) -> list[str]:
    return [CELL_NAMES[c] for c in sorted(cells)]


def card_uses(state: State, seat: int, card_id: int) -> list[dict]:
    """The ways to use a card now, as move fragments (without slot or stored index)."""
    card = CARDS[card_id]
    if card.kind == "land":
        return [{"cells": _names(p)} for p in rules.development_placements(state, seat, card_id)]
    if state["supply"][card.kind] <= 0:
        return []
    return [{"at": CELL_NAMES[c]} for c in rules.figure_spots(state, seat, card.kind)]


def legal_moves(state: State, seat: int) -> list[dict]:
    if seat not in rules.to_act(state):
        return []
    phase = state["phase"]
    if phase == "setup":
        return [
            {"type": "start_tile", "land": land, "cells": _names(pair)}
            for land in LAND_TYPES
            if land in state["starters"][seat]
            for pair in rules.starter_pairs(state, land)
        ]
    if phase == "select":
        return [{"type": "select", "cards": k} for k in CARD_CHOICES]
    if phase == "bid":
        return [{"type": "chip", "chip": c} for c in rules.free_chips(state)]
    return buying_moves(state, seat)


def buying_moves(state: State, seat: int) -> list[dict]:
    player = state["players"][seat]
    moves: list[dict] = [{"type": "pass"}]
    if rules.can_reveal(state, seat):
        if state["bag"]:
            moves.append({"type": "reveal", "what": "tile"})
        if state["deck"]:
            moves.append({"type": "reveal", "what": "card"})
    if state["purchases"] < MAX_PURCHASES and player["money"] >= rules.price(state, seat):
        storable = rules.can_store(state, seat)
        spots: dict[str, list[int]] = {}
        for slot, item in enumerate(state["selection"], start=1):
            if item is None:
                continue
            if "tile" in item:
                land = item["tile"]
                if land not in spots:
                    spots[land] = rules.tile_spots(state, seat, land)
                moves += [
                    {"type": "buy_tile", "slot": slot, "at": CELL_NAMES[c]} for c in spots[land]
                ]
            else:
                for use in card_uses(state, seat, item["card"]):
                    moves.append({"type": "buy_card", "slot": slot, **use})
                if storable:
                    moves.append({"type": "buy_card", "slot": slot, "store": True})
    for index, card_id in enumerate(player["stored"][: rules.playable_stored(state, seat)], 1):
        for use in card_uses(state, seat, card_id):
            moves.append({"type": "play_stored", "stored": index, **use})
    if rules.is_v2(state) or state["figure_moves"] < MAX_FIGURE_MOVES:
        for tile_id, tile in enumerate(state["tiles"]):
            if tile["owner"] == seat and tile["figure"] in ("pilgrim", "ship"):
                here = CELL_NAMES[tile["cells"][0]]
                for target in rules.figure_spots(state, seat, tile["figure"], exclude=tile_id):
                    moves.append(
                        {
                            "type": "move",
                            "figure": tile["figure"],
                            "from": here,
                            "to": CELL_NAMES[target],
                        }
                    )
    return moves


# The fields of each move (games.engine.check_move refuses any other shape).
MOVE_FIELDS = {
    "start_tile": {"land": "str", "cells": "strs"},
    "select": {"cards": "int"},
    "chip": {"chip": "int"},
    "pass": {},
    "buy_tile": {"slot": "int", "at": "str"},
    "buy_card": {"slot": "int", "cells": "strs", "at": "str", "store": "bool"},
    "play_stored": {"stored": "int", "cells": "strs", "at": "str"},
    "move": {"figure": "str", "from": "str", "to": "str"},
    "reveal": {"what": "str"},
}


def apply_move(state: State, seat: int, move: dict) -> State:
    if not isinstance(move, dict):
        raise IllegalMove(_("A move is an object with a type."))
    kind = move.get("type")
    if state["phase"] == "over":
        raise IllegalMove(_("The game is over."))
    if kind == "pass":
        rules.end_buying_turn(state, seat)
    elif kind == "buy_tile":
        rules.buy_tile(state, seat, move.get("slot"), move.get("at"))
    elif kind == "buy_card":
        rules.buy_card(state, seat, move)
    elif kind == "play_stored":
        rules.play_stored(state, seat, move)
    elif kind == "move":
        rules.move_figure(state, seat, move.get("figure"), move.get("from"), move.get("to"))
    elif kind == "reveal":
        rules.reveal(state, seat, move.get("what"))
    elif kind == "chip":
        rules.take_chip(state, seat, move.get("chip"))
    elif kind == "select":
        rules.choose_selection(state, seat, move.get("cards"))
    elif kind == "start_tile":
        rules.place_starter(state, seat, move.get("land"), move.get("cells"))
    else:
        raise IllegalMove(_("Unknown move {kind}.", kind=repr(kind)))
    return state
