"""What a seat may see: the only door from the state to the outside."""

from __future__ import annotations

from games.engine.captions import LINE, fitted_lines
from games.engine.words import Text, _, joined, pgettext

from . import geometry as B
from . import rules as R
from . import text as T
from .board import cell_target
from .data import (
    BOARDS,
    BUILDINGS,
    CARDS,
    CHARACTER_NAMES,
    COLOURS,
    DIRS,
    DISTRICT_NAMES,
    GOOD_NAMES,
    GOODS,
    STALL_SLOTS,
    cell_xy,
)

# A building's code on the text board's grid and the fitted board's marks: three letters,
# said in the reader's language (the legend names them).
CODES = {
    "house": pgettext("nieuwstad code", "HOU"),
    "grainfield": pgettext("nieuwstad code", "GRN"),
    "pasture": pgettext("nieuwstad code", "PAS"),
    "manor": pgettext("nieuwstad code", "MAN"),
    "timbertrade": pgettext("nieuwstad code", "TIM"),
    "sawmill": pgettext("nieuwstad code", "SAW"),
    "baker": pgettext("nieuwstad code", "BAK"),
    "butcher": pgettext("nieuwstad code", "BUT"),
    "fishmonger": pgettext("nieuwstad code", "FSH"),
    "inn": pgettext("nieuwstad code", "INN"),
    "office": pgettext("nieuwstad code", "OFF"),
    "prison": pgettext("nieuwstad code", "PRI"),
    "citygate": pgettext("nieuwstad code", "GAT"),
    "guildhall": pgettext("nieuwstad code", "GLD"),
    "townhall": pgettext("nieuwstad code", "TWN"),
    "hospice": pgettext("nieuwstad code", "HOS"),
    "watchtower": pgettext("nieuwstad code", "WAT"),
    "church": pgettext("nieuwstad code", "CHU"),
    "well": pgettext("nieuwstad code", "WEL"),
}
ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<", None: " "}
# Seals: the seats' colours, and a grey for the city that no seat shares.
SEAT_FILL = {"white": "#ffffff", "red": "#c62828", "orange": "#ef8f00", "blue": "#1e5bc6"}
CITY_SEAL = "#6b6b6b"
AREA_NAMES = {
    "city": _("city"),
    "country": _("outer area"),
    "lake": _("lake"),
    "market": _("Market"),
}
COLOUR_FILL = {"red": "#e8b4a8", "green": "#a9d18e", "blue": "#9cc3e6", "brown": "#d8c3a0"}
AREA_FILL = {"city": "#ead9a8", "country": "#b9d98c", "lake": "#7fb3e0", "market": "#c9a46a"}
FOREST_FILL = "#2f6b2a"
CELL = 64  # SVG pixels per space
CROP_FILL = "#6b4a12"  # a dot on a field: one grain or livestock growing there


def phase_text(state) -> Text:
    phase = state["phase"]
    if phase == "over":
        return _("The game is over")
    if phase == "opening_forest":
        return _("Opening: each player clears a forest tile")
    if phase == "opening_building":
        return _("Opening: starting buildings (House, Grain field or Boat)")
    if phase == "choose":
        return _("Choosing a character")
    act = state["act"]
    char = CHARACTER_NAMES[act["char"]]
    chooser = R.name(state, act["chooser"])
    if act["privilege"]:
        text = _("{character} phase (chosen by {who})", character=char, who=chooser)
    else:
        text = _(
            "{character} phase (chosen by {who}, through the Count: no privilege)",
            character=char,
            who=chooser,
        )
    if act["char"] == "bailiff":
        if act["part"] == "buy":
            return _("{phase} - buying cards", phase=text)
        return _("{phase} - playing wish cards", phase=text)
    return text


# A pending question's answers as the board shows them (a pledge's are counted, below).
ANSWER_NAMES = {
    "accept": _("accept"),
    "decline": _("decline"),
    "watch": _("watch"),
    "nowatch": _("nowatch"),
    "tax": _("tax"),
    "notax": _("notax"),
    "skip": _("skip"),
}


def answer_name(answer: str) -> Text | str:
    return ANSWER_NAMES.get(answer) or GOOD_NAMES.get(answer) or answer


def pending_view(state, seat: int | None) -> dict | None:
    pending = state["pending"]
    if pending is None:
        return None
    kind = pending["kind"]
    waiting = [R.name(state, s) for s in R.to_act(state)]
    view = {"kind": kind, "waiting": waiting}
    if kind == "proposal":
        building = BUILDINGS[pending["building"]]
        offered_by = pending.get("offered_by", pending["by"])
        said = {
            "who": R.name(state, pending["by"]),
            "building": building.name,
            "where": R.where(pending["cells"], pending["facing"]),
            "terms": R.terms_text(state, pending["split"]),
        }
        if T.with_article(building.name).startswith("an "):
            text = _("{who} proposes an {building} {where}: {terms}", **said)
        else:
            text = _("{who} proposes a {building} {where}: {terms}", **said)
        if "countered" in pending:  # version 2: free negotiation
            if offered_by != pending["by"]:
                text = _(
                    "{proposal} (counter-offer by {who})",
                    proposal=text,
                    who=R.name(state, offered_by),
                )
            if pending["countered"]:
                text = _(
                    "{proposal}. Answer 'accept', 'decline' (ends the negotiation) or a "
                    "counter-offer, 'counter: NAME pays 2 g and 1 wood for 2 points, ...' (each "
                    "player once; made by {names}).",
                    proposal=text,
                    names=", ".join(R.name(state, s) for s in pending["countered"]),
                )
            else:
                text = _(
                    "{proposal}. Answer 'accept', 'decline' (ends the negotiation) or a "
                    "counter-offer, 'counter: NAME pays 2 g and 1 wood for 2 points, ...' (each "
                    "player once).",
                    proposal=text,
                )
        view["text"] = text
        view["offered_by"] = R.name(state, offered_by)
        view["answers"] = {
            R.name(state, int(s)): answer_name(a) for s, a in pending["answers"].items()
        }
    elif kind == "watch":
        view["text"] = _(
            "{who} plays Crime in the {district} district. Everyone holding cards answers "
            "'watch' (plays Citizens' Watch if held) or 'no watch'; answers stay secret.",
            who=R.name(state, pending["by"]),
            district=DISTRICT_NAMES[pending["district"]],
        )
    elif kind == "tax":
        view["text"] = _(
            "Income is about to be paid. Everyone holding cards answers 'tax' (plays Income "
            "Tax if held) or 'no tax'; answers stay secret."
        )
    elif kind == "festival":
        view["text"] = _(
            "Midsummer Night Festival in the {district} district: pay 1 fish, grain, livestock "
            "or game for 2 points; residents who stay away lose 1.",
            district=DISTRICT_NAMES[pending["district"]],
        )
        view["answers"] = {
            R.name(state, int(s)): answer_name(a) for s, a in pending["answers"].items()
        }
    elif kind == "pledge":
        g, f = pending["cost"]
        if f:
            view["text"] = _(
                "{card}: together pay {guilders} guilder(s) and {food} food to prevent it; "
                "pledges are charged clockwise from the drawer until covered.",
                card=CARDS[pending["card"]].name,
                guilders=g,
                food=f,
            )
        else:
            view["text"] = _(
                "{card}: together pay {guilders} guilder(s) to prevent it; pledges are charged "
                "clockwise from the drawer until covered.",
                card=CARDS[pending["card"]].name,
                guilders=g,
            )
        view["answers"] = {
            R.name(state, int(s)): a["guilders"]
            if not a["food"]
            else f"{a['guilders']} + {a['food']}"
            for s, a in pending["answers"].items()
        }
    return view


def build_view(state, seat: int | None) -> dict:
    board = BOARDS[state["board"]]
    geo = B.geometry(state["board"])
    players = []
    for s, p in enumerate(state["players"]):
        entry = {
            "seat": s,
            "number": s + 1,
            "name": R.name(state, s),
            "colour": COLOURS[s],
            "fill": SEAT_FILL[COLOURS[s]],
            "guilders": p["guilders"],
            "points": p["points"],
            "light": p["light"],
            "dark": p["dark"],
            "cards": len(p["hand"]),
            "knowledge": p["knowledge"],
            "start": s == state["start"],
            "goods": [{"good": g, "count": p[g]} for g in GOODS],
        }
        for g in GOODS:
            entry[g] = p[g]
        players.append(entry)
    cells = []
    for cell, area in geo.area.items():
        x, y = cell_xy(cell)
        info = {
            "cell": cell,
            "col": x,
            "row": y,
            "x": x * CELL + 30,
            "y": y * CELL + 30,
            "area": area,
            "district": geo.district.get(cell, ""),
            "forest": cell in state["forest"],
            "code": "",
            "owner": None,
            "facing": None,
            "edges": "",
            "crop": 0,
        }
        bid = state["cells"].get(cell)
        if bid is not None:
            b = state["buildings"][bid]
            building = BUILDINGS[b["kind"]]
            info["code"] = CODES[b["kind"]]
            info["owner"] = b["owner"]
            info["facing"] = b["facing"]
            info["crop"] = b["crop"]
            if b["facing"] and building.edges:
                info["edges"] = "".join(B.edge_at(building, b["facing"], d) for d in DIRS)
        cells.append(info)
    buildings = []
    for bid, b in sorted(state["buildings"].items(), key=lambda i: B.sort_cells(i[1]["cells"])):
        building = BUILDINGS[b["kind"]]
        buildings.append(
            {
                "id": bid,
                "kind": b["kind"],
                "name": building.name,
                "colour": building.colour,
                "cells": b["cells"],
                "facing": b["facing"],
                "owner": b["owner"],
                "owner_name": R.name(state, b["owner"])
                if b["owner"] is not None
                else _("the city"),
                "crop": b["crop"],
            }
        )
    stalls = []
    for stall, owner in state["stalls"].items():
        entry = {"stall": stall, "name": BUILDINGS[stall].name, "owner": R.name(state, owner)}
        if stall in STALL_SLOTS:
            total = sum(1 for need in STALL_SLOTS[stall] if state["burghers"] >= need)
            entry["demand"] = total
            entry["free"] = total - state["slots"].get(stall, 0)
        stalls.append(entry)
    view = {
        "game": "nieuwstad",
        "seat": seat,
        "names": list(state["names"]),
        "n": state["n"],
        "board": state["board"],
        "columns": board.columns,
        "rows": board.rows,
        "round": state["round"],
        "start": state["start"],
        "phase": state["phase"],
        "phase_text": phase_text(state),
        "burghers": state["burghers"],
        "players": players,
        "cells": cells,
        "buildings": buildings,
        "boats": [R.name(state, s) if s is not None else None for s in state["boats"]],
        "loose_boats": [R.name(state, s) for s in state["loose_boats"]],
        "stalls": stalls,
        "supply": [
            {"name": BUILDINGS[k].name, "count": c} for k, c in state["supply"].items() if c > 0
        ],
        "deck": len(state["deck"]),
        "discard": [CARDS[c].name for c in state["discard"]],
        "chosen": [CHARACTER_NAMES[c] for c in state["chosen"]],
        "available": [CHARACTER_NAMES[c] for c in R.available_characters(state)]
        if state["phase"] == "choose"
        else [],
        "to_act": [R.name(state, s) for s in R.to_act(state)],
        "pending": pending_view(state, seat),
        "options": dict(state["options"]),
        "final": state["final"],
        "hand": None,
        "svg": svg_shapes(state),
    }
    if seat is not None:
        view["hand"] = [CARDS[c].name for c in state["players"][seat]["hand"]]
        view["my_card_points"] = R.card_points(state, seat)
        if state["pending"] and state["pending"]["kind"] in ("watch", "tax"):
            mine = state["pending"]["answers"].get(str(seat))
            view["pending"]["my_answer"] = answer_name(mine) if mine else mine
    if state["phase"] == "over":  # hands are shown at the end
        view["hands"] = {
            R.name(state, s): [CARDS[c].name for c in p["hand"]]
            for s, p in enumerate(state["players"])
        }
    return view


def svg_shapes(state) -> dict:
    """Rectangles and lines for the web board, ready for a plain Django template."""
    board = BOARDS[state["board"]]
    geo = B.geometry(state["board"])
    rects, edges, labels, crops, marks = [], [], [], [], []
    captions: list[dict] = []  # the buildings' names, each in lines that fit its box
    for cell, area in geo.area.items():
        x, y = cell_xy(cell)
        px, py = x * CELL + 30, y * CELL + 30
        fill = AREA_FILL[area]
        label = "#1f1f1f"
        if cell in state["forest"]:
            fill, label = FOREST_FILL, "#ffffff"
        target = cell_target(state, cell) if area in ("city", "country") else ""
        rects.append(
            {
                "x": px,
                "y": py,
                "w": CELL,
                "h": CELL,
                "fill": fill,
                "stroke": "#776",
                "target": target,
                "title": _(
                    "{cell}: {area}",
                    cell=cell,
                    area=_("forest") if cell in state["forest"] else AREA_NAMES[area],
                ),
            }
        )
        # Inside the road edges a building draws 0.5-5.5 px from the cell's sides (dark text
        # on the grey stone road was 3.7:1), above the building's own label at +36.
        labels.append(
            {"x": px + 8, "y": py + 19, "text": joined([cell]), "size": 12, "fill": label}
        )
        if area == "market" and cell == board.market[0]:
            labels.append(
                {"x": px + 4, "y": py + 38, "text": _("MARKET"), "size": 13, "fill": "#1f1f1f"}
            )
    for _bid, b in state["buildings"].items():
        building = BUILDINGS[b["kind"]]
        xs = [cell_xy(c)[0] for c in b["cells"]]
        ys = [cell_xy(c)[1] for c in b["cells"]]
        px, py = min(xs) * CELL + 30 + 6, min(ys) * CELL + 30 + 6
        w = (max(xs) - min(xs) + 1) * CELL - 12
        h = (max(ys) - min(ys) + 1) * CELL - 12
        owner_fill = SEAT_FILL[COLOURS[b["owner"]]] if b["owner"] is not None else CITY_SEAL
        owner = R.name(state, b["owner"]) if b["owner"] is not None else _("the city")
        rects.append(
            {
                "x": px,
                "y": py,
                "w": w,
                "h": h,
                "fill": COLOUR_FILL[building.colour],
                "stroke": "#333",
                "target": "",
                "title": _("{building} ({owner})", building=building.name, owner=owner),
                "building": True,
            }
        )
        rects.append(
            {
                "x": px + w - 16,
                "y": py + 4,
                "w": 12,
                "h": 12,
                "fill": owner_fill,
                "stroke": "#000",
                "target": "",
                "title": _("owner: {owner}", owner=owner),
                "building": True,
            }
        )
        # The building's name in full, in lines that fit its box (below its space's name and
        # its seal); lines beyond the box's room are squeezed into the last one (`fit`).
        # (said in the reader's language and broken there: games/engine/captions.py and the
        # `caption_said` filter; the English lines here, for anything that reads the view).
        room = (h - 32) // LINE + 1
        lines = fitted_lines(building.name, w - 4, room)
        captions.append(
            {
                "x": px + 2,
                "y": py + 29,
                "width": w - 4,
                "room": room,
                "name": building.name,
                "lines": lines,
            }
        )
        # Its code in the middle, shown instead of the name where the fitted board would draw
        # the name under 12 px (static/js/board.js sizes it; the legend under the board
        # names it); a little low, clear of the seal.
        marks.append({"x": px + w // 2, "y": py + h // 2 + 4, "text": CODES[b["kind"]]})
        # A field's crop as dots in its bottom right corner, clear of its name (the legend
        # says so).
        for i in range(b["crop"]):
            crops.append(
                {
                    "x": px + w - 7 - 9 * i,
                    "y": py + h - 6,
                    "fill": CROP_FILL,
                    "title": _("crop: {count}", count=b["crop"]),
                }
            )
        if b["facing"] and building.edges:
            for cell in b["cells"]:
                x, y = cell_xy(cell)
                cx, cy = x * CELL + 30, y * CELL + 30
                for d in DIRS:
                    other = geo.neighbours[cell][d]
                    if other in b["cells"]:
                        continue
                    m = B.edge_at(building, b["facing"], d)
                    colour = {"S": "#777777", "z": "#e0c068", "G": "#2e8b2e"}[m]
                    x1, y1, x2, y2 = {
                        "N": (cx + 4, cy + 3, cx + CELL - 4, cy + 3),
                        "S": (cx + 4, cy + CELL - 3, cx + CELL - 4, cy + CELL - 3),
                        "W": (cx + 3, cy + 4, cx + 3, cy + CELL - 4),
                        "E": (cx + CELL - 3, cy + 4, cx + CELL - 3, cy + CELL - 4),
                    }[d]
                    edges.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": colour})
    district_lines = []
    for cell in geo.district:
        x, y = cell_xy(cell)
        for d in ("E", "S"):
            other = geo.neighbours[cell][d]
            if other in geo.district and geo.district[other] != geo.district[cell]:
                cx, cy = x * CELL + 30, y * CELL + 30
                if d == "E":
                    district_lines.append(
                        {"x1": cx + CELL, "y1": cy, "x2": cx + CELL, "y2": cy + CELL}
                    )
                else:
                    district_lines.append(
                        {"x1": cx, "y1": cy + CELL, "x2": cx + CELL, "y2": cy + CELL}
                    )
    boats = []
    lake = board.lake
    for i, owner in enumerate(state["boats"] + [None] * 0):
        x, y = cell_xy(lake[min(i, len(lake) - 1)])
        boats.append(
            {
                "x": x * CELL + 30 + 10,
                "y": y * CELL + 30 + 28,  # below the space's name
                "fill": SEAT_FILL[COLOURS[owner]] if owner is not None else "#ffffff",
                "label": _("Boat {number}", number=i + 1),
                "lines": [{"y": y * CELL + 30 + 49, "text": _("Boat {number}", number=i + 1)}],
                # a name said as it is (the board's |said looks no player's name up)
                "owner": joined([R.name(state, owner)]) if owner is not None else _("free"),
            }
        )
    for j, owner in enumerate(state["loose_boats"]):
        x, y = cell_xy(lake[min(len(state["boats"]) + j, len(lake) - 1)])
        boats.append(
            {
                "x": x * CELL + 30 + 10,
                "y": y * CELL + 30 + 28,  # below the space's name
                "fill": SEAT_FILL[COLOURS[owner]],
                "label": _("Boat (card)"),
                # Two lines: "Boat (card)" on one ran past the lake's right edge.
                "lines": [
                    {"y": y * CELL + 30 + 49, "text": _("Boat")},
                    {"y": y * CELL + 30 + 61, "text": _("by card")},
                ],
                "owner": joined([R.name(state, owner)]),
            }
        )
    columns = [
        {"x": i * CELL + 30 + CELL // 2 - 4, "text": chr(65 + i)} for i in range(board.columns)
    ]
    rows = [{"y": i * CELL + 30 + CELL // 2 + 4, "text": str(i + 1)} for i in range(board.rows)]
    # A face-down forest tile covers two spaces: a bar from one centre to the other joins them.
    tiles = []
    for a, b in board.tiles:
        if a in state["forest"] and b in state["forest"]:
            (xa, ya), (xb, yb) = cell_xy(a), cell_xy(b)
            tiles.append(
                {
                    "x1": xa * CELL + 30 + CELL // 2,
                    "y1": ya * CELL + 30 + CELL // 2,
                    "x2": xb * CELL + 30 + CELL // 2,
                    "y2": yb * CELL + 30 + CELL // 2,
                    "title": _("forest tile {first}/{second}", first=a, second=b),
                }
            )
    # The market's spaces as one box: a trade's form opens over it (templates/play/_pieces.html).
    xs, ys = zip(*(cell_xy(cell) for cell in board.market), strict=True)
    market = {
        "x": min(xs) * CELL + 30,
        "y": min(ys) * CELL + 30,
        "w": (max(xs) - min(xs) + 1) * CELL,
        "h": (max(ys) - min(ys) + 1) * CELL,
    }
    marked = {CODES[b["kind"]]: BUILDINGS[b["kind"]].name for b in state["buildings"].values()}
    return {
        "tiles": tiles,
        "market": market,
        "marks": marks,
        "mark_legend": sorted(marked.items()),
        "width": board.columns * CELL + 40,
        "height": board.rows * CELL + 40,
        "rects": rects,
        "edges": edges,
        "labels": labels,
        "captions": captions,
        "districts": district_lines,
        "boats": boats,
        "columns": columns,
        "rows": rows,
        "crops": crops,
    }
