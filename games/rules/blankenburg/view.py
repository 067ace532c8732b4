"""Builders of Blankenburg: what each seat may see, and the secrets the leak checker hunts.

Private: a player's silver (behind their screen [R]), their hand, the plans they drew, and
before the reveal their bid and its salt. Everything else is public, including each
bidder's receipt from the moment the bid is placed: it commits to the bid without telling
it (the salt is secret), so everyone can check everyone's bid once the salts are revealed.
"""

from __future__ import annotations

from typing import Any

from games.engine.words import Text, _, joined, pgettext

from . import rules
from .data import (
    CHARACTER_BY_KEY,
    CITIZENS,
    DISTRICT_COLOUR,
    DISTRICT_NAMES,
    EVENTS,
    KIND_NAMES,
    MAJORITY_BONUS,
    PLANS,
    RESOURCE_NAMES,
    RESOURCES,
    SPACES,
    VISITORS,
)
from .rules import MASTER_BUILDER, State

ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")
# Seat colours: dark enough for 3:1 against every district's fill and white (an owner's dot
# sits on its space), and far from the districts', the resources' and each other's colours
# (tests/web/test_svg_contrast.py). Purple, rust, teal, navy, magenta, olive; grey: the master.
PLAYER_COLOURS = ("#6a1b9a", "#b03a00", "#00695c", "#1a237e", "#ad1457", "#3d5a00")
MASTER_COLOUR = "#545454"
FILL = {
    "residential": "#f7e27c",
    "commercial": "#9fd89a",
    "civic": "#f2a3a0",
    "religious": "#9ec5f0",
}
# A person's or building's English name (as the state and the lodging store it) -> the name
# as a player reads it: the same string, said in their language.
SAID_NAME: dict[str, Text] = {
    str(thing.name): thing.name for thing in (*PLANS, *CITIZENS, *VISITORS)
}
# Each phase as the boards name it.
PHASE_TITLE = {
    "merchant": pgettext("blankenburg", "setup: the Merchant's extra resource"),
    "select": pgettext("blankenburg", "bidding: choosing resources"),
    "bid": pgettext("blankenburg", "bidding: sealed bids"),
    "pick": pgettext("blankenburg", "bidding: taking resources"),
    "build": pgettext("blankenburg", "building"),
    "offer": pgettext("blankenburg", "income: an offer"),
    "plans": pgettext("blankenburg", "marketplace: plans"),
    "keep": pgettext("blankenburg", "marketplace: keeping a plan"),
    "resources": pgettext("blankenburg", "marketplace: resources"),
    "final_repair": pgettext("blankenburg", "end of game: last repairs"),
    "over": pgettext("blankenburg", "game over"),
}
# The district rows' labels and their border colours, on the drawn board.
DISTRICT_LABEL = {
    "residential": pgettext("blankenburg", "Residential"),
    "commercial": pgettext("blankenburg", "Commercial"),
    "civic": pgettext("blankenburg", "Civic"),
    "religious": pgettext("blankenburg", "Religious"),
}
COLOUR_NAME = {
    "red": pgettext("blankenburg", "red"),
    "green": pgettext("blankenburg", "green"),
    "blue": pgettext("blankenburg", "blue"),
    "yellow": pgettext("blankenburg", "yellow"),
}
CODE = {"residential": "Y", "commercial": "G", "civic": "R", "religious": "B"}
RES_FILL = {
    "wood": "#8b5a2b",
    "stone": "#9e9e9e",
    "glass": "#d6f1f7",
    "marble": "#fafafa",
    "iron": "#222222",
    "gold": "#e5b80b",
}


def space_codes(board: str) -> list[str]:
    """Coordinates printed on the board: Y1.. residential, G1.. commercial, R1.. civic,
    B1.. religious, D1..D4 dual spaces."""
    counts: dict[str, int] = {}
    codes = []
    for districts in SPACES[board]:
        key = CODE[districts[0]] if len(districts) == 1 else "D"
        counts[key] = counts.get(key, 0) + 1
        codes.append(f"{key}{counts[key]}")
    return codes


CODES = {board: space_codes(board) for board in SPACES}


def plan_info(card: int) -> dict[str, Any]:
    p = PLANS[card]
    return {
        "id": card,
        "name": p.name,
        "kind": p.kind,
        "district": p.district,
        "kind_name": KIND_NAMES[p.kind],
        "district_name": DISTRICT_NAMES[p.district],
        "cost": dict(p.cost),
        "cost_text": " ".join(f"{k}{r[0].upper()}" for r, k in p.cost),
        "prestige": p.prestige,
        "income": p.income,
        "capacity": p.capacity,
        "starred": p.starred,
    }


def said_names(names) -> list[str]:
    """Buildings or people named in the state, as Texts where the game names them."""
    return [SAID_NAME.get(name, name) for name in names]


def hand_line(state: State, seat: int) -> Text:
    names = joined((PLANS[c].name for c in state["players"][seat]["hand"]), ", ")
    return _("Plans in hand: {plans}", plans=names)


def drawn_line(state: State) -> Text:
    names = joined((PLANS[c].name for c in state["drawn"]), ", ")
    return _("Plans drawn to choose from: {plans}", plans=names)


def bid_line(state: State, seat: int) -> Text:
    return _("Your sealed bid: {silver} silver", silver=state["bids"][seat])


def bids_revealed(state: State) -> bool:
    reveal = state["reveal"]
    return reveal is not None and reveal["turn"] == state["turn"]


def owner_name(state: State, owner: int) -> Text:
    """The master builder in the reader's language, or a player's name as a Text said as it
    is (a name is never looked up in a catalogue, as a plain string shown with |said is)."""
    if owner == MASTER_BUILDER:
        return pgettext("blankenburg", "Master builder")
    return joined([state["names"][owner]])


def owner_colour(owner: int) -> str:
    return MASTER_COLOUR if owner == MASTER_BUILDER else PLAYER_COLOURS[owner]


def build_view(state: State, seat: int | None) -> dict[str, Any]:
    n = state["n"]
    board = state["board"]
    revealed = bids_revealed(state)
    players = []
    for s, p in enumerate(state["players"]):
        char = CHARACTER_BY_KEY[p["char"]]
        players.append(
            {
                "seat": s,
                "name": state["names"][s],
                "colour": PLAYER_COLOURS[s],
                "character": char.name,
                "character_text": char.text,
                "prestige": p["prestige"],
                "res": dict(p["res"]),
                "gold": p["gold"],
                "hand_size": len(p["hand"]),
                "silver": p["silver"] if s == seat or state["phase"] == "over" else None,
                "structures": len(rules.owned_spaces(state, s)),
                "has_bid": state["phase"] == "bid" and state["bids"][s] is not None,
                "first": s == state["first"],
                "you": s == seat,
            }
        )
    guests = {}
    for person, where, _owner, pay in state["lodging"]:
        guests.setdefault(where, []).append(f"{person} ({pay})")
    town = []
    for i, s in enumerate(state["town"]):
        districts = SPACES[board][i]
        entry = {
            "space": i,
            "code": CODES[board][i],
            "districts": list(districts),
            "label": "/".join(districts),
            "empty": s is None,
        }
        if s is not None:
            plan = PLANS[s["card"]]
            entry.update(
                {
                    "name": plan.name,
                    "kind": plan.kind,
                    "owner": owner_name(state, s["owner"]),
                    "owner_seat": s["owner"],
                    "owner_colour": owner_colour(s["owner"]),
                    "damaged": s["damaged"],
                    "prestige": plan.prestige,
                    "income": plan.income,
                    "capacity": plan.capacity,
                    "counts_as": rules.space_district(state, i),
                    "guests": guests.get(i, []),
                }
            )
        town.append(entry)
    track = []
    for k, cid in enumerate(state["track"]):
        c = CITIZENS[cid]
        track.append(
            {
                "no": ROMAN[k],
                "name": c.name,
                "prefs": said_names(c.prefs),
                "gold": c.gold,
                "starred": c.starred,
            }
        )
    result: dict[str, Any] = {
        "game": "blankenburg",
        "turn": state["turn"],
        "phase": state["phase"],
        "phase_title": PHASE_TITLE.get(state["phase"], state["phase"]),
        "board": board,
        "names": list(state["names"]),
        "n": n,
        "first": state["first"],
        "key_holder": state["names"][state["first"]],
        "viewer": seat,
        "to_act": [state["names"][s] for s in rules.to_act(state)],
        "current": None if state["cur"] is None else state["names"][state["cur"]],
        "master_builder": state["master_builder"],
        "players": players,
        "town": town,
        "free_spaces": sum(1 for s in state["town"] if s is None),
        "track": track,
        "track_free": 12 - len(state["track"]),
        "event": None
        if state["event"] is None
        else {"name": EVENTS[state["event"]].name, "text": EVENTS[state["event"]].text},
        "visitor": None
        if state["visitor"] is None
        else {
            "name": VISITORS[state["visitor"]].name,
            "text": VISITORS[state["visitor"]].text,
            "prefs": said_names(VISITORS[state["visitor"]].prefs),
        },
        "communal": [None if c is None else plan_info(c) for c in state["communal"]],
        "market": dict(state["market"]),
        "wheel": dict(state["wheel"]),
        "dice": list(state["dice"]),
        "supply": dict(state["supply"]),
        "decks": {
            "basic": len(state["basic_deck"]),
            "grand": len(state["grand_deck"]),
            "citizens": len(state["citizen_deck"]),
            "visitors": len(state["visitor_deck"]),
            "events": len(state["event_deck"]),
        },
        "round": state["round"],
        "offer": None,
        "lodging": [
            {
                "person": SAID_NAME.get(person, person),
                "where": CODES[board][where]
                if where >= 0
                else pgettext("blankenburg", "board inn"),
                "owner": owner_name(state, owner)
                if where >= 0
                else pgettext("blankenburg", "nobody"),
                "silver": pay,
            }
            for person, where, owner, pay in state["lodging"]
        ],
        "reveal": None,
        "receipts": [],
        "news": list(state["news"]),
        "result": state["result"],
        "majority_bonus": dict(MAJORITY_BONUS),
        "you": None,
    }
    if state["phase"] == "offer":
        source = state["offer"]["source"]
        card = EVENTS[state["event"]] if source == "event" else VISITORS[state["visitor"]]
        result["offer"] = {
            "card": card.name,
            "text": card.text,
            "waiting": [state["names"][s] for s in state["waiting"]],
        }
    if state["phase"] == "bid" and not revealed:
        result["receipts"] = [
            {
                "name": state["names"][s],
                "receipt": rules.receipt(state["salts"][s], state["turn"], state["bids"][s]),
            }
            for s in range(n)
            if state["bids"][s] is not None
        ]
    reveal = state["reveal"]
    if reveal is not None:
        result["reveal"] = {
            "turn": reveal["turn"],
            "rows": [
                {
                    "name": state["names"][s],
                    "bid": reveal["bids"][s],
                    "salt": reveal["salts"][s],
                    "receipt": rules.receipt(reveal["salts"][s], reveal["turn"], reveal["bids"][s]),
                }
                for s in range(n)
            ],
        }
    if seat is not None and 0 <= seat < n:
        me = state["players"][seat]
        you: dict[str, Any] = {
            "seat": seat,
            "silver": me["silver"],
            "hand": [plan_info(c) for c in me["hand"]],
            "hand_line": hand_line(state, seat) if me["hand"] else "",
            "hand_limit": rules.hand_limit(state, seat),
            "bid": None,
            "bid_line": "",
            "salt": None,
            "receipt": None,
            "drawn": [],
            "drawn_line": "",
        }
        if not revealed:
            you["salt"] = state["salts"][seat]
            if state["bids"][seat] is not None:
                you["bid"] = state["bids"][seat]
                you["bid_line"] = bid_line(state, seat)
                you["receipt"] = rules.receipt(
                    state["salts"][seat], state["turn"], state["bids"][seat]
                )
        if state["phase"] == "keep" and state["cur"] == seat:
            you["drawn"] = [plan_info(c) for c in state["drawn"]]
            you["drawn_line"] = drawn_line(state)
        result["you"] = you
    result["svg"] = svg_layout(result)
    return result


def secrets(state: State) -> dict[int | None, list[str]]:
    found: dict[int | None, list[str]] = {}
    revealed = bids_revealed(state)
    for seat, player in enumerate(state["players"]):
        mine = []
        if player["hand"]:
            mine.append(hand_line(state, seat))
        if state["phase"] != "over" and not revealed:
            mine.append(state["salts"][seat])
            if state["bids"][seat] is not None:
                mine.append(bid_line(state, seat))
        if state["phase"] == "keep" and state["cur"] == seat:
            mine.append(drawn_line(state))
        if mine:
            found[seat] = mine
    hidden = []
    for deck, names in (
        ("basic_deck", [p.name for p in PLANS]),
        ("grand_deck", [p.name for p in PLANS]),
        ("citizen_deck", [c.name for c in CITIZENS]),
        ("visitor_deck", [v.name for v in VISITORS]),
        ("event_deck", [e.name for e in EVENTS]),
    ):
        top = state[deck][:3]
        if len(top) == 3:
            hidden.append("deck order: " + " / ".join(names[c] for c in top))
    if hidden:
        found[None] = hidden
    return found


# --- the board as shapes for the SVG template ---------------------------------------------


# A building's mark on the fitted board, where its name would be under 12 px (static/js/
# board.js), in the reader's language; the legend under the board names each one.
MARKS = {
    "Castle": pgettext("blankenburg mark", "CAS"),
    "Cathedral": pgettext("blankenburg mark", "CAT"),
    "Chapel": pgettext("blankenburg mark", "CHA"),
    "Cottage": pgettext("blankenburg mark", "COT"),
    "Courthouse": pgettext("blankenburg mark", "CRT"),
    "Estate": pgettext("blankenburg mark", "EST"),
    "Forge": pgettext("blankenburg mark", "FOR"),
    "Guardhouse": pgettext("blankenburg mark", "GRD"),
    "Guildhall": pgettext("blankenburg mark", "GLD"),
    "Inn": pgettext("blankenburg mark", "INN"),
    "Library": pgettext("blankenburg mark", "LIB"),
    "Manor": pgettext("blankenburg mark", "MAN"),
    "Market Hall": pgettext("blankenburg mark", "MKT"),
    "Monastery": pgettext("blankenburg mark", "MON"),
    "Palace": pgettext("blankenburg mark", "PAL"),
    "Parish": pgettext("blankenburg mark", "PAR"),
    "Priory": pgettext("blankenburg mark", "PRI"),
    "Shop": pgettext("blankenburg mark", "SHP"),
    "Shrine": pgettext("blankenburg mark", "SHR"),
    "Tavern": pgettext("blankenburg mark", "TAV"),
    "Tower": pgettext("blankenburg mark", "TWR"),
    "Town Hall": pgettext("blankenburg mark", "TH"),
    "Townhouse": pgettext("blankenburg mark", "THO"),
    "Trading House": pgettext("blankenburg mark", "TRD"),
    "Tudor": pgettext("blankenburg mark", "TUD"),
    "University": pgettext("blankenburg mark", "UNI"),
    "Workshop": pgettext("blankenburg mark", "WRK"),
}


def svg_layout(v: dict[str, Any]) -> dict[str, Any]:
    """Rectangles and labels with coordinates, so the template only loops and prints."""
    cells = []
    y = 10
    row_of = {"residential": 0, "commercial": 1, "civic": 2, "religious": 3}
    column: dict[str, int] = {}
    dual_col = 0
    for entry in v["town"]:
        districts = entry["districts"]
        if len(districts) == 1:
            row = row_of[districts[0]]
            col = column.get(districts[0], 0)
            column[districts[0]] = col + 1
            fill = FILL[districts[0]]
            stroke = FILL[districts[0]]
        else:
            row = 4
            col = dual_col
            dual_col += 1
            fill = FILL[districts[0]]
            stroke = FILL[districts[1]]
        x = 110 + col * 92
        cy = y + row * 62
        cell = {
            "target": f"space:{entry['space']}",
            "x": x,
            "y": cy,
            "w": 86,
            "h": 54,
            "fill": fill,
            "stroke": stroke,
            "code": entry["code"],
            "name": entry.get("name", ""),
            "mark": MARKS.get(entry.get("name", ""), ""),
            "mark_y": cy + 31,
            "owner": entry.get("owner", ""),
            "owner_colour": entry.get("owner_colour", "none"),
            "damaged": entry.get("damaged", False),
            "stats": ""
            if entry["empty"]
            else f"P{entry['prestige']} I{entry['income']} C{entry['capacity']}",
            "text_x": x + 43,
            "code_y": cy + 12,
            "name_y": cy + 28,
            "stats_y": cy + 42,
            "owner_x": x + 78,
            "owner_y": cy + 8,
        }
        cells.append(cell)
    # Two lines, so the label fits left of the first space (one line ran under it).
    rows = [
        {
            "label": DISTRICT_LABEL[d],
            "detail": _(
                "({colour}, +{bonus})",
                colour=COLOUR_NAME[DISTRICT_COLOUR[d]],
                bonus=MAJORITY_BONUS[d],
            ),
            "y": y + row_of[d] * 62 + 24,
            "detail_y": y + row_of[d] * 62 + 40,
        }
        for d in row_of
    ]
    if v["board"] == "back":
        rows.append({"label": pgettext("blankenburg", "Dual spaces"), "y": y + 4 * 62 + 32})
    top = y + (5 if v["board"] == "back" else 4) * 62 + 10
    # The citizens' track in two rows of six: twelve in a row were wider than the town
    # and than a desktop's board box, which cut off XI and XII.
    track = []
    for k in range(12):
        citizen = v["track"][k] if k < len(v["track"]) else None
        x, cy = 10 + (k % 6) * 62, top + (k // 6) * 46
        track.append(
            {
                "x": x,
                "y": cy,
                "no": ROMAN[k],
                "name": citizen["name"] if citizen else "",
                "gold": bool(citizen and citizen["gold"]),
                "text_x": x + 29,
                "name_y": cy + 30,
                "no_y": cy + 12,
            }
        )
    res_top = top + 106
    market = []
    for k, r in enumerate((*RESOURCES, "gold")):
        market.append(
            {
                "target": f"res:{r}",
                "x": 10 + k * 62,
                "y": res_top,
                "fill": RES_FILL[r],
                "label": RESOURCE_NAMES[r],
                "market": v["market"].get(r, "-") if r != "gold" else "-",
                "wheel": v["wheel"][r],
                "text_x": 10 + k * 62 + 29,
                "label_y": res_top + 12,
                "market_y": res_top + 28,
                "wheel_y": res_top + 44,
                "text_colour": "#ffffff" if r in ("wood", "iron") else "#000000",
            }
        )
    return {
        "width": 670,  # the town's six columns end at 656
        "height": res_top + 60,
        "cells": cells,
        "rows": rows,
        "track": track,
        "market": market,
        "market_label_y": res_top - 4,
        # The whole row, its heading too: a trade's form opens over it (play/_pieces.html).
        "market_box": {"x": 6, "y": res_top - 18, "w": 6 * 62 + 2, "h": 72},
        "mark_legend": sorted({(c["mark"], c["name"]) for c in cells if c["mark"]}),
    }
