"""What a player needs to decide, spelled out: for the email's text and the page.

The board's text writes plans as codes ("Chapel, 1W 2S, P1 I1 C1"). `reference` gives the
same plans with every code spelled out, the characters in play with their abilities, the
event and visitor of the turn, and (for the page and 'help') every character, visitor and
event of the game. Menus in Blankenburg are short; only bids and sales share a line.
"""

from __future__ import annotations

from games.engine.menus import MenuParts, ReferenceSection
from games.engine.words import Text, _, joined, pgettext

from . import text as T
from .data import CHARACTERS, DISTRICT_NAMES, EVENTS, KIND_NAMES, RESOURCE_NAMES, VISITORS
from .view import said_names

RESOURCE_LETTERS = {"W": "wood", "S": "stone", "G": "glass", "M": "marble", "I": "iron"}
CODES_NOTE = _(
    "Prest, Income, Cap: the board's codes P, I, C. P prestige (points when built), "
    "I income (silver each guest pays per turn), C capacity (guests it lodges). "
    "Costs: W wood, S stone, G glass, M marble, I iron; "
    "so 'P1 I1 C2' is prestige 1, income 1, capacity 2, and '1W 2S' is 1 wood and 2 stone. "
    "Town spaces: Y residential, G commercial, R civic, B religious."
)


def cost_words(cost: dict[str, int]) -> Text:
    counts = [
        _("{count} {resource}", count=n, resource=RESOURCE_NAMES.get(resource, resource))
        for resource, n in cost.items()
        if n
    ]
    return joined(counts, ", ") if counts else pgettext("blankenburg", "nothing")


def plan_row(communal: bool, plan: dict) -> list[str]:
    return [
        _("{plan} (communal)", plan=plan["name"]) if communal else plan["name"],
        _(
            "{kind} {district}",
            kind=KIND_NAMES[plan["kind"]],
            district=DISTRICT_NAMES[plan["district"]],
        ),
        str(plan["prestige"]),
        str(plan["income"]),
        str(plan["capacity"]),
        cost_words(plan["cost"]),
    ]


def menu_parts(state, seat: int, move: dict) -> MenuParts:
    """Bids and sales share a line ('bid ...  0 | 1 | 2'); the rest stand alone."""
    if move["type"] == "bid":
        return MenuParts("bid", str(move["silver"]), note=_("your sealed bid in silver"))
    if move["type"] == "sell":
        return MenuParts("sell", f"{move['count']} {move['resource']}")
    return MenuParts(T.format_move(state, seat, move))


def reference(view: dict) -> list[ReferenceSection]:
    sections = []
    rows = []
    you = view.get("you") or {}
    for plan in you.get("hand") or []:
        rows.append(plan_row(False, plan))
    for plan in view.get("communal") or []:
        if plan:
            rows.append(plan_row(True, plan))
    sections.append(
        ReferenceSection(
            key="plans",
            title=pgettext("reference", "Plans you can build (your hand and the communal plans)"),
            columns=[
                pgettext("reference", "Plan"),
                pgettext("reference", "Kind"),
                pgettext("reference", "Prest"),
                pgettext("reference", "Income"),
                pgettext("reference", "Cap"),
                pgettext("reference", "Cost"),
            ],
            rows=rows,
            notes=[CODES_NOTE],
            brief=True,
        )
    )
    sections.append(
        ReferenceSection(
            key="characters",
            title=pgettext("reference", "Characters in play"),
            columns=[
                pgettext("reference", "Player"),
                pgettext("reference", "Character"),
                pgettext("reference", "Ability"),
            ],
            rows=[
                [p["name"], p.get("character") or "-", p.get("character_text") or ""]
                for p in view.get("players", [])
            ],
            brief=True,
        )
    )
    turn = []
    if view.get("event"):
        turn.append(
            [pgettext("blankenburg", "event"), view["event"]["name"], view["event"]["text"]]
        )
    if view.get("visitor"):
        visitor = view["visitor"]
        wishes = joined(said_names(visitor.get("prefs", [])), " > ")
        turn.append(
            [
                pgettext("blankenburg", "visitor"),
                visitor["name"],
                _("{text} Lodges in: {wishes}.", text=visitor["text"], wishes=wishes),
            ]
        )
    if turn:
        sections.append(
            ReferenceSection(
                key="turn",
                title=pgettext("reference", "This turn"),
                columns=["", pgettext("reference", "Name"), pgettext("reference", "What it does")],
                rows=turn,
                brief=True,
            )
        )
    sections += [
        ReferenceSection(
            key="all_characters",
            title=pgettext("reference", "Every character"),
            columns=[pgettext("reference", "Character"), pgettext("reference", "Ability")],
            rows=[[c.name, c.text] for c in CHARACTERS],
        ),
        ReferenceSection(
            key="visitors",
            title=pgettext("reference", "Visitors (lodging wishes, then what they offer)"),
            columns=[
                pgettext("reference", "Visitor"),
                pgettext("reference", "Lodges in"),
                pgettext("reference", "What it does"),
            ],
            rows=[[v.name, joined(said_names(v.prefs), " > "), v.text] for v in VISITORS],
        ),
        ReferenceSection(
            key="events",
            title=pgettext("reference", "Events"),
            columns=[pgettext("reference", "Event"), pgettext("reference", "What it does")],
            rows=[[e.name, e.text] for e in EVENTS],
        ),
    ]
    return sections


__all__ = ["CODES_NOTE", "RESOURCE_LETTERS", "menu_parts", "reference"]
