"""What a player needs to decide, from the component data: for the email's text and the page.

`menu_parts` cuts each command for the compact menu (games.engine.menus), with the building's
facts as the line's note; `reference` gives the building table, the forest tiles and the
cards in the viewer's hand as tables.
"""

from __future__ import annotations

from games.engine.menus import MenuParts, ReferenceSection
from games.engine.words import Text, _, joined, pgettext

from . import text as T
from .data import (
    ALL_BUILDINGS,
    BUILDINGS,
    CARD_TEXT,
    CARDS,
    DIR_NAMES,
    FOREST_NAMES,
    FOREST_TILES,
    PASTIES,
    PASTY_NAMES,
    SALE_PRICES,
    TIMING_NAMES,
)
from .rules import guilders_text


def points_text(count: int) -> Text:
    return _("1 point") if count == 1 else _("{count} points", count=count)


def cost_text(key: str) -> Text:
    b = ALL_BUILDINGS[key]
    return _("{guilders} + {wood} wood", guilders=guilders_text(b.guilders), wood=b.wood)


def burghers_text(key: str) -> Text:
    burghers = ALL_BUILDINGS[key].burghers
    return _("{count} Burghers", count=f"{burghers:+d}") if burghers else _("no Burghers")


def building_note(key: str) -> Text:
    b = ALL_BUILDINGS[key]
    if key == "boat":
        spaces = _("on the lake")
    else:
        spaces = _("1 space") if b.size == 1 else _("{count} spaces", count=b.size)
    return joined([cost_text(key), points_text(b.points), burghers_text(key), spaces], "; ")


def menu_parts(state, seat: int, move: dict) -> MenuParts:
    kind = move["type"]
    if kind in ("build", "propose"):
        name = T.building_name(move["building"])
        place = "+".join(move["cells"])
        if move["facing"] and move["cells"]:
            place += f" facing {DIR_NAMES[move['facing']]}"
        if kind == "build":
            ending = T.discount_text(move.get("discount", "")).strip()
        elif ":" in T.format_move(state, seat, move):  # rules version 2, terms typed out
            place += ":"
            ending = T.shares_text(state, move)
        elif "seats" in move:  # rules version 2: the menu's terms for these partners
            ending = "with " + ", ".join(state["names"][s] for s in move["seats"][1:])
        else:
            ending = "with " + ", ".join(state["names"][s] for s in move["partners"])
        command = f"{kind} {name}" + (" at" if move["cells"] else "")
        return MenuParts(command, place, ending, building_note(move["building"]))
    if kind == "forest":
        return MenuParts(
            "take forest",
            move["cell"],
            note=_("a face-down tile of two spaces: 3 wood, 4 wood, or 2 wood and 1 game"),
        )
    if kind == "sell" or kind == "pasty":
        return MenuParts("sell", T.format_move(state, seat, move).removeprefix("sell "))
    if kind == "buy" and "good" in move:
        return MenuParts("buy", T.format_move(state, seat, move).removeprefix("buy "))
    if kind == "convert":
        return MenuParts("convert", T.format_move(state, seat, move).removeprefix("convert "))
    return MenuParts(T.format_move(state, seat, move))


KIND_SHORT = {
    "red": _("starting"),
    "green": _("outer area"),
    "blue": _("community"),
    "brown": _("city"),
}
STALL_WORDS = {  # the stalls as the sales table names them
    "butcher": pgettext("nieuwstad", "butcher"),
    "baker": pgettext("nieuwstad", "baker"),
    "fishmonger": pgettext("nieuwstad", "fishmonger"),
    "inn": pgettext("nieuwstad", "inn"),
}


def gives_text(guilders: int, points: int) -> Text:
    return joined([guilders_text(guilders), points_text(points)], ", ")


def reference(view: dict) -> list[ReferenceSection]:
    left = {s["name"]: s["count"] for s in view.get("supply", [])}
    rows = []
    for key, b in ALL_BUILDINGS.items():
        rows.append(
            [
                b.name,
                str(b.guilders),
                str(b.wood),
                str(b.points),
                f"{b.burghers:+d}" if b.burghers else "0",
                _("lake") if key == "boat" else str(b.size),
                "-" if key == "boat" else str(left.get(b.name, 0)),
                " ".join(b.edges) if b.edges else "-",
                _("{kind}, stall", kind=KIND_SHORT[b.colour]) if b.stall else KIND_SHORT[b.colour],
            ]
        )
    sections = [
        ReferenceSection(
            key="buildings",
            title=pgettext("reference", "Buildings"),
            # Short headings: the table must fit a plain-text mail's 78 columns with its
            # Kind on the same line; the first note spells each of them out.
            columns=[
                pgettext("reference", "Building"),
                pgettext("reference", "Gld"),
                pgettext("reference", "Wood"),
                pgettext("reference", "Pts"),
                pgettext("reference", "Burgh"),
                pgettext("reference", "Size"),
                pgettext("reference", "Left"),
                pgettext("reference", "Sides"),
                pgettext("reference", "Kind"),
            ],
            rows=rows,
            notes=[
                _(
                    "Gld (guilders) and Wood: the cost. Pts: points. Burgh: Burghers gained or "
                    "lost. Size: spaces covered (two neighbouring spaces are written C2+D2). "
                    "Left: in the supply."
                ),
                _(
                    "Sides: front, right, back, left as the building faces; S stone, z sand, "
                    "G the City Gate's green edge. Each side must match the road it touches; "
                    "fields (-) have no roads. Kind: starting buildings, outer area only, "
                    "community buildings (built together), city; a stall sells goods."
                ),
                _(
                    "The player who chose the Master Builder builds 1 guilder or 1 wood cheaper "
                    "(twice with Knowledge is Power): the menu's 'less 1 wood' endings."
                ),
            ],
            # in every turn email too, as on the page: the email alone must be enough to
            # decide, and these three tables are what a build or a sale is decided on
            brief=True,
        ),
        ReferenceSection(
            key="forest",
            title=pgettext("reference", "Forest tiles (face down; each covers two spaces)"),
            columns=[pgettext("reference", "Tile"), pgettext("reference", "Copies")],
            rows=[[FOREST_NAMES[k], str(n)] for k, n in FOREST_TILES.items()],
            brief=True,
        ),
        ReferenceSection(
            key="sales",
            title=pgettext("reference", "Sales at the stalls"),
            columns=[
                pgettext("reference", "Good"),
                pgettext("reference", "Stall"),
                pgettext("reference", "Each gives"),
            ],
            rows=[
                [T.GOOD_NAMES[good], STALL_WORDS[stall], gives_text(g, p)]
                for good, (stall, g, p) in SALE_PRICES.items()
            ]
            + [
                [PASTY_NAMES[filling], STALL_WORDS["inn"], gives_text(g, p)]
                for filling, (_good, g, p) in PASTIES.items()
            ],
            brief=True,
        ),
    ]
    hand = view.get("hand")
    if hand:
        by_name = {c.name: k for k, c in CARDS.items()}
        sections.insert(
            0,
            ReferenceSection(
                key="hand",
                title=pgettext("reference", "Your cards"),
                columns=[
                    pgettext("reference", "Card"),
                    pgettext("reference", "When"),
                    pgettext("reference", "What it does"),
                ],
                rows=[
                    [
                        name,
                        TIMING_NAMES[CARDS[by_name[name]].timing],
                        CARD_TEXT.get(by_name[name], ""),
                    ]
                    for name in dict.fromkeys(hand)
                    if name in by_name
                ],
                brief=True,
            ),
        )
    return sections


__all__ = ["BUILDINGS", "menu_parts", "reference"]
