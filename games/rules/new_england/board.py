"""How a New England move is built by clicking the board (games/builder.py): the item in the
selection, then the parcels it goes to, in any order (a parcel clicked again is taken out: the
rulebook's "double clicking a selected tile will de-select it"); a figure, then where it
moves; a chip on the track. The board template marks each parcel `cell:<name>`, each chip
`chip:<value>` and each item of the selection `slot:<number>`."""

from __future__ import annotations

from games.engine import Step

from .data import LAND_NAMES

BOARD_TARGETS = ("cell", "chip", "slot")


def _use(move: dict) -> list[Step]:
    if move.get("store"):
        return [Step("use", "use:store", "store in a barn")]
    if "cells" in move:
        return [Step("cell", f"cell:{c}", f"develop {c}", "parcels") for c in move["cells"]]
    return [Step("cell", f"cell:{move['at']}", f"place at {move['at']}")]


def move_steps(move: dict, command: str) -> list[Step]:
    kind = move["type"]
    if kind == "chip":
        return [Step("chip", f"chip:{move['chip']}", f"chip {move['chip']}")]
    if kind == "buy_tile":
        return [
            Step("slot", f"slot:{move['slot']}", f"tile {move['slot']}"),
            Step("cell", f"cell:{move['at']}", f"place at {move['at']}"),
        ]
    if kind == "buy_card":
        return [Step("slot", f"slot:{move['slot']}", f"card {move['slot']}"), *_use(move)]
    if kind == "play_stored":
        label = f"stored card {move['stored']}"
        return [Step("stored", f"stored:{move['stored']}", label), *_use(move)]
    if kind == "move":
        return [
            Step("from", f"cell:{move['from']}", f"{move['figure']} at {move['from']}"),
            Step("to", f"cell:{move['to']}", f"to {move['to']}"),
        ]
    if kind == "start_tile":
        land = Step("land", f"land:{move['land']}", LAND_NAMES[move["land"]])
        return [land, *[Step("cell", f"cell:{c}", c, "parcels") for c in move["cells"]]]
    return [Step("choice", f"cmd:{command}", command)]
