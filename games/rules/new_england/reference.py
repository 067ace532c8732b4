"""What a player needs to decide, from the component data: for the email's text and the page.

`menu_parts` cuts each command for the compact menu (games.engine.menus): one line per card or
tile bought and per way of using it, with the parcels where it fits as the choices and the
card's land, shape and points as the note. `reference` gives the selection with each card's
shape drawn, every card shape, and the families and marks of the board.
"""

from __future__ import annotations

from games.engine.menus import MenuParts, ReferenceSection
from games.engine.words import Text, _, joined, pgettext

from . import text as T
from .data import (
    CARDS,
    FAMILIES,
    FIGURE_NAMES,
    LAND_NAMES,
    MAJORITY_BONUS,
    SHAPE_NAMES,
    SHAPES,
    Card,
)

CARDS_BY_NAME: dict[str, Card] = {card.name: card for card in CARDS}


def card_note(card: Card) -> Text:
    if card.kind == "land":
        return _(
            "{land} {shape} {picture}, {size} parcels, {points} points",
            land=LAND_NAMES[card.land],
            shape=SHAPE_NAMES[card.shape],
            picture=T.shape_picture(card.shape),
            size=card.size,
            points=card.points,
        )
    if card.points == 1:
        return _("a {figure}, 1 point", figure=FIGURE_NAMES[card.kind])
    return _("a {figure}, {points} points", figure=FIGURE_NAMES[card.kind], points=card.points)


def _use(move: dict) -> tuple[str, str]:
    """(the verb of the use, the parcels) for a card move."""
    if move.get("store"):
        return "store", ""
    if "cells" in move:
        return "develop", " ".join(move["cells"])
    return "place at", move["at"]


def menu_parts(state, seat: int, move: dict) -> MenuParts:
    kind = move["type"]
    if kind == "buy_tile":
        item = state["selection"][move["slot"] - 1]
        return MenuParts(
            f"buy tile {move['slot']}, place at",
            move["at"],
            note=_("a {land} tile, one parcel", land=LAND_NAMES[item["tile"]]),
        )
    if kind == "buy_card":
        card = CARDS[state["selection"][move["slot"] - 1]["card"]]
        verb, cells = _use(move)
        return MenuParts(f"buy card {move['slot']}, {verb}", cells, note=card_note(card))
    if kind == "play_stored":
        card = CARDS[state["players"][seat]["stored"][move["stored"] - 1]]
        verb, cells = _use(move)
        return MenuParts(f"play stored {move['stored']}, {verb}", cells, note=card_note(card))
    if kind == "move":
        return MenuParts(f"move {move['figure']} {move['from']} to", move["to"])
    if kind == "start_tile":
        return MenuParts(f"place {LAND_NAMES[move['land']]}", " ".join(move["cells"]))
    return MenuParts(T.format_move(move))


def _card_row(label, card: Card) -> list:
    if card.kind == "land":
        return [
            label,
            _("{land} development", land=LAND_NAMES[card.land]),
            joined([SHAPE_NAMES[card.shape], T.shape_picture(card.shape)], " "),
            str(card.points),
        ]
    return [label, _("{figure} figure", figure=FIGURE_NAMES[card.kind]), "-", str(card.points)]


def _selection_card(item: dict) -> Card | None:
    """The card a view's selection entry shows (the view gives land, figure, points, text)."""
    for card in CARDS:
        if card.points != item.get("points"):
            continue
        shape = f" {card.shape} "
        if card.kind == "land" and card.land == item.get("land") and shape in item["text"]:
            return card
        if card.kind != "land" and card.kind == item.get("figure"):
            return card
    return None


def reference(view: dict) -> list[ReferenceSection]:
    sections = []
    rows = []
    for item in view.get("selection", []):
        if item["taken"]:
            continue
        label = str(item["slot"])
        if item["kind"] == "tile":
            land_tile = _("{land} land tile", land=LAND_NAMES[item["land"]])
            rows.append([label, land_tile, _("1 parcel"), "-"])
        else:
            card = _selection_card(item)
            rows.append(_card_row(label, card) if card else [label, item["text"], "", ""])
    seat = view.get("seat")
    if seat is not None:
        for index, name in enumerate(view["players"][seat]["stored"], 1):
            card = CARDS_BY_NAME.get(name)
            if card is not None:
                rows.append(_card_row(_("stored {index}", index=index), card))
    if rows:
        sections.append(
            ReferenceSection(
                key="selection",
                title=pgettext("reference", "On offer (and in your barns)"),
                columns=[
                    pgettext("reference", "Space"),
                    pgettext("reference", "What"),
                    pgettext("reference", "Shape"),
                    pgettext("reference", "Points"),
                ],
                rows=rows,
                notes=[
                    _(
                        "Shapes are drawn row by row, '/' between rows: # a parcel, . none. "
                        "A card may be turned, not mirrored; it develops your own undeveloped "
                        "parcels of its land. A purchase costs the value of your bidding chip."
                    )
                ],
                brief=True,
            )
        )
    sections.append(
        ReferenceSection(
            key="shapes",
            title=pgettext("reference", "Card shapes"),
            columns=[
                pgettext("reference", "Shape"),
                pgettext("reference", "Drawn"),
                pgettext("reference", "Parcels"),
            ],
            rows=[
                [SHAPE_NAMES[name], T.shape_picture(name), str(len(cells))]
                for name, cells in SHAPES.items()
            ],
        )
    )
    players = view.get("players", [])
    family_rows = []
    for family in FAMILIES:
        owner = next((p["name"] for p in players if p["family"] == family), _("(not in play)"))
        family_rows.append([family[0], family, owner])
    sections.append(
        ReferenceSection(
            key="families",
            title=pgettext("reference", "Families and marks on the board"),
            columns=[
                pgettext("reference", "Letter"),
                pgettext("reference", "Family"),
                pgettext("reference", "Player"),
            ],
            rows=family_rows,
            notes=[
                _(
                    "Land: s settlement, f field, p pasture (capital S, F, P: developed). "
                    "Figures: * pilgrim, # barn, ^ ship; ~ sea."
                ),
                _(
                    "At the end the most of each figure scores a bonus: pilgrims {pilgrim}, "
                    "barns {barn}, ships {ship} points.",
                    **MAJORITY_BONUS,
                ),
            ],
            brief=True,
        )
    )
    return sections


__all__ = ["menu_parts", "reference"]
