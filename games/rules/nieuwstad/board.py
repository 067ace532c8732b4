"""How a Nieuwstad move is built by tapping the board (games/builder.py): a forest tile is one
tap; a building is the action, the building, its spaces, its facing and how it is paid; a sale
is the good, where and how many. The board template marks each space `cell:<name>` and each
forest tile `tile:<key>`."""

from __future__ import annotations

from games.engine import Step
from games.engine.words import _

from . import geometry as B
from . import reference as REF
from . import text as T
from .data import CARDS, DIR_NAMES, GOOD_NAMES

BOARD_TARGETS = ("cell", "tile")
STALL_NAMES = {"market": _("market"), "timbertrade": _("timber trade")}  # where a sale is made
ACTIONS = {
    "build": _("Build"),
    "propose": _("Propose a building with partners"),
    "sell": _("Sell"),
}


def cell_target(state, cell: str) -> str:
    """The target id of a board space: a forest tile is one target for both its spaces."""
    if cell in state["forest"]:
        return f"tile:{B.geometry(state['board']).tile_key.get(cell, cell)}"
    return f"cell:{cell}"


def move_steps(state, seat: int, move: dict, command: str) -> list[Step]:
    """A forest tile is one click on the board; a building is the action, the building, its
    spaces on the board, its facing and how it is paid; a sale is the good, where, how many.
    Other moves are one click on their command (`command`, from format_move)."""
    kind = move["type"]
    if kind == "forest":
        key = B.geometry(state["board"]).tile_key.get(move["cell"], move["cell"])
        partner = B.geometry(state["board"]).partner.get(key, "")
        if partner:
            return [
                Step("tile", f"tile:{key}", _("forest {first}/{second}", first=key, second=partner))
            ]
        return [Step("tile", f"tile:{key}", _("forest {first}", first=key))]
    if kind in ("build", "propose"):
        steps = [
            Step("action", f"act:{kind}", ACTIONS[kind]),
            Step(
                "building",
                f"building:{move['building']}",
                T.building_name(move["building"]),
                note=REF.building_note(move["building"]),
            ),
        ]
        steps += [Step("cell", f"cell:{c}", c) for c in move["cells"]]
        if move.get("facing"):
            steps.append(
                Step(
                    "facing",
                    f"facing:{move['facing']}",
                    _("facing {direction}", direction=DIR_NAMES[move["facing"]]),
                )
            )
        if kind == "build" and "discount" in move:
            paid = T.discount_text(move["discount"]).strip() or _("full price")
            steps.append(Step("discount", f"discount:{move['discount'] or 'none'}", paid))
        if kind == "propose":
            # Who shares it, and on what terms, differs between rules versions: the last step
            # is the whole command.
            steps.append(Step("terms", f"cmd:{command}", command))
        return steps
    if kind == "sell" and "good" in move:
        at = STALL_NAMES.get(move["at"]) or REF.STALL_WORDS.get(move["at"], move["at"])
        return [
            Step("action", "act:sell", ACTIONS["sell"]),
            Step("good", f"good:{move['good']}", GOOD_NAMES[move["good"]]),
            Step("at", f"at:{move['at']}", _("at {stall}", stall=at)),
            Step("count", f"count:{move['count']}", f"{move['count']}"),
        ]
    if kind == "choose" and "repeat" not in move:  # a character tile beside the board
        return [Step("character", f"character:{move['character']}", command)]
    if kind == "play" and move.get("target") in B.geometry(state["board"]).area:
        return [
            Step("card", f"card:{move['card']}", _("play {card}", card=CARDS[move["card"]].name)),
            Step("cell", cell_target(state, move["target"]), _("on {cell}", cell=move["target"])),
            *[
                Step(k, f"{k}:{move[k]}", f"{k} {move[k]}")
                for k in ("district", "take")
                if k in move
            ],
        ]
    return [Step("choice", f"cmd:{command}", command)]
