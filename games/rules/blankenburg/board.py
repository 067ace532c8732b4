"""How a Blankenburg move is built by tapping the board (games/builder.py): a resource on the
market, a structure's space in the town; building is the action, the plan, then the space. The
board template marks each town space `space:<index>` and each resource `res:<name>`."""

from __future__ import annotations

from games.engine import Step
from games.engine.words import _, joined, pgettext

from .data import DISTRICT_NAMES, KIND_NAMES, PLANS, RESOURCE_NAMES
from .rules import State
from .view import space_codes

BOARD_TARGETS = ("space", "res")
ACTIONS = {
    "build": pgettext("blankenburg", "Build"),
    "demolish": pgettext("blankenburg", "Demolish"),
    "repair": pgettext("blankenburg", "Repair"),
    "buy": pgettext("blankenburg", "Buy"),
    "sell": pgettext("blankenburg", "Sell"),
}


def move_steps(state: State, seat: int, move: dict, command: str) -> list[Step]:
    """A resource is clicked on the market; a structure's space in the town; building is the
    action, the plan, then the space."""
    kind = move["type"]
    if kind in ("take", "extra"):
        return [Step("resource", f"res:{move['resource']}", RESOURCE_NAMES[move["resource"]])]
    if kind == "bid":  # an amount: the page offers it as coins to tap (games.pages.PieceGroup)
        return [Step("bid", f"bid:{move['silver']}", f"bid {move['silver']}")]
    if kind == "select":
        return [Step("resource", f"res:{r}", RESOURCE_NAMES[r]) for r in move["resources"]]
    if kind == "buy" and "resource" in move:
        return [
            Step("action", "act:buy", ACTIONS["buy"]),
            Step("resource", f"res:{move['resource']}", RESOURCE_NAMES[move["resource"]]),
        ]
    if kind == "sell":
        return [
            Step("action", "act:sell", ACTIONS["sell"]),
            Step("resource", f"res:{move['resource']}", RESOURCE_NAMES[move["resource"]]),
            Step("count", f"count:{move['count']}", str(move["count"])),
        ]
    codes = space_codes(state["board"])
    if kind in ("demolish", "repair"):
        space = move["space"]
        return [
            Step("action", f"act:{kind}", ACTIONS[kind]),
            Step("space", f"space:{space}", _("space {code}", code=codes[space])),
        ]
    if kind == "build":
        card, space = move["card"], move["space"]
        info = PLANS[card]
        plan = info.name
        if card not in state["players"][seat]["hand"]:
            plan = _("communal {plan}", plan=plan)
        cost = joined(
            (
                _("{count} {resource}", count=count, resource=RESOURCE_NAMES[resource])
                for resource, count in info.cost
            ),
            ", ",
        )
        note = _(
            "{kind} {district}; costs {cost}; prestige {prestige}, income {income}, "
            "capacity {capacity}",
            kind=KIND_NAMES[info.kind],
            district=DISTRICT_NAMES[info.district],
            cost=cost,
            prestige=info.prestige,
            income=info.income,
            capacity=info.capacity,
        )
        return [
            Step("action", "act:build", ACTIONS["build"]),
            Step("plan", f"plan:{card}", plan, note=note),
            Step("space", f"space:{space}", _("space {code}", code=codes[space])),
        ]
    return [Step("choice", f"cmd:{command}", command)]
