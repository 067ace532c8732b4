"""How a Blankenburg move is built by tapping the board (games/builder.py): a resource on the
market, a structure's space in the town; building is the action, the plan, then the space. The
board template marks each town space `space:<index>` and each resource `res:<name>`."""

from __future__ import annotations

from games.engine import Step

from .data import PLANS
from .rules import State
from .view import space_codes

BOARD_TARGETS = ("space", "res")
ACTIONS = {
    "build": "Build",
    "demolish": "Demolish",
    "repair": "Repair",
    "buy": "Buy",
    "sell": "Sell",
}


def move_steps(state: State, seat: int, move: dict, command: str) -> list[Step]:
    """A resource is clicked on the market; a structure's space in the town; building is the
    action, the plan, then the space."""
    kind = move["type"]
    if kind in ("take", "extra"):
        return [Step("resource", f"res:{move['resource']}", move["resource"])]
    if kind == "bid":  # an amount: the page offers it as coins to tap (games.pages.PieceGroup)
        return [Step("bid", f"bid:{move['silver']}", f"bid {move['silver']}")]
    if kind == "select":
        return [Step("resource", f"res:{r}", r) for r in move["resources"]]
    if kind == "buy" and "resource" in move:
        return [
            Step("action", "act:buy", "Buy"),
            Step("resource", f"res:{move['resource']}", move["resource"]),
        ]
    if kind == "sell":
        return [
            Step("action", "act:sell", "Sell"),
            Step("resource", f"res:{move['resource']}", move["resource"]),
            Step("count", f"count:{move['count']}", str(move["count"])),
        ]
    codes = space_codes(state["board"])
    if kind in ("demolish", "repair"):
        space = move["space"]
        return [
            Step("action", f"act:{kind}", ACTIONS[kind]),
            Step("space", f"space:{space}", f"space {codes[space]}"),
        ]
    if kind == "build":
        card, space = move["card"], move["space"]
        plan = PLANS[card].name
        if card not in state["players"][seat]["hand"]:
            plan = f"communal {plan}"
        info = PLANS[card]
        cost = ", ".join(f"{count} {resource}" for resource, count in info.cost)
        note = (
            f"{info.kind} {info.district}; costs {cost}; prestige {info.prestige}, "
            f"income {info.income}, capacity {info.capacity}"
        )
        return [
            Step("action", "act:build", "Build"),
            Step("plan", f"plan:{card}", plan, note=note),
            Step("space", f"space:{space}", f"space {codes[space]}"),
        ]
    return [Step("choice", f"cmd:{command}", command)]
