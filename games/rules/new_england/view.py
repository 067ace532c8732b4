"""New England: what a seat may see, the board, the selection, the chips and the players, as
the page draws them. The bag's and the deck's order (`NewEngland.secrets`) are not in it."""

from __future__ import annotations

from games.engine import places
from games.engine.words import Text, _

from . import rules, text
from .data import (
    CARDS,
    CELL_NAMES,
    CHIPS,
    COLUMNS,
    FIGURE_NAMES,
    HEIGHT,
    LAND_NAMES,
    MISSING,
    ROTATIONS,
    SHAPE_NAMES,
    WIDTH,
    shillings,
)

CELL_SIZE = 40
LAND_FILLS = {"S": "#b5651d", "F": "#4a4a4a", "P": "#6aa84f"}
DEVELOPED_FILLS = {"S": "#e8a25c", "F": "#9c8f4a", "P": "#b6e08a"}
# 3:1 against white and the board's paper (a ring on a white disc, a chip on the page, a
# starter tile's outline on a white halo), and unlike any land, the sea or each other
# (tests/web/test_svg_contrast.py).
FAMILY_COLOURS = {
    "Annable": "#d62728",
    "Howland": "#1f77b4",
    "Palomer": "#00796b",
    "Winslow": "#8e44ad",
}


EMPTY_CELL = {
    "fill": "#f3ead2",
    "land": "",
    "letter": "",
    "colour": "",
    "developed": False,
    "figure": "",
}
SEA_CELL = {**EMPTY_CELL, "fill": "#7fb3d5", "sea": True}


def build_view(state, seat, result) -> dict:
    """The view `NewEngland.view` gives; `result` is the game's (None until it is over)."""
    families = state["families"]
    letters = [f[0] for f in families]
    colours = [FAMILY_COLOURS[f] for f in families]
    cells = []
    tiles = state["tiles"]
    for index, tile_id in enumerate(state["cells"]):
        tile = tiles[tile_id] if tile_id != rules.EMPTY else None
        if tile:
            fills = DEVELOPED_FILLS if tile["developed"] else LAND_FILLS
            owner = tile["owner"]
            cell = {
                "fill": fills[tile["land"]],
                "land": tile["land"],
                "letter": letters[owner],
                "colour": colours[owner],
                "developed": tile["developed"],
                "figure": tile["figure"] or "",
            }
        else:
            cell = dict(SEA_CELL if index in MISSING else EMPTY_CELL)
        cell["name"] = CELL_NAMES[index]
        cell["x"] = (index % WIDTH) * CELL_SIZE + 20
        cell["y"] = (index // WIDTH) * CELL_SIZE + 40
        cells.append(cell)
    # starter tiles: an outline around both halves, in the family's colour
    joins = []
    starters = []
    for tile in tiles:
        if len(tile["cells"]) == 2:
            a, b = tile["cells"]
            starter = {
                "letter": letters[tile["owner"]],
                "land": LAND_NAMES[tile["land"]],
                "cells": f"{CELL_NAMES[a]}+{CELL_NAMES[b]}",
            }
            if tile["developed"]:
                starters.append(_("{letter} {land} {cells} (developed)", **starter))
            else:
                starters.append(_("{letter} {land} {cells}", **starter))
            joins.append(
                {
                    "x": (a % WIDTH) * CELL_SIZE + 21,
                    "y": (a // WIDTH) * CELL_SIZE + 41,
                    "w": ((b % WIDTH) - (a % WIDTH) + 1) * CELL_SIZE - 2,
                    "h": ((b // WIDTH) - (a // WIDTH) + 1) * CELL_SIZE - 2,
                    "colour": colours[tile["owner"]],
                }
            )
    selection = []
    for slot, item in enumerate(state["selection"], start=1):
        entry = {"slot": slot, "taken": item is None}
        if item is not None:
            entry["text"] = _item_text(item)
            if "tile" in item:
                entry.update(kind="tile", land=item["tile"], fill=LAND_FILLS[item["tile"]])
            else:
                card = CARDS[item["card"]]
                entry.update(
                    kind="card",
                    land=card.land,
                    fill=LAND_FILLS.get(card.land, "#ffffff"),
                    points=card.points,
                    figure="" if card.kind == "land" else card.kind,
                )
                if card.kind == "land":
                    # The shape as the page draws it: a 10 px square per parcel.
                    laid = ROTATIONS[card.shape][0]
                    entry.update(
                        shape=card.shape,
                        shape_name=SHAPE_NAMES[card.shape],
                        parcels=card.size,
                        shape_cells=[[c * 10, r * 10] for c, r in laid],
                        shape_width=max(c for c, _ in laid) * 10 + 10,
                        shape_height=max(r for _, r in laid) * 10 + 10,
                    )
        selection.append(entry)
    chips = []
    for value in CHIPS:
        holder = state["chips"].index(value) if value in state["chips"] else None
        chips.append(
            {
                "value": value,
                "x": value * 36 - 14,
                "seat": holder,
                "letter": letters[holder] if holder is not None else "",
                "colour": FAMILY_COLOURS[families[holder]] if holder is not None else "",
            }
        )
    to_act = rules.to_act(state)
    players = []
    for s, player in enumerate(state["players"]):
        players.append(
            {
                "seat": s,
                "name": state["names"][s],
                "family": families[s],
                "letter": letters[s],
                "colour": FAMILY_COLOURS[families[s]],
                "money": player["money"],
                "points": sum(CARDS[c].points for c in player["cards"]),
                "cards": [CARDS[c].name for c in player["cards"]],
                "stored": [CARDS[c].name for c in player["stored"]],
                "figures": dict(player["figures"]),
                "income": rules.income(state, s),
                "chip": state["chips"][s],
                "to_act": s in to_act,
                "start": s == state["start"],
            }
        )
    view = {
        "seat": seat,
        "round": state["round"],
        "phase": state["phase"],
        "status": _status(state),
        "cells": cells,
        "joins": joins,
        "starters": starters,
        "selection": selection,
        "chips": chips,
        "players": players,
        "supply": dict(state["supply"]),
        "columns": [{"label": c, "x": i * CELL_SIZE + 40} for i, c in enumerate(COLUMNS)],
        "rows": [{"label": r + 1, "y": r * CELL_SIZE + 65} for r in range(HEIGHT)],
        "width": WIDTH * CELL_SIZE + 60,
        "height": HEIGHT * CELL_SIZE + 60,
        "result": None,
    }
    if result is not None:
        lines = []
        for rank, s, tied in places(result.as_json()):
            lines.append(
                _(
                    "{place} {name} ({family}): {points} points ({cards} from cards, "
                    "{bonus} bonus), {money}",
                    place=f"{rank}.{'=' if tied else ''}",
                    name=state["names"][s],
                    family=families[s],
                    points=result.scores[s],
                    cards=result.details["cards"][s],
                    bonus=result.details["bonus"][s],
                    money=shillings(state["players"][s]["money"]),
                )
            )
        view["result"] = lines
    return view


def _item_text(item: dict) -> Text:
    if "tile" in item:
        return _("land tile: {land}", land=LAND_NAMES[item["tile"]])
    card = CARDS[item["card"]]
    if card.kind == "land":
        return _(
            "card: {land} {shape} [{picture}] {points} points",
            land=LAND_NAMES[card.land],
            shape=SHAPE_NAMES[card.shape],
            picture=text.shape_picture(card.shape),
            points=card.points,
        )
    if card.points == 1:
        return _("card: {figure}, 1 point", figure=FIGURE_NAMES[card.kind])
    return _("card: {figure}, {points} points", figure=FIGURE_NAMES[card.kind], points=card.points)


def _status(state) -> Text:
    phase = state["phase"]
    names = state["names"]
    if phase == "over":
        if state["ended_by"] == "cards":
            return _("game over (not enough development cards for the selection)")
        return _("game over (not enough land tiles for the selection)")
    who = names[state["turn"]]
    if phase == "setup":
        return _("setup: {who} places a starter tile", who=who)
    if phase == "select":
        return _("phase 1: {who} chooses the selection", who=who)
    if phase == "bid":
        return _("phase 2: {who} takes a bidding chip", who=who)
    cost = rules.price(state, state["turn"])
    return _(
        "phase 3: {who} buys at {price} ({count} of 2 bought)",
        who=who,
        price=shillings(cost),
        count=state["purchases"],
    )
