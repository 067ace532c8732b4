"""The text protocol: the board as plain text, commands written and read, history lines."""

from __future__ import annotations

import re

from games.engine import ParseError

from . import rules
from .data import (
    CARD_CHOICES,
    CARDS,
    CELL_INDEX,
    CELL_NAMES,
    COLUMNS,
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

HELP = """\
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
  place settlement B2 C2           (placement setup only) lay a starter tile"""


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
        raise ParseError(f"{name} is not a parcel of the board (A1 to K9; K1 is sea).")
    return rules.anchor(state, CELL_INDEX[name])


def _sorted_cells(names: list[str]) -> list[str]:
    for name in names:
        if name not in CELL_INDEX:
            raise ParseError(f"{name} is not a parcel of the board (A1 to K9; K1 is sea).")
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
                f"{label} is {card.name}: say which {card.size} parcels to develop, e.g. "
                f"'{command}, develop "
                f"{' '.join(uses[0]['cells']) if uses else rules.example_cells(card_id)}'"
                f" (or 'store'). Legal placements now: {listed}."
            )
        chosen = _sorted_cells(cells)
        uses = [u["cells"] for u in card_uses(state, seat, card_id)]
        if uses and chosen not in uses:
            listed = "; ".join(" ".join(u) for u in uses[:30])
            raise ParseError(
                f"{' '.join(chosen)} is not a legal place for {card.name}. "
                f"Legal placements now: {listed}."
            )
        return {"cells": chosen}
    if len(cells) != 1:
        spots = ", ".join(u["at"] for u in card_uses(state, seat, card_id)) or "none"
        raise ParseError(
            f"{label} is a {card.kind}: say where it goes, e.g. '{command}, place at E5'"
            f" (or 'store'). Your free tiles for it: {spots}."
        )
    return {"at": _canonical_cell(state, cells[0])}


def parse(text: str, state: dict, seat: int) -> dict:
    line = " ".join(text.lower().replace(",", " ").replace(";", " ").split())
    line = re.sub(r"^(i |we )?(will |'ll )?", "", line).strip(" .!")
    if not line:
        raise ParseError("Empty command. " + _expected(state))
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
            raise ParseError("Choose 3, 4, 5 or 6 development cards, e.g. '4 cards'.")
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
            raise ParseError(f"Say where the tile goes, e.g. 'buy tile {m.group(1)}, place at E5'.")
        return {"type": "buy_tile", "slot": int(m.group(1)), "at": cells[0]}
    m = re.fullmatch(r"(?:buy )?card (\d+)(.*)", line)
    if m:
        slot = int(m.group(1))
        selection = state.get("selection", [])
        if not 1 <= slot <= len(selection) or selection[slot - 1] is None:
            raise ParseError(f"There is no card on space {slot} of the selection.")
        item = selection[slot - 1]
        if "card" not in item:
            raise ParseError(f"Space {slot} holds a land tile: 'buy tile {slot}, place at E5'.")
        use = _card_use(state, seat, item["card"], m.group(2), f"Card {slot}")
        return {"type": "buy_card", "slot": slot, **use}
    m = re.fullmatch(r"(?:play )?(?:stored|barn)(?: card)? ?(\d+)(.*)", line)
    if m:
        index = int(m.group(1))
        stored = state["players"][seat]["stored"]
        if not 1 <= index <= len(stored):
            raise ParseError(
                f"You have {len(stored)} stored card(s); say e.g. 'play stored 1, develop E5 E6'."
            )
        use = _card_use(state, seat, stored[index - 1], m.group(2), f"Stored {index}")
        if use.get("store"):
            raise ParseError("That card is already stored; play it with 'develop' or 'place at'.")
        return {"type": "play_stored", "stored": index, **use}
    m = re.fullmatch(r"move (?:the |my |a )?(pilgrim|ship|barn)s? (?:from )?(.*)", line)
    if m:
        cells = _cells_in(m.group(2))
        if len(cells) != 2:
            raise ParseError(f"Say from where to where, e.g. 'move {m.group(1)} E5 to G2'.")
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
            raise ParseError("A starter tile covers two parcels: e.g. 'place settlement B2 C2'.")
        return {
            "type": "start_tile",
            "land": LAND_WORDS[m.group(1)],
            "cells": _sorted_cells(cells),
        }
    raise ParseError(f"I did not understand {text.strip()!r}. " + _expected(state))


def _expected(state: dict) -> str:
    phase = state.get("phase")
    if phase == "select":
        return "Expected e.g. '4 cards' (3 to 6 development cards in the selection)."
    if phase == "bid":
        return "Expected e.g. 'chip 7' (a free bidding chip from 1 to 10)."
    if phase == "setup":
        return "Expected e.g. 'place settlement B2 C2' (a land and two neighbouring parcels)."
    if phase == "buy":
        return (
            "Expected e.g. 'buy tile 2, place at E5', 'buy card 4, develop E5 E6', "
            "'buy card 4, place at E5', 'buy card 4, store', 'play stored 1, develop E5 E6', "
            "'move pilgrim E5 to G2', 'reveal tile' or 'pass'."
        )
    return "The game is over."


# --- narration ------------------------------------------------------------------------------


def item_name(item: dict) -> str:
    if "tile" in item:
        return f"{LAND_NAMES[item['tile']]} tile"
    return CARDS[item["card"]].name


def _use_narration(move: dict, card_id: int) -> str:
    card = CARDS[card_id]
    if move.get("store"):
        return "stored it in a barn"
    if "cells" in move:
        return "developed " + " ".join(move["cells"])
    return f"put the {card.kind} on {move['at']}"


def describe(before: dict, after: dict, seat: int | None, move: dict) -> str:
    name = before["names"][seat] if seat is not None else "The game"
    kind = move.get("type")
    if kind == "select":
        text = f"{name} chose {move['cards']} development cards for the selection"
        if after["phase"] == "over":
            short = "cards" if after["ended_by"] == "cards" else "land tiles"
            return text + f"; there were not enough {short} left, and the game ended"
        shown = ", ".join(f"{i}. {item_name(it)}" for i, it in enumerate(after["selection"], 1))
        return text + f": {shown}"
    if kind == "chip":
        text = f"{name} took bidding chip {move['chip']}"
        if after["phase"] == "buy" and before["phase"] == "bid":
            text += "; buying begins"
        return text
    if kind == "start_tile":
        return f"{name} laid the starter {LAND_NAMES[move['land']]} on {' '.join(move['cells'])}"
    cost = before["chips"][seat] if seat is not None and before["chips"] else 0
    if kind == "buy_tile":
        item = before["selection"][move["slot"] - 1]
        text = (
            f"{name} bought the {item_name(item)} on space {move['slot']} for {shillings(cost)} "
            f"and laid it on {move['at']}"
        )
    elif kind == "buy_card":
        card_id = before["selection"][move["slot"] - 1]["card"]
        text = (
            f"{name} bought {CARDS[card_id].name} on space {move['slot']} for {shillings(cost)} "
            f"and {_use_narration(move, card_id)}"
        )
    elif kind == "play_stored":
        card_id = before["players"][seat]["stored"][move["stored"] - 1]
        text = (
            f"{name} took {CARDS[card_id].name} out of a barn and {_use_narration(move, card_id)}"
        )
    elif kind == "move":
        text = f"{name} moved a {move['figure']} from {move['from']} to {move['to']}"
    elif kind == "reveal":
        added = after["selection"][-1]
        text = (
            f"{name} used the ships to reveal an extra {move['what']}: "
            f"{item_name(added)} on space {len(after['selection'])}"
        )
    else:
        text = f"{name} ended the buying turn"
    if after["round"] != before["round"] or after["phase"] == "over":
        starter = after["names"][after["start"]]
        text += f"; income was paid and {starter} starts round {after['round']}"
    elif kind != "pass" and after["turn"] != before["turn"]:
        text += "; that ended the turn"
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


def _wrap_list(items: list[str], indent: str, width: int = 76) -> list[str]:
    lines, line = [], indent
    for item in items:
        piece = item if line == indent else "; " + item
        if len(line) + len(piece) > width and line != indent:
            lines.append(line)
            line, piece = indent, item
        line += piece
    if line != indent:
        lines.append(line)
    return lines


def render_text(view: dict) -> str:
    lines = [f"NEW ENGLAND - round {view['round']} - {view['status']}"]
    if view["seat"] is not None:
        me = view["players"][view["seat"]]
        lines.append(f"You are {me['name']}, family {me['family']} ({me['letter']}).")
    lines.append("")
    lines.append("     " + "".join(f"{c:<4}" for c in COLUMNS) + "  (sea north and east)")
    lines.append("    " + "~" * (4 * WIDTH + 1))
    for row in range(HEIGHT):
        cells = view["cells"][row * WIDTH : (row + 1) * WIDTH]
        lines.append(f"{row + 1:>2}  " + "".join(_cell_text(c) for c in cells) + " ~")
    lines.append("Legend: A/H/P/W family; s/f/p settlement/field/pasture, S/F/P developed;")
    lines.append(f"        * pilgrim, # barn, ^ ship; ~ sea ({CELL_NAMES[MISSING[0]]} is sea).")
    if view.get("starters"):
        lines.append("Starter tiles (two parcels, one tile: developed together, one figure):")
        lines.extend(_wrap_list(view["starters"], "  "))
    lines.append("")
    if view["selection"]:
        lines.append("Selection (each purchase costs the buyer the value of his chip):")
        for item in view["selection"]:
            if item["taken"]:
                lines.append(f"  {item['slot']:>2}. (bought)")
            else:
                lines.append(f"  {item['slot']:>2}. {item['text']}")
    chips = []
    for chip in view["chips"]:
        chips.append(f"{chip['value']}" + (f"={chip['letter']}" if chip["letter"] else ""))
    lines.append("Bidding chips: " + "  ".join(chips))
    lines.append("")
    lines.append("Family        Money Points  Pilgrims Barns Ships  Stored cards")
    for p in view["players"]:
        marks = ("> " if p["to_act"] else "  ") + ("S " if p["start"] else "  ")
        stored = ", ".join(p["stored"]) or "-"
        lines.append(
            f"{marks}{p['letter']} {p['name'][:9]:<9} {p['money']:>3} {p['points']:>6}  "
            f"{p['figures']['pilgrim']:>8} {p['figures']['barn']:>5} {p['figures']['ship']:>5}  "
            f"{stored}"
        )
    lines.append("  (> to act, S start player; points from cards in play, before bonuses)")
    if view.get("result"):
        lines.append("")
        lines.append("Final scores:")
        for line in view["result"]:
            lines.append("  " + line)
    return "\n".join(lines)


__all__ = ["HELP", "describe", "format_move", "parse", "render_text", "shape_picture"]
