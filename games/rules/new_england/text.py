"""The text protocol: the board as plain text, commands written and read, history lines."""

from __future__ import annotations

import re

from games.engine import ParseError
from games.engine.words import Text, _, joined

from . import rules
from .data import (
    CARD_CHOICES,
    CARDS,
    CELL_INDEX,
    CELL_NAMES,
    COLUMNS,
    FIGURE_NAMES,
    HEIGHT,
    LAND_NAMES,
    LAND_WORDS,
    MISSING,
    ROTATIONS,
    WIDTH,
    shillings,
)
from .moves import card_uses

FIGURE_MARKS = {"pilgrim": "*", "barn": "#", "ship": "^"}

# One message for the catalogue: a translation lines up its own columns.
HELP = _("""\
Commands (one per line; case and commas do not matter):
  3 cards                          start player: put 3 (4, 5, 6) cards in the selection
  chip 7                           take bidding chip 7
  buy tile 2, place at E5          buy the land tile on space 2 and lay it on E5
  buy card 4, develop E5 E6 F6     buy a land development and develop those parcels
  buy card 4, place at E5          buy a pilgrim, barn or ship card and put the figure on E5
  buy card 4, store                buy a card and keep it in an empty barn
  play stored 1, develop E5 E6     play the first card stored in your barns
  move pilgrim E5 to G2            move a pilgrim (or ship) to another of your tiles
  reveal tile / reveal card        most ships: add one item to the selection first
  pass                             end your buying turn
  place settlement B2 C2           (placement setup only) lay a starter tile""")


# --- commands written --------------------------------------------------------------------


def _use_text(move: dict) -> str:
    if move.get("store"):
        return "store"
    if "cells" in move:
        return "develop " + " ".join(move["cells"])
    return f"place at {move['at']}"


def format_move(move: dict) -> str:
    kind = move["type"]
    if kind == "select":
        return f"{move['cards']} cards"
    if kind == "chip":
        return f"chip {move['chip']}"
    if kind == "start_tile":
        return f"place {LAND_NAMES[move['land']]} {' '.join(move['cells'])}"
    if kind == "buy_tile":
        return f"buy tile {move['slot']}, place at {move['at']}"
    if kind == "buy_card":
        return f"buy card {move['slot']}, {_use_text(move)}"
    if kind == "play_stored":
        return f"play stored {move['stored']}, {_use_text(move)}"
    if kind == "move":
        return f"move {move['figure']} {move['from']} to {move['to']}"
    if kind == "reveal":
        return f"reveal {move['what']}"
    return "pass"


# --- commands read ---------------------------------------------------------------------------

_CELL = r"[a-k]\s?\d{1,2}"


def _cells_in(text: str) -> list[str]:
    return [c.replace(" ", "").upper() for c in re.findall(rf"\b({_CELL})\b", text)]


def _canonical_cell(state: dict, name: str) -> str:
    if name not in CELL_INDEX:
        raise ParseError(_("{name} is not a parcel of the board (A1 to K9; K1 is sea).", name=name))
    return rules.anchor(state, CELL_INDEX[name])


def _sorted_cells(names: list[str]) -> list[str]:
    for name in names:
        if name not in CELL_INDEX:
            raise ParseError(
                _("{name} is not a parcel of the board (A1 to K9; K1 is sea).", name=name)
            )
    return [CELL_NAMES[i] for i in sorted({CELL_INDEX[n] for n in names})]


def _card_use(state: dict, seat: int, card_id: int, rest: str, label: str) -> dict:
    """Read what to do with a card: develop parcels, place a figure, or store it."""
    card = CARDS[card_id]
    command = ("buy " if label.startswith("Card") else "play ") + label.lower()
    if re.search(r"\b(store|barn|keep)\b", rest):
        return {"store": True}
    cells = _cells_in(rest)
    if card.kind == "land":
        if not cells:
            uses = card_uses(state, seat, card_id)
            listed = "; ".join(" ".join(u["cells"]) for u in uses[:30]) or "none"
            raise ParseError(
                _(
                    "{label} is {name}: say which {size} parcels to develop, e.g. "
                    "'{command}, develop {cells}' (or 'store'). Legal placements now: "
                    "{listed}.",
                    label=label,
                    name=card.name,
                    size=card.size,
                    command=command,
                    cells=" ".join(uses[0]["cells"]) if uses else rules.example_cells(card_id),
                    listed=listed,
                )
            )
        chosen = _sorted_cells(cells)
        uses = [u["cells"] for u in card_uses(state, seat, card_id)]
        if uses and chosen not in uses:
            listed = "; ".join(" ".join(u) for u in uses[:30])
            raise ParseError(
                _(
                    "{cells} is not a legal place for {name}. Legal placements now: {listed}.",
                    cells=" ".join(chosen),
                    name=card.name,
                    listed=listed,
                )
            )
        return {"cells": chosen}
    if len(cells) != 1:
        spots = ", ".join(u["at"] for u in card_uses(state, seat, card_id)) or "none"
        raise ParseError(
            _(
                "{label} is a {kind}: say where it goes, e.g. '{command}, place at E5' "
                "(or 'store'). Your free tiles for it: {spots}.",
                label=label,
                kind=FIGURE_NAMES[card.kind],
                command=command,
                spots=spots,
            )
        )
    return {"at": _canonical_cell(state, cells[0])}


def parse(text: str, state: dict, seat: int) -> dict:
    line = " ".join(text.lower().replace(",", " ").replace(";", " ").split())
    line = re.sub(r"^(i |we )?(will |'ll )?", "", line).strip(" .!")
    if not line:
        raise ParseError(joined([_("Empty command."), _expected(state)], " "))
    if re.fullmatch(
        r"(pass|done|end|end turn|finish|stop|no more|nothing)( please| thanks)?", line
    ):
        return {"type": "pass"}
    bare = re.fullmatch(r"#?(\d+)\.?", line)
    if bare and state.get("phase") == "bid":  # a bare number is a chip (no menu numbers)
        return {"type": "chip", "chip": int(bare.group(1))}
    if bare and state.get("phase") == "select":
        line = f"{bare.group(1)} cards"
    m = re.fullmatch(r"(?:choose |select |take |put |deal )?(\d+)(?: development)? cards?", line)
    m = m or re.fullmatch(r"(?:choose|select|cards) (\d+)(?: cards?)?", line)
    if m:
        count = int(m.group(1))
        if count not in CARD_CHOICES:
            raise ParseError(_("Choose 3, 4, 5 or 6 development cards, e.g. '4 cards'."))
        return {"type": "select", "cards": count}
    m = re.fullmatch(r"(?:take |bid )?(?:bidding )?(?:chip|bid) ?#?(\d+)", line)
    if m:
        return {"type": "chip", "chip": int(m.group(1))}
    m = re.fullmatch(r"(?:use )?(?:ships? )?reveal (?:a |an |extra |one )*(tile|card)", line)
    m = m or re.fullmatch(r"use ships? (?:to reveal )?(?:a )?(tile|card)", line)
    if m:
        return {"type": "reveal", "what": m.group(1)}
    m = re.fullmatch(r"(?:buy )?tile (\d+)(.*)", line)
    if m:
        cells = _cells_in(m.group(2))
        if len(cells) != 1:
            raise ParseError(
                _(
                    "Say where the tile goes, e.g. 'buy tile {slot}, place at E5'.",
                    slot=m.group(1),
                )
            )
        return {"type": "buy_tile", "slot": int(m.group(1)), "at": cells[0]}
    m = re.fullmatch(r"(?:buy )?card (\d+)(.*)", line)
    if m:
        slot = int(m.group(1))
        selection = state.get("selection", [])
        if not 1 <= slot <= len(selection) or selection[slot - 1] is None:
            raise ParseError(_("There is no card on space {slot} of the selection.", slot=slot))
        item = selection[slot - 1]
        if "card" not in item:
            raise ParseError(
                _("Space {slot} holds a land tile: 'buy tile {slot}, place at E5'.", slot=slot)
            )
        use = _card_use(state, seat, item["card"], m.group(2), f"Card {slot}")
        return {"type": "buy_card", "slot": slot, **use}
    m = re.fullmatch(r"(?:play )?(?:stored|barn)(?: card)? ?(\d+)(.*)", line)
    if m:
        index = int(m.group(1))
        stored = state["players"][seat]["stored"]
        if not 1 <= index <= len(stored):
            raise ParseError(
                _(
                    "You have {count} stored card(s); say e.g. 'play stored 1, develop E5 E6'.",
                    count=len(stored),
                )
            )
        use = _card_use(state, seat, stored[index - 1], m.group(2), f"Stored {index}")
        if use.get("store"):
            raise ParseError(
                _("That card is already stored; play it with 'develop' or 'place at'.")
            )
        return {"type": "play_stored", "stored": index, **use}
    m = re.fullmatch(r"move (?:the |my |a )?(pilgrim|ship|barn)s? (?:from )?(.*)", line)
    if m:
        cells = _cells_in(m.group(2))
        if len(cells) != 2:
            raise ParseError(
                _("Say from where to where, e.g. 'move {figure} E5 to G2'.", figure=m.group(1))
            )
        return {
            "type": "move",
            "figure": m.group(1),
            "from": _canonical_cell(state, cells[0]),
            "to": _canonical_cell(state, cells[1]),
        }
    m = re.fullmatch(r"(?:place |lay |put )?(?:starter )?(\w+)(?: tile)?(?: at| on)? (.*)", line)
    if m and m.group(1) in LAND_WORDS and state.get("phase") == "setup":
        cells = _cells_in(m.group(2))
        if len(cells) != 2:
            raise ParseError(_("A starter tile covers two parcels: e.g. 'place settlement B2 C2'."))
        return {
            "type": "start_tile",
            "land": LAND_WORDS[m.group(1)],
            "cells": _sorted_cells(cells),
        }
    unclear = _("I did not understand {text}.", text=repr(text.strip()))
    raise ParseError(joined([unclear, _expected(state)], " "))


def _expected(state: dict) -> Text:
    phase = state.get("phase")
    if phase == "select":
        return _("Expected e.g. '4 cards' (3 to 6 development cards in the selection).")
    if phase == "bid":
        return _("Expected e.g. 'chip 7' (a free bidding chip from 1 to 10).")
    if phase == "setup":
        return _("Expected e.g. 'place settlement B2 C2' (a land and two neighbouring parcels).")
    if phase == "buy":
        return _(
            "Expected e.g. 'buy tile 2, place at E5', 'buy card 4, develop E5 E6', "
            "'buy card 4, place at E5', 'buy card 4, store', 'play stored 1, develop E5 E6', "
            "'move pilgrim E5 to G2', 'reveal tile' or 'pass'."
        )
    return _("The game is over.")


# --- narration ------------------------------------------------------------------------------


def item_name(item: dict) -> Text:
    if "tile" in item:
        return _("{land} tile", land=LAND_NAMES[item["tile"]])
    return CARDS[item["card"]].name


def _use_narration(move: dict, card_id: int) -> Text:
    card = CARDS[card_id]
    if move.get("store"):
        return _("stored it in a barn")
    if "cells" in move:
        return _("developed {cells}", cells=" ".join(move["cells"]))
    return _("put the {figure} on {cell}", figure=FIGURE_NAMES[card.kind], cell=move["at"])


def describe(before: dict, after: dict, seat: int | None, move: dict) -> Text:
    """One history line: its clauses, each a sentence of the catalogue, joined by "; "."""
    name = before["names"][seat] if seat is not None else _("The game")
    kind = move.get("type")
    if kind == "select":
        chose = _(
            "{name} chose {count} development cards for the selection",
            name=name,
            count=move["cards"],
        )
        if after["phase"] == "over":
            if after["ended_by"] == "cards":
                end = _("there were not enough cards left, and the game ended")
            else:
                end = _("there were not enough land tiles left, and the game ended")
            return joined([chose, end], "; ")
        shown = joined(
            [
                _("{number}. {item}", number=i, item=item_name(it))
                for i, it in enumerate(after["selection"], 1)
            ],
            ", ",
        )
        return joined([chose, shown], ": ")
    if kind == "chip":
        took = _("{name} took bidding chip {chip}", name=name, chip=move["chip"])
        if after["phase"] == "buy" and before["phase"] == "bid":
            return joined([took, _("buying begins")], "; ")
        return took
    if kind == "start_tile":
        return _(
            "{name} laid the starter {land} on {cells}",
            name=name,
            land=LAND_NAMES[move["land"]],
            cells=" ".join(move["cells"]),
        )
    cost = before["chips"][seat] if seat is not None and before["chips"] else 0
    if kind == "buy_tile":
        item = before["selection"][move["slot"] - 1]
        text = _(
            "{name} bought the {item} on space {slot} for {price} and laid it on {cell}",
            name=name,
            item=item_name(item),
            slot=move["slot"],
            price=shillings(cost),
            cell=move["at"],
        )
    elif kind == "buy_card":
        card_id = before["selection"][move["slot"] - 1]["card"]
        text = _(
            "{name} bought {card} on space {slot} for {price} and {use}",
            name=name,
            card=CARDS[card_id].name,
            slot=move["slot"],
            price=shillings(cost),
            use=_use_narration(move, card_id),
        )
    elif kind == "play_stored":
        card_id = before["players"][seat]["stored"][move["stored"] - 1]
        text = _(
            "{name} took {card} out of a barn and {use}",
            name=name,
            card=CARDS[card_id].name,
            use=_use_narration(move, card_id),
        )
    elif kind == "move":
        text = _(
            "{name} moved a {figure} from {start} to {end}",
            name=name,
            figure=FIGURE_NAMES[move["figure"]],
            start=move["from"],
            end=move["to"],
        )
    elif kind == "reveal":
        added = after["selection"][-1]
        item, slot = item_name(added), len(after["selection"])
        if move["what"] == "tile":
            text = _(
                "{name} used the ships to reveal an extra tile: {item} on space {slot}",
                name=name,
                item=item,
                slot=slot,
            )
        else:
            text = _(
                "{name} used the ships to reveal an extra card: {item} on space {slot}",
                name=name,
                item=item,
                slot=slot,
            )
    else:
        text = _("{name} ended the buying turn", name=name)
    if after["round"] != before["round"] or after["phase"] == "over":
        starter = after["names"][after["start"]]
        income = _(
            "income was paid and {starter} starts round {round}",
            starter=starter,
            round=after["round"],
        )
        return joined([text, income], "; ")
    if kind != "pass" and after["turn"] != before["turn"]:
        return joined([text, _("that ended the turn")], "; ")
    return text


# --- the board as text ---------------------------------------------------------------------


def shape_picture(shape: str) -> str:
    rotation = ROTATIONS[shape][0]
    width = max(c for c, _ in rotation) + 1
    height = max(r for _, r in rotation) + 1
    cells = set(rotation)
    return "/".join(
        "".join("#" if (c, r) in cells else "." for c in range(width)) for r in range(height)
    )


def _cell_text(cell: dict) -> str:
    if cell.get("sea"):
        return "~~~ "
    if not cell["land"]:
        return ".   "
    land = cell["land"].upper() if cell["developed"] else cell["land"].lower()
    return f"{cell['letter']}{land}{FIGURE_MARKS.get(cell['figure'], ' ')} "


def _indented(text, indent: str) -> Text:
    """`text` (a Text) after `indent`, still a Text."""
    return joined([indent, text], "")


def _wrap_list(items: list, indent: str, width: int = 76) -> list[Text]:
    """Items on lines of at most `width` characters (counted in English), "; " between."""
    lines: list[Text] = []
    line: list = []
    length = len(indent)
    for item in items:
        piece = len(item) + (2 if line else 0)
        if line and length + piece > width:
            lines.append(_indented(joined(line, "; "), indent))
            line, length, piece = [], len(indent), len(item)
        line.append(item)
        length += piece
    if line:
        lines.append(_indented(joined(line, "; "), indent))
    return lines


def render_text(view: dict) -> Text:
    lines: list = [
        _("NEW ENGLAND - round {round} - {status}", round=view["round"], status=view["status"])
    ]
    if view["seat"] is not None:
        me = view["players"][view["seat"]]
        lines.append(
            _(
                "You are {name}, family {family} ({letter}).",
                name=me["name"],
                family=me["family"],
                letter=me["letter"],
            )
        )
    lines.append("")
    columns = "     " + "".join(f"{c:<4}" for c in COLUMNS)
    lines.append(joined([columns, _("(sea north and east)")], "  "))
    lines.append("    " + "~" * (4 * WIDTH + 1))
    for row in range(HEIGHT):
        cells = view["cells"][row * WIDTH : (row + 1) * WIDTH]
        lines.append(f"{row + 1:>2}  " + "".join(_cell_text(c) for c in cells) + " ~")
    lines.append(_("Legend: A/H/P/W family; s/f/p settlement/field/pasture, S/F/P developed;"))
    sea = _("* pilgrim, # barn, ^ ship; ~ sea ({cell} is sea).", cell=CELL_NAMES[MISSING[0]])
    lines.append(_indented(sea, "        "))
    if view.get("starters"):
        lines.append(_("Starter tiles (two parcels, one tile: developed together, one figure):"))
        lines.extend(_wrap_list(view["starters"], "  "))
    lines.append("")
    if view["selection"]:
        lines.append(_("Selection (each purchase costs the buyer the value of his chip):"))
        for item in view["selection"]:
            slot = f"  {item['slot']:>2}."
            lines.append(joined([slot, _("(bought)") if item["taken"] else item["text"]], " "))
    chips = []
    for chip in view["chips"]:
        chips.append(f"{chip['value']}" + (f"={chip['letter']}" if chip["letter"] else ""))
    lines.append(joined([_("Bidding chips:"), "  ".join(chips)], " "))
    lines.append("")
    # The columns line up in English; a translation keeps its words in the same columns.
    lines.append(_("Family        Money Points  Pilgrims Barns Ships  Stored cards"))
    for p in view["players"]:
        marks = ("> " if p["to_act"] else "  ") + ("S " if p["start"] else "  ")
        stored = joined(p["stored"], ", ") if p["stored"] else "-"
        columns = (
            f"{marks}{p['letter']} {p['name'][:9]:<9} {p['money']:>3} {p['points']:>6}  "
            f"{p['figures']['pilgrim']:>8} {p['figures']['barn']:>5} {p['figures']['ship']:>5}"
        )
        lines.append(joined([columns, stored], "  "))
    legend = _("(> to act, S start player; points from cards in play, before bonuses)")
    lines.append(_indented(legend, "  "))
    if view.get("result"):
        lines.append("")
        lines.append(_("Final scores:"))
        for line in view["result"]:
            lines.append(_indented(line, "  "))
    return joined(lines, "\n")


__all__ = ["HELP", "describe", "format_move", "parse", "render_text", "shape_picture"]
