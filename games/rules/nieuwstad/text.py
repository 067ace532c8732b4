"""The text protocol: the board as plain text, commands written and read back."""

from __future__ import annotations

import re
import textwrap

from games.engine import ParseError
from games.engine.names import find_player, find_players, letters
from games.engine.words import JOINED, Listed, Text, Wrapped, _, joined, pgettext

from . import moves as M
from . import rules as R
from .data import (
    BOAT,
    BUILDINGS,
    CARDS,
    CHARACTER_NAMES,
    CHARACTERS,
    COLOURS,
    DIR_NAMES,
    GOOD_NAMES,
    PRODUCTS,
)
from .geometry import canonical_facing, geometry, sort_cells
from .view import ARROWS, CODES

WIDTH = 78
# The players table's columns: a short code each, said in the reader's language (a
# translation keeps to the column's width), and the legend below the table names them.
GUILDERS, POINTS = pgettext("nieuwstad column", "Gld"), pgettext("nieuwstad column", "Pts")
GOOD_COLUMNS = (
    ("wood", pgettext("nieuwstad column", "Wd")),
    ("plank", pgettext("nieuwstad column", "Pl")),
    ("fish", pgettext("nieuwstad column", "Fi")),
    ("grain", pgettext("nieuwstad column", "Gr")),
    ("livestock", pgettext("nieuwstad column", "Lv")),
    ("game", pgettext("nieuwstad column", "Ga")),
    ("smoked", pgettext("nieuwstad column", "SF")),
    ("bread", pgettext("nieuwstad column", "Br")),
    ("meat", pgettext("nieuwstad column", "Mt")),
    ("gamemeat", pgettext("nieuwstad column", "GM")),
)
LIGHT, DARK, CARDS_HELD = (
    pgettext("nieuwstad column", "Seal"),
    pgettext("nieuwstad column", "Dk"),
    pgettext("nieuwstad column", "Cd"),
)


def render_text(view: dict) -> Text:
    lines: list = [
        _(
            "De Poorters van Nieuwstad - round {round} - Burghers {burghers}",
            round=view["round"],
            burghers=view["burghers"],
        ),
        joined([view["phase_text"], "."], ""),
    ]
    if view["to_act"]:
        lines.append(_("Waiting for: {names}", names=", ".join(view["to_act"])))
    cols = view["columns"]
    lines.append("")
    lines.append("    " + "".join(f"   {chr(65 + c)}    " for c in range(cols)))
    border = "   +" + "-------+" * cols
    grid = {(c["col"], c["row"]): c for c in view["cells"]}
    lines.append(border)
    for r in range(view["rows"]):
        top, bottom = [], []
        for c in range(cols):
            cell = grid.get((c, r))
            a, b = cell_text(cell)
            top.append(a)
            bottom.append(b)
        lines.append(joined([f"{r + 1:>2} |", joined(top, "|"), "|"], ""))
        lines.append(joined(["   |", joined(bottom, "|"), "|"], ""))
        lines.append(border)
    lines.append(_("Legend: ##### forest (face down)  ... cleared  ~~~~~ lake  out = outer area"))
    lines.append(_("  NW/NE/SE/SW = city districts. A forest tile covers two spaces."))
    lines.append(_("  Building: code, facing arrow, owner (* = the city); below: roads N,E,S,W"))
    lines.append(_("  (S stone, z sand, G the gate's green edge); crop = tokens on a field."))
    lines.append(
        _listed(_("  Codes: "), [joined([c, BUILDINGS[k].name], "=") for k, c in CODES.items()])
    )
    boats = joined(
        [joined([str(i + 1), o or _("free")], ": ") for i, o in enumerate(view["boats"])], ", "
    )
    if view["loose_boats"]:
        lines.append(
            _(
                "Boats on the lake: {boats}; by card: {loose}",
                boats=boats,
                loose=", ".join(view["loose_boats"]),
            )
        )
    else:
        lines.append(_("Boats on the lake: {boats}", boats=boats))
    lines.append("")
    # The heading: "Player" and the codes in their columns, in the reader's language.
    codes = [GUILDERS, POINTS, *(h for _g, h in GOOD_COLUMNS), LIGHT, DARK, CARDS_HELD]
    widths = [3, 3] + [2] * len(GOOD_COLUMNS) + [4, 2, 2]
    heading = "  # {p0:<12.12} " + " ".join(f"{{p{i + 1}:>{w}.{w}}}" for i, w in enumerate(widths))
    lines.append(Text(heading, {f"p{i}": t for i, t in enumerate([_("Player"), *codes])}, JOINED))
    for p in view["players"]:
        flags = ("*" if p["start"] else " ") + ("K" if p["knowledge"] else " ")
        lines.append(
            f"{flags}{p['number']} {p['name'][:12]:<12} {p['guilders']:>3} {p['points']:>3} "
            + " ".join(f"{p[g]:>2}" for g, _h in GOOD_COLUMNS)
            + f" {p['light']:>4} {p['dark']:>2} {p['cards']:>2}"
        )
    goods = dict(GOOD_COLUMNS)
    lines.append(
        _(
            "  * starting player, K Knowledge is Power. {gld} guilders, {pts} points.",
            gld=GUILDERS,
            pts=POINTS,
        )
    )
    lines.append(
        _(
            "  {wd} wood {pl} planks {fi} fish {gr} grain {lv} livestock {ga} game"
            " {sf} smoked fish",
            wd=goods["wood"],
            pl=goods["plank"],
            fi=goods["fish"],
            gr=goods["grain"],
            lv=goods["livestock"],
            ga=goods["game"],
            sf=goods["smoked"],
        )
    )
    lines.append(
        _(
            "  {br} bread {mt} meat {gm} game meat, {seal} light seals left, {dk} dark seals left,",
            br=goods["bread"],
            mt=goods["meat"],
            gm=goods["gamemeat"],
            seal=LIGHT,
            dk=DARK,
        )
    )
    lines.append(_("  {cd} cards in hand.", cd=CARDS_HELD))
    if view["stalls"]:
        parts = []
        for s in view["stalls"]:
            if "demand" in s:
                parts.append(
                    _(
                        "{stall} ({owner}) {free}/{demand} free",
                        stall=s["name"],
                        owner=s["owner"],
                        free=s["free"],
                        demand=s["demand"],
                    )
                )
            else:
                parts.append(_("{stall} ({owner})", stall=s["name"], owner=s["owner"]))
        lines.append(_listed(_("Market stalls: "), parts))
    if view["phase"] == "choose":
        lines.append(_listed(_("Characters left: "), view["available"]))
    if view["chosen"]:
        lines.append(_listed(_("Chosen this round: "), view["chosen"]))
    lines.append(
        _listed(_("Buildings left: "), [joined([s["name"], s["count"]]) for s in view["supply"]])
    )
    lines.append(_("Action cards in the deck: {count}", count=view["deck"]))
    if view["pending"]:
        lines.append("")
        lines.append(view["pending"]["text"])
        for who, answer in view["pending"].get("answers", {}).items():
            lines.append(joined(["  ", who, ": ", answer], ""))
        if view["pending"].get("my_answer"):
            lines.append(_("  Your answer: {answer}", answer=view["pending"]["my_answer"]))
    if view["hand"] is not None:
        lines.append("")
        if view["hand"]:
            lines.append(_("Your hand: {cards}", cards=joined(view["hand"], ", ")))
        else:
            lines.append(_("Your hand: (empty)"))
        extra = view.get("my_card_points") or {}
        if extra:
            lines.append(
                _(
                    "End-of-game points in hand/buildings now: {points}",
                    points=joined(
                        [
                            joined([CARDS[k].name if k in CARDS else BUILDINGS[k].name, v], " ")
                            for k, v in extra.items()
                        ],
                        ", ",
                    ),
                )
            )
    if view.get("final"):
        final = view["final"]
        lines.append("")
        lines.append(
            _(
                "Final scores: {scores}",
                scores=", ".join(
                    f"{view['names'][s]} {final['scores'][s]}" for s in final["ranking"]
                ),
            )
        )
    return joined([_fitted(line) for line in lines], "\n")


def _listed(lead: Text, entries: list) -> Listed:
    """Entries after a lead, broken into lines only between entries ("TIM=Timber trade" and
    "Timber trade 1" are never split), in the reader's language too."""
    return Listed(lead, entries, WIDTH)


def _fitted(line: str) -> str:
    """A line of the board, its English wrapped at WIDTH as it always was. A Text stays what
    it was made from too, so another language wraps its own words (its lines break
    elsewhere): games.engine.words.Wrapped."""
    if isinstance(line, Listed):
        return line
    english = line
    if len(line) > WIDTH:
        english = "\n".join(textwrap.wrap(line, WIDTH, subsequent_indent="    "))
    return Wrapped(english, line, WIDTH, "    ") if isinstance(line, Text) else english


# The grid's words, said in the reader's language in their fixed columns (the legend names
# them): the lake, the market, the land outside the town, a field's crop.
GRID_WORDS = {
    "lake": pgettext("nieuwstad-grid", "lake"),
    "market": pgettext("nieuwstad-grid", "MARKET"),
    "out": pgettext("nieuwstad-grid", "out"),
    "crop": pgettext("nieuwstad-grid", "crop"),
}


def _fixed(template: str, **params) -> Text:
    """A cell's line: `template`'s format specs keep it 7 columns wide in any language."""
    return Text(template, params, JOINED)


def cell_text(cell: dict | None) -> tuple:
    if cell is None:
        return "       ", "       "
    area = cell["area"]
    if area == "lake":
        return " ~~~~~ ", _fixed("{word:>6.6} ", word=GRID_WORDS["lake"])
    if area == "market":
        return _fixed("{word:<6.6} ", word=GRID_WORDS["market"]), "       "
    place = cell["district"] or GRID_WORDS["out"]
    if cell["forest"]:
        return " ##### ", _fixed(" {place:<6.6}", place=place)
    if not cell["code"]:
        return "  ...  ", _fixed(" {place:<6.6}", place=place)
    owner = "*" if cell["owner"] is None else str(cell["owner"] + 1)
    arrow = ARROWS[cell["facing"]]  # the code, its facing and its owner: 7 columns
    top = _fixed(" {code:<3.3}{arrow:1.1}{owner:1.1} ", code=cell["code"], arrow=arrow, owner=owner)
    if cell["edges"]:
        roads = _fixed("{place:<2} {edges}", place=place, edges=cell["edges"])
        bottom = _fixed("{roads:<7.7}", roads=roads)
    elif cell["crop"]:
        return top, _fixed(" {word:<4.4}{crop:>2}", word=GRID_WORDS["crop"], crop=cell["crop"])
    else:
        return top, _fixed(" {place:<6.6}", place=place)
    return top, bottom


# --- writing commands ------------------------------------------------------------------------


def building_name(key: str) -> str:
    return "boat" if key == "boat" else BUILDINGS[key].name.lower()


def discount_text(discount: str) -> str:
    g, w = discount.count("g"), discount.count("w")
    parts = []
    if g:
        parts.append(f"{g} guilder" + ("s" if g > 1 else ""))
    if w:
        parts.append(f"{w} wood")
    return " less " + " and ".join(parts) if parts else ""


def place_text(cells: list[str], facing) -> str:
    if not cells:
        return ""
    text = " at " + "+".join(cells)
    if facing:
        text += f" facing {DIR_NAMES[facing]}"
    return text


def format_move(state, seat: int, move: dict) -> str:
    kind = move["type"]
    if kind in ("pass", "done", "accept", "decline", "watch", "tax", "skip", "sawmill"):
        return {"sawmill": "use sawmill"}.get(kind, kind)
    if kind == "nowatch":
        return "no watch"
    if kind == "notax":
        return "no tax"
    if kind == "forest":
        return f"take forest {move['cell']}"
    if kind == "choose":
        text = CHARACTER_NAMES[move["character"]].lower()
        if move["character"] == "count":
            text += " repeating " + CHARACTER_NAMES[move["repeat"]].lower()
        return text
    if kind == "build":
        text = (
            "build " + building_name(move["building"]) + place_text(move["cells"], move["facing"])
        )
        return text + discount_text(move.get("discount", ""))
    if kind == "propose" and "seats" in move:
        text = (
            "propose " + building_name(move["building"]) + place_text(move["cells"], move["facing"])
        )
        partners = move["seats"][1:]
        offered = R.menu_split(state, seat, BUILDINGS[move["building"]], partners)
        if move["seats"][:1] == [seat] and offered == R.move_terms(state, seat, move):
            return text + " with " + ", ".join(R.name(state, s) for s in partners)
        return text + ": " + shares_text(state, move)
    if kind == "propose":
        return (
            "propose "
            + building_name(move["building"])
            + place_text(move["cells"], move["facing"])
            + " with "
            + ", ".join(R.name(state, s) for s in move["partners"])
        )
    if kind == "counter":
        if R.counter_moves(state, seat) == [move]:
            return "counter with " + menu_terms_name(state)
        return (
            "counter" + place_text(move["cells"], move["facing"]) + ": " + shares_text(state, move)
        )
    if kind == "farm":
        return "farm" + (" extra " + " and ".join(move["extra"]) if move["extra"] else "")
    if kind == "buy" and "good" not in move:
        return f"buy {move['count']} card" + ("" if move["count"] == 1 else "s")
    if kind == "buy":
        return f"buy {move['count']} wood at timber trade"
    if kind == "play":
        text = "play " + CARDS[move["card"]].name.lower()
        if "target" in move:
            text += f" on {move['target']}"
        if "district" in move:
            text += f" in {move['district']}"
        if "take" in move:
            text += f" taking {move['take']}"
        return text
    if kind == "sell":
        at = {"market": "market", "timbertrade": "timber trade"}.get(move["at"], move["at"])
        return f"sell {move['count']} {GOOD_NAMES[move['good']]} at {at}"
    if kind == "convert":
        return f"convert {move['count']} {GOOD_NAMES[move['good']]}"
    if kind == "pasty":
        return f"sell {move['filling']} pasty at inn"
    if kind == "join":
        return f"join with {move['food']}"
    if kind == "pledge":
        text = f"pledge {move['guilders']}"
        if move["food"]:
            text += " with " + ", ".join(move["food"])
        return text
    raise ValueError(f"unknown move {move}")


def shares_text(state, move: dict) -> str:
    """'Cor pays 2 g and 1 wood for 2 points, Emily pays ...': a proposal's terms."""
    return ", ".join(
        f"{R.name(state, s)} pays {g} g and {w} wood for {p} point" + ("" if p == 1 else "s")
        for s, g, w, p in zip(move["seats"], move["guilders"], move["wood"], move["points"])
    )


# --- reading commands ------------------------------------------------------------------------

ALIASES = {
    "master builder": "builder",
    "builder": "builder",
    "masterbuilder": "builder",
    "woodcutter": "woodcutter",
    "farmer": "farmer",
    "bailiff": "bailiff",
    "merchant": "merchant",
    "rent master": "rentmaster",
    "rentmaster": "rentmaster",
    "count": "count",
}
BUILDING_ALIASES = {b.name.lower(): k for k, b in BUILDINGS.items()}
BUILDING_ALIASES.update(
    {
        "boat": "boat",
        "fishing boat": "boat",
        "manor": "manor",
        "grain field": "grainfield",
        "grainfield": "grainfield",
        "field": "grainfield",
        "timber": "timbertrade",
        "timbertrade": "timbertrade",
        "gate": "citygate",
        "city gate": "citygate",
        "citygate": "citygate",
        "town hall": "townhall",
        "townhall": "townhall",
        "tower": "watchtower",
        "guild hall": "guildhall",
        "fish monger": "fishmonger",
    }
)
CARD_ALIASES = {c.name.lower().replace("'", ""): k for k, c in CARDS.items() if c.kind == "wish"}
CARD_ALIASES.update(
    {
        "midsummer": "midsummer",
        "knowledge": "knowledge",
        "house building": "housebuilding",
        "district party": "districtparty",
        "citizens watch": "watch",
        "locusts": "locusts",
        "wolves": "wolves",
        "tax": "incometax",
    }
)
GOOD_ALIASES = {
    "wood": "wood",
    "grain": "grain",
    "livestock": "livestock",
    "cattle": "livestock",
    "game": "game",
    "fish": "fish",
    "bread": "bread",
    "breads": "bread",
    "loaves": "bread",
    "loaf": "bread",
    "meat": "meat",
    "game meat": "gamemeat",
    "gamemeat": "gamemeat",
    "smoked fish": "smoked",
    "smoked": "smoked",
}
FACING = {
    "north": "N",
    "n": "N",
    "east": "E",
    "e": "E",
    "south": "S",
    "s": "S",
    "west": "W",
    "w": "W",
}
STALLS = {
    "market": "market",
    "timber trade": "timbertrade",
    "timbertrade": "timbertrade",
    "timber": "timbertrade",
    "baker": "baker",
    "bakery": "baker",
    "butcher": "butcher",
    "fishmonger": "fishmonger",
    "fish monger": "fishmonger",
    "inn": "inn",
}
CELL_RE = re.compile(r"\b([a-h])\s?([1-9])\b")


def normalise(text: str) -> str:
    """Casefolded words in any script (a name may be Оксана or 王芳), the separators kept."""
    return letters(text, keep="+,;&-")


def lookup(text: str, table: dict[str, str]) -> str | None:
    """The longest alias the text starts with (or equals)."""
    best = None
    for alias, key in table.items():
        if text == alias or text.startswith(alias + " "):
            if best is None or len(alias) > len(best[0]):
                best = (alias, key)
    return best[1] if best else None


def with_menu(refusal: Text, state, seat: int, kinds: tuple[str, ...], limit: int = 8) -> Text:
    """The refusal, and the seat's legal moves of these kinds as examples, if it has any."""
    moves = [m for m in M.legal_moves(state, seat) if m["type"] in kinds]
    if not moves:
        return refusal
    shown = "; ".join(format_move(state, seat, m) for m in moves[:limit])
    if len(moves) > limit:
        example = _("For example: {moves} (and {more} more).", moves=shown, more=len(moves) - limit)
    else:
        example = _("For example: {moves}.", moves=shown)
    return joined([refusal, example])


def parse(text: str, state, seat: int) -> dict:
    raw = text
    text = normalise(text)
    if not text:
        raise ParseError(_("Empty command. Send 'help' for the list of commands."))
    words = text.split()
    head = words[0]
    if text in ("pass", "no", "nothing", "skip turn"):
        return (
            {"type": "pass"}
            if state["pending"] is None or state["pending"]["kind"] != "festival"
            else {"type": "skip"}
        )
    if text in ("done", "end", "finish", "finished", "stop", "done trading"):
        return {"type": "done"}
    if text in ("accept", "yes", "agree", "accept proposal"):
        return {"type": "accept"}
    if text in ("decline", "refuse", "reject", "decline proposal"):
        return {"type": "decline"}
    if text in ("watch", "citizens watch", "play citizens watch", "play watch"):
        return {"type": "watch"}
    if text in ("no watch", "nowatch", "no citizens watch"):
        return {"type": "nowatch"}
    if text in ("tax", "income tax", "play income tax", "play tax"):
        return {"type": "tax"}
    if text in ("no tax", "notax", "no income tax"):
        return {"type": "notax"}
    if text in ("skip", "stay away", "skip festival"):
        return {"type": "skip"}
    if text in ("use sawmill", "sawmill", "saw", "saw wood", "sawmill 2 wood"):
        return {"type": "sawmill"}
    if head == "take" or head == "forest" or head == "clear":
        cells = CELL_RE.findall(text)
        if len(cells) != 1:
            raise ParseError(
                with_menu(
                    _("Expected 'take forest C4' naming one forest space."),
                    state,
                    seat,
                    ("forest",),
                )
            )
        cell = f"{cells[0][0].upper()}{cells[0][1]}"
        return {"type": "forest", "cell": geometry(state["board"]).tile_key.get(cell, cell)}
    if head == "choose":
        text = text[len("choose ") :].removeprefix("the ")
    char = lookup(text, ALIASES)
    if char is not None:
        move = {"type": "choose", "character": char}
        if char == "count":
            rest = text[len("count") :].strip()
            rest = re.sub(r"^(repeating|repeat|as|with|:)\s*", "", rest).removeprefix("the ")
            repeat = lookup(rest, ALIASES)
            if repeat is None or repeat == "count":
                raise ParseError(
                    _("Expected 'count repeating CHARACTER', e.g. 'count repeating farmer'.")
                )
            move["repeat"] = repeat
        return move
    if head in ("build", "propose"):
        terms = None
        if head == "propose" and R.ruleset(state) >= 2:
            text, terms = split_terms(raw, state)
        move = parse_build(text, state, seat, head, with_terms=terms is not None)
        if terms is not None:
            move.pop("partners", None)
            move.update(parse_terms(terms, state, seat))
        elif head == "propose" and R.ruleset(state) >= 2:
            partners = move.pop("partners")  # 'with NAMES': the menu's terms for them
            building = BUILDINGS[move["building"]]
            split = R.menu_split(state, seat, building, partners)
            move.update(R.terms_fields(split or R.shares(state, seat, building, partners)))
        return move
    if head in ("counter", "counteroffer", "counter-offer"):
        return parse_counter(raw, state, seat)
    if head == "farm" or head == "produce":
        extras = [w for w in words[1:] if w in ("fish", "grain", "livestock")]
        return {"type": "farm", "extra": sorted(extras)}
    if head == "buy":
        rest = " ".join(words[1:])
        if "wood" in rest:
            count = first_number(rest, 1)
            return {"type": "buy", "good": "wood", "count": count, "at": "timbertrade"}
        if rest in ("none", "nothing", "no cards"):
            return {"type": "buy", "count": 0}
        return {"type": "buy", "count": first_number(rest, 1)}
    if head == "play":
        return parse_play(text, state, seat)
    if head in ("sell", "convert", "bake", "smoke", "slaughter"):
        return parse_trade(text, state, seat, head)
    if head == "join":
        food = next(
            (
                GOOD_ALIASES[w]
                for w in words[1:]
                if w in GOOD_ALIASES and GOOD_ALIASES[w] in PRODUCTS
            ),
            None,
        )
        if food is None:
            raise ParseError(_("Expected 'join with fish' (or grain, livestock, game), or 'skip'."))
        return {"type": "join", "food": food}
    if head in ("pledge", "pay", "contribute"):
        rest = " ".join(words[1:])
        number = re.match(r"(\d+)", rest)
        guilders = int(number.group(1)) if number else 0
        food_part = (
            rest.split("with", 1)[1] if "with" in rest else rest[number.end() if number else 0 :]
        )
        food: list[str] = []
        for k, good in re.findall(r"(?:(\d+)\s+)?(fish|grain|livestock|game)", food_part):
            food += [good] * (int(k) if k else 1)
        # The menu's order (fish, grain, livestock, game), so a typed pledge equals its entry.
        return {"type": "pledge", "guilders": guilders, "food": sorted(food, key=PRODUCTS.index)}
    raise ParseError(
        _(
            "I did not understand {command}. Expected a command such as: {moves}. Send 'help' "
            "for all commands.",
            command=repr(raw.strip()),
            moves="; ".join(format_move(state, seat, m) for m in M.legal_moves(state, seat)[:6]),
        )
    )


def first_number(text: str, default: int) -> int:
    found = re.search(r"\d+", text)
    if found:
        return int(found.group())
    for word, value in (("one", 1), ("two", 2), ("zero", 0), ("none", 0), ("a", 1)):
        if re.search(rf"\b{word}\b", text):
            return value
    return default


def parse_build(text: str, state, seat: int, head: str, with_terms: bool = False) -> dict:
    rest = text[len(head) :].strip().removeprefix("a ").removeprefix("the ")
    key = lookup(rest, BUILDING_ALIASES)
    if key is None:
        raise ParseError(
            _(
                "Expected 'build BUILDING at SPACE facing DIRECTION', e.g. 'build house at D5 "
                "facing north'. Buildings: {buildings}, boat.",
                buildings=joined([b.name for b in BUILDINGS.values()], ", "),
            )
        )
    cells = [f"{c.upper()}{r}" for c, r in CELL_RE.findall(rest)]
    facing = None
    found = re.search(r"facing\s+(\w+)", rest)
    if found:
        facing = FACING.get(found.group(1))
        if facing is None:
            raise ParseError(_("Facing must be north, east, south or west."))
    move: dict = {"type": head, "building": key, "cells": [], "facing": None}
    if key != "boat" and not cells:
        if BUILDINGS[key].size == 2:
            raise ParseError(
                _(
                    "Say where: 'build {building} at D5 facing north' (two spaces: 'at C2+D2').",
                    building=building_name(key),
                )
            )
        raise ParseError(
            _("Say where: 'build {building} at D5 facing north'.", building=building_name(key))
        )
    if "with" in rest.split() and head == "propose":
        cells = [f"{c.upper()}{r}" for c, r in CELL_RE.findall(rest.split(" with ")[0])]
    cells = sort_cells(cells)
    geo = geometry(state["board"])
    if key == "boat" or all(geo.area.get(c) == "country" for c in cells):
        facing = None
    if facing is not None and key != "boat":
        facing = canonical_facing(state["board"], BUILDINGS[key], cells, facing)
    move["cells"] = cells
    move["facing"] = facing
    if head == "propose" and with_terms:
        return move
    if head == "propose":
        if " with " not in f" {rest} ":
            raise ParseError(
                _("Say who builds with you: 'propose town hall at C2+D2 facing north with Anna'.")
            )
        others = [s for s in range(len(state["names"])) if s != seat]
        named = re.split(r"\bwith\b", rest, maxsplit=1)[1]
        partners = find_players(named, state["names"], others, COLOURS)
        move["partners"] = [s for s in R.clockwise(state, seat) if s in partners]
        return move
    if state["phase"] == "opening_building":
        return move
    discount = parse_discount(rest)
    if discount is None:  # never a discount the player did not type
        options = [""]
        if state["phase"] == "act" and state["act"]["char"] == "builder":
            building = BOAT if key == "boat" else BUILDINGS[key]
            options = R.discount_options(state, seat, building)
        if "" not in options:
            raise ParseError(
                _(
                    "You chose the Master Builder: say which discount you take, {options}.",
                    options=R.either(
                        _("'build ...{discount}'", discount=discount_text(d)) for d in options
                    ),
                )
            )
        discount = ""
    move["discount"] = discount
    return move


def split_terms(raw: str, state) -> tuple[str, str | None]:
    """A proposal's place part (normalised) and its terms after the colon, if any."""
    if ":" not in raw:
        return normalise(raw), None
    place, terms = raw.split(":", 1)
    return normalise(place), terms


def parse_terms(terms: str, state, seat: int) -> dict:
    """'Cor pays 2 g and 1 wood for 2 points, Emily pays ...' as a move's share fields, in
    clockwise order from the proposer (the proposer of a counter-offer's negotiation)."""
    example = _(
        "Expected each partner's share after a colon, e.g. 'propose hospice at D3 facing "
        "south: Cor pays 2 g and 2 wood for 2 points, Emily pays 2 g and 2 wood for 2 points'."
    )
    seats = range(len(state["names"]))
    found: dict[int, dict] = {}
    for part in re.split(r"[;,]|\band\b(?=\s+\D)", terms):
        part = normalise(part)
        if not part:
            continue
        # The name is what comes before 'pays' (or before the first number).
        said = re.match(r"(.*?)\s*\b(?:pays?|gives?)\b(.*)$", part) or re.match(r"(\D*)(.*)$", part)
        who, part = said.group(1).strip(), said.group(2)
        if not who:
            if not found:
                raise ParseError(
                    joined(
                        [_("I did not find a player's name in {part}.", part=repr(part)), example]
                    )
                )
            who_seat = list(found)[-1]  # 'Cor pays 2 g, 2 wood': more of the last share
        else:
            who_seat = find_player(who, state["names"], seats, COLOURS)
            if who_seat in found:
                raise ParseError(
                    joined([_("{who} is named twice.", who=state["names"][who_seat]), example])
                )
            found[who_seat] = {"guilders": 0, "wood": 0, "points": 0}
        for count, unit in re.findall(r"(\d+)\s*(guilders?|gold|g|wood|w|points?|pts?|p)\b", part):
            key = "guilders" if unit[0] == "g" else "wood" if unit[0] == "w" else "points"
            found[who_seat][key] += int(count)
    if not found:
        raise ParseError(example)
    proposer = state["pending"]["by"] if state["pending"] else seat
    order = [s for s in R.clockwise(state, proposer) if s in found]
    return R.terms_fields({s: found[s] for s in order})


def menu_terms_name(state) -> str:
    """How the menu's counter-offer is named: the even split, or, when somebody cannot pay
    his even share, the split by what each can pay (rules.menu_split)."""
    pending = state["pending"]
    building = BUILDINGS[pending["building"]]
    partners = [int(s) for s in pending["split"] if int(s) != pending["by"]]
    even = R.shares(state, pending["by"], building, partners)
    offered = R.menu_split(state, pending["by"], building, partners)
    return "an even split" if offered == even else "what each can pay"


def parse_counter(raw: str, state, seat: int) -> dict:
    pending = state["pending"]
    if pending is None or pending["kind"] != "proposal":
        raise ParseError(_("There is no proposal to answer with a counter-offer."))
    if R.ruleset(state) < 2:  # no counter-offers in the first rules (check_counter says so)
        raise ParseError(_("Answer the proposal: 'accept' or 'decline'."))
    if ":" not in raw and re.search(
        r"\bwith\b.*\b(even|split|what each|can pay)\b", normalise(raw)
    ):
        offered = R.counter_moves(state, seat)
        if not offered:
            raise ParseError(
                _(
                    "There is no other split to offer: type the terms, 'counter: NAME pays 2 g "
                    "and 1 wood for 2 points, ...'."
                )
            )
        return offered[0]
    place, terms = split_terms(raw, state)
    if terms is None:
        raise ParseError(
            _(
                "Expected 'counter: Cor pays 3 g and 2 wood for 2 points, Emily pays ...' (and "
                "'at SPACE facing DIRECTION' before the colon to move the building)."
            )
        )
    move = {"type": "counter", "cells": pending["cells"], "facing": pending["facing"]}
    cells = [f"{c.upper()}{r}" for c, r in CELL_RE.findall(place)]
    if cells:
        key = pending["building"]
        found = re.search(r"facing\s+(\w+)", place)
        facing = FACING.get(found.group(1)) if found else None
        if found and facing is None:
            raise ParseError(_("Facing must be north, east, south or west."))
        cells = sort_cells(cells)
        geo = geometry(state["board"])
        if all(geo.area.get(c) == "country" for c in cells):
            facing = None
        if facing is not None:
            facing = canonical_facing(state["board"], BUILDINGS[key], cells, facing)
        move["cells"], move["facing"] = cells, facing
    move.update(parse_terms(terms, state, seat))
    return move


def parse_discount(rest: str) -> str | None:
    found = re.search(r"(less|discount|minus)\s+(.*)$", rest)
    if not found:
        return None
    part = found.group(2)
    g = w = 0
    for count, what in re.findall(r"(\d+)?\s*(guilders?|gold|g|wood|w)\b", part):
        k = int(count) if count else 1
        if what.startswith("g"):
            g += k
        else:
            w += k
    return "g" * g + "w" * w


def parse_play(text: str, state, seat: int) -> dict:
    rest = text[len("play") :].strip()
    key = lookup(rest, CARD_ALIASES)
    if key is None:
        hand = state["players"][seat]["hand"]
        if hand:
            raise ParseError(
                _(
                    "Expected 'play CARD' with a wish card from your hand: {cards}.",
                    cards=joined([CARDS[c].name for c in dict.fromkeys(hand)], ", "),
                )
            )
        raise ParseError(_("Expected 'play CARD' with a wish card from your hand."))
    move: dict = {"type": "play", "card": key}
    if key == "fire":
        cells = [f"{c.upper()}{r}" for c, r in CELL_RE.findall(rest)]
        if len(cells) != 1:
            raise ParseError(_("Expected 'play fire on D5', naming the space of a House."))
        move["target"] = cells[0]
    if key in ("crime", "midsummer"):
        found = re.search(
            r"\b(nw|ne|se|sw|north[ -]west|north[ -]east|south[ -]east|south[ -]west)\b",
            rest,
        )
        if not found:
            raise ParseError(
                _(
                    "Expected 'play {card} in NW' (NW, NE, SE or SW).",
                    card=CARDS[key].name.lower(),
                )
            )
        d = found.group(1).replace("-", " ")
        move["district"] = {
            "north west": "NW",
            "north east": "NE",
            "south east": "SE",
            "south west": "SW",
        }.get(d, d.upper())
    if key == "crime":
        move["take"] = "wood" if re.search(r"taking\s+wood|\bwood\b", rest) else "guilders"
    return move


def parse_trade(text: str, state, seat: int, head: str) -> dict:
    rest = text[len(head) :].strip()
    pasty = re.search(r"\b(meat|game|fish)\s+pasty\b", rest)
    if pasty:
        return {"type": "pasty", "filling": pasty.group(1)}
    count = first_number(rest, 1)
    words = re.sub(r"\d+", " ", rest).split()
    good_text = " ".join(w for w in words if w not in ("at", "the", "to", "a"))
    good = lookup(good_text, GOOD_ALIASES)
    if head in ("bake", "smoke", "slaughter") or head == "convert":
        if head == "bake":
            good = good or "grain"
        if head == "smoke":
            good = good or "fish"
        if good not in ("grain", "fish", "livestock", "game"):
            raise ParseError(_("Expected 'convert 2 grain' (or fish, livestock, game)."))
        return {"type": "convert", "good": good, "count": count}
    if good is None:
        raise ParseError(
            with_menu(
                _(
                    "Expected 'sell 2 bread at baker', 'sell 3 grain at market', 'sell 2 wood "
                    "at timber trade' or 'sell meat pasty at inn'."
                ),
                state,
                seat,
                ("sell", "pasty"),
            )
        )
    at_text = rest.split(" at ", 1)[1] if " at " in rest else ""
    at = lookup(at_text.removeprefix("the "), STALLS) if at_text else None
    if at is None:
        at = {
            "grain": "market",
            "livestock": "market",
            "game": "market",
            "wood": "timbertrade",
            "bread": "baker",
            "meat": "butcher",
            "gamemeat": "butcher",
            "smoked": "fishmonger",
        }.get(good)
    if at is None:
        raise ParseError(_("Say where to sell: 'at market', 'at baker', 'at butcher'..."))
    return {"type": "sell", "good": good, "count": count, "at": at}


def help_text() -> Text:
    """The commands, one a line; the commands in English (every language reads them), what
    they do in the reader's language."""
    return joined(
        [
            _("Commands (one per line):"),
            _("  woodcutter | master builder | farmer | bailiff | merchant | rent master"),
            _("  count repeating farmer        choose a character (the Count repeats one)"),
            _("  take forest C4                clear a forest tile"),
            _("  build house at D5 facing north [less 1 wood]   (two spaces: at C2+D2)"),
            _("  build pasture at A3 | build boat"),
            _("  propose town hall at C2+D2 facing north with Anna, Bram   (an even split)"),
            _("  propose hospice at D3 facing south: Cor pays 3 g and 1 wood for 3 points,"),
            _("      Anna pays 1 g and 3 wood for 1 point   (any shares of cost and points)"),
            _("  accept | decline              answer a proposal"),
            _("  counter: Cor pays 2 g and 2 wood for 2 points, Anna pays 2 g and 2 wood for"),
            _("      2 points                  a counter-offer (once each; 'counter at E3"),
            _("      facing south: ...' moves it too; 'counter with an even split')"),
            _("  farm [extra fish]             the Farmer (extra: the chooser's privilege)"),
            _("  buy 0 cards | buy 1 card | buy 2 cards"),
            _("  play gatherer | play fire on D5 | play crime in NW taking wood"),
            _("  play midsummer night festival in NE | play house building"),
            _("  sell 3 grain at market | sell 2 bread at baker | sell meat pasty at inn"),
            _("  sell 2 wood at timber trade | buy 2 wood at timber trade | use sawmill"),
            _("  convert 2 grain               (bread, at the Baker; also fish, livestock, game)"),
            _("  watch | no watch | tax | no tax   secret answers in a reaction window"),
            _("  join with fish | skip         the Midsummer Night Festival"),
            _("  pledge 2 [with fish, grain]   against Vikings or the Black Death"),
            _("  pass | done"),
        ],
        "\n",
    )


def with_article(noun: str) -> str:
    """'a House', 'an Office': the article by the noun's first letter (every building, good
    and pasty name here is said as it is spelled)."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


# Narration is stored in the position, which the digests cover: a line worded wrongly when
# it was played ("acceptd", "a Office") stays so in the log and is put right here, where the
# history is written.
_MISWORDED = (
    (
        re.compile(r"\b(accept|decline)d the proposal\b"),
        lambda m: f"{m[1].rstrip('e')}ed the proposal",
    ),
    (
        re.compile(
            r"\b(built|proposed) a ((?:" + "|".join(b.name for b in BUILDINGS.values()) + r")\b)"
        ),
        lambda m: f"{m[1]} {with_article(m[2])}",
    ),
)


def _vowel(params: dict) -> bool:
    return params["building"][:1].lower() in "aeiou"


# The same, for a line the rules made as a Text (every line now): the message id the rules
# used says which line it is, so the better wording is chosen on it, never on the English.
_REWORDED = {
    "{who} acceptd the proposal.": lambda params: _("{who} accepted the proposal.", **params),
    "{who} built a {building} {where} for {guilders} g and {wood} wood: {points} point(s), "
    "Burghers {moved}.": lambda params: (
        _vowel(params)
        and _(
            "{who} built an {building} {where} for {guilders} g and {wood} wood: "
            "{points} point(s), Burghers {moved}.",
            **params,
        )
    ),
    "{who} proposed a {building} {where}: {terms}.": lambda params: (
        _vowel(params) and _("{who} proposed an {building} {where}: {terms}.", **params)
    ),
}


def worded(line: str) -> str:
    if isinstance(line, Text):
        fix = _REWORDED.get(line.template)
        return (fix and fix(line.params)) or line
    for pattern, fix in _MISWORDED:
        line = pattern.sub(fix, line)
    return line


def own_line(line: Text, who: str) -> Text:
    """A seat's private line ("You drew Fire.") in the third person ("Anna drew Fire."), as
    the history names every seat (and marks the viewer's name: games.selectors.mark_viewer)."""
    if line.template == "You drew {card}.":
        return _("{who} drew {card}.", who=who, **line.params)
    return line


def describe(before, after, seat, move, viewer) -> Text:
    parts = []
    for entry in after.get("news", []):
        if "seat" in entry and viewer == entry["seat"]:
            parts.append(worded(own_line(entry["own"], before["names"][entry["seat"]])))
        else:
            parts.append(worded(entry["all"]))
    if not parts:
        command = format_move(before, seat, move)
        if seat is None:
            parts.append(_("The game played {command}.", command=command))
        else:
            parts.append(_("{who} played {command}.", who=before["names"][seat], command=command))
    return joined(parts)


__all__ = ["CHARACTERS", "describe", "format_move", "help_text", "parse", "render_text"]
