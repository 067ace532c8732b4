"""The opening: each player clears a forest tile, then places a starting building."""

from __future__ import annotations

from functools import cache

from games.engine import IllegalMove
from games.engine.words import Text, _, joined

from .. import geometry as B
from ..data import BUILDINGS, FOREST_NAMES, FOREST_YIELD, GOOD_NAMES, STARTING_BUILDINGS
from .helpers import name, privilege_count, say


def starting_options(state, seat: int) -> list[dict]:
    moves = []
    for key in STARTING_BUILDINGS:
        if key == "boat":
            if None in state["boats"]:
                moves.append({"type": "build", "building": "boat", "cells": [], "facing": None})
            continue
        if state["supply"][key] <= 0:
            continue
        for cells, facing in B.placements(state, BUILDINGS[key]):
            moves.append({"type": "build", "building": key, "cells": cells, "facing": facing})
    return moves


def any_starting_option(state) -> bool:
    """bool(starting_options(...)) (the same for every seat), trying the Boat first."""
    if None in state["boats"]:
        return True
    return any(
        state["supply"][key] > 0 and B.placements(state, BUILDINGS[key])
        for key in STARTING_BUILDINGS
        if key != "boat"
    )


def take_forest(state, seat: int, cell: str, checked: bool = True) -> None:
    if not isinstance(cell, str) or cell not in state["forest"]:
        raise IllegalMove(_("There is no forest tile at {cell}.", cell=str(cell)))
    if checked and not B.forest_open(state, cell):
        raise IllegalMove(
            _(
                "The forest at {cell} cannot be reached: take a tile in the outer area, or in "
                "the city next to the Market or the open area.",
                cell=cell,
            )
        )
    forest = state["forest"]
    geo = B.geometry(state["board"])
    tile = forest.pop(cell)
    del forest[geo.partner[cell]]
    bonus = 0
    if state["phase"] == "act":
        act = state["act"]
        if act["privilege"] and seat == act["chooser"]:  # privileged(), written out
            bonus = privilege_count(state, seat)
    gains, got = forest_gains(tile, bonus)
    player = state["players"][seat]
    for good, amount in gains:
        player[good] += amount
    if state["news"] is not None:
        say(
            state,
            _(
                "{who} cleared the forest at {cell} ({tile}): +{got}.",
                who=name(state, seat),
                cell=geo.tile_first[cell],
                tile=FOREST_NAMES[tile],
                got=got,
            ),
        )


@cache
def forest_gains(tile: str, bonus: int) -> tuple[tuple[tuple[str, int], ...], Text]:
    """What a forest tile yields, the Woodcutter's privilege adding `bonus` wood, and how
    the history tells it."""
    gains = dict(FOREST_YIELD[tile])
    if bonus:
        gains["wood"] += bonus
    told = [_("{count} {good}", count=a, good=GOOD_NAMES[g]) for g, a in gains.items()]
    return tuple(gains.items()), joined(told, ", ")
