"""Greedy bots with a few styles, used for empty seats and for the balance simulations."""

from __future__ import annotations

from . import geometry as B
from . import moves as M
from . import rules as R
from .data import BOARDS, BOAT, BUILDINGS, CONVERSIONS, PRODUCTS

STYLES = {
    # weights: building, trading, cards, farming
    "balanced": {"build": 1.0, "trade": 1.0, "cards": 1.0, "farm": 1.0},
    "builder": {"build": 1.6, "trade": 0.6, "cards": 0.5, "farm": 0.7},
    "trader": {"build": 0.8, "trade": 1.6, "cards": 0.6, "farm": 1.4},
    "carder": {"build": 0.9, "trade": 0.9, "cards": 2.0, "farm": 0.9},
}

INCOME_VALUE = {"house": 2.0, "manor": 4.0}
UNLOCK_VALUE = {"office": 2.0, "townhall": 2.0}
PRODUCER_VALUE = {"grainfield": 2.5, "pasture": 2.5, "boat": 2.5}


def style_of(state, seat: int) -> dict:
    name = state["options"].get("bot_styles", {}).get(str(seat), "balanced")
    return STYLES.get(name, STYLES["balanced"])


def building_value(state, seat: int, key: str, style: dict) -> float:
    building = BOAT if key == "boat" else BUILDINGS[key]
    value = building.points + INCOME_VALUE.get(key, 0) + UNLOCK_VALUE.get(key, 0)
    value += PRODUCER_VALUE.get(key, 0) * style["farm"]
    if building.stall:
        value += 3.0 * style["trade"]
    if key == "citygate":
        value += 1.0
    value += 0.1 * building.burghers
    if key in ("grainfield", "pasture") and len(R.owned(state, seat, key)) >= 2:
        value -= 2.0
    if key == "boat" and R.boats_of(state, seat) >= 1:
        value -= 1.0
    return value * style["build"] - 0.35 * (building.guilders + building.wood)


def bot_move(state, seat: int, rng) -> dict:
    return bot_choice(state, seat, M.legal_moves(state, seat), rng)


def bot_choice(state, seat: int, moves: list[dict], rng) -> dict:
    """The bot's pick among `moves` (the legal moves, already enumerated)."""
    if len(moves) == 1:
        return moves[0]
    style = style_of(state, seat)
    pending = state["pending"]
    player = state["players"][seat]
    if pending is not None:
        return answer(state, seat, moves, pending, rng)
    phase = state["phase"]
    if phase == "opening_forest":
        return rng.choice(moves)
    if phase == "opening_building":
        houses = [m for m in moves if m["building"] == "house"]
        if houses and rng.random() < 0.6:
            return rng.choice(houses)
        return rng.choice(moves)
    if phase == "choose":
        return choose(state, seat, moves, style, rng)
    char = state["act"]["char"]
    if char == "woodcutter":
        forest = [m for m in moves if m["type"] == "forest"]
        city = [m for m in forest if m["cell"] in BOARDS[state["board"]].city]
        return rng.choice(city if city and rng.random() < 0.5 else forest)
    if char == "builder":
        return build(state, seat, moves, style, rng)
    if char == "farmer":
        return rng.choice(moves)
    if char == "bailiff":
        if state["act"]["part"] == "buy":
            g = player["guilders"]
            want = 0
            if g >= 3 and rng.random() < 0.5 * style["cards"]:
                want = 1
            if g >= 7 and rng.random() < 0.3 * style["cards"]:
                want = 2
            return next((m for m in moves if m["count"] == want), moves[0])
        return play(state, seat, moves, rng)
    if char == "merchant":
        return trade(state, seat, moves, rng)
    return moves[-1]


def answer(state, seat: int, moves: list[dict], pending: dict, rng) -> dict:
    kind = pending["kind"]
    player = state["players"][seat]
    if kind == "proposal":
        share = pending["split"][str(seat)]
        fair = share["points"] * 1.5 >= 0.35 * (share["guilders"] + share["wood"])
        if {"type": "accept"} in moves and fair and rng.random() < 0.85:
            return {"type": "accept"}
        counters = [m for m in moves if m["type"] == "counter"]
        if counters and rng.random() < 0.5:  # the even split, the menu's first counter
            return counters[0]
        return {"type": "decline"}
    if kind == "watch":
        holds = "watch" in player["hand"]
        mine = seat in R.district_residents(state, pending["district"])
        return {"type": "watch"} if holds and mine else {"type": "nowatch"}
    if kind == "tax":
        if "incometax" in player["hand"]:
            income = [
                len(R.owned(state, s, "house")) + 2 * len(R.owned(state, s, "manor"))
                for s in range(state["n"])
            ]
            if income[seat] < max(income):
                return {"type": "tax"}
        return {"type": "notax"}
    if kind == "festival":
        joins = [m for m in moves if m["type"] == "join"]
        return (
            min(joins, key=lambda m: ("game", "grain", "livestock", "fish").index(m["food"]))
            if joins
            else moves[-1]
        )
    if kind == "pledge":
        card = pending["card"]
        g_cost, f_cost = pending["cost"]
        affected = False
        if card == "vikings":
            _, shore = R.viking_targets(state)
            affected = R.boats_of(state, seat) > 0 or any(
                state["buildings"][b]["owner"] == seat for b in shore
            )
        else:
            affected = True
        if not affected:
            return {"type": "pledge", "guilders": 0, "food": []}
        share = -(-g_cost // max(1, len(pending["waiting"])))
        want_g = min(player["guilders"], max(share, g_cost if rng.random() < 0.3 else share))
        best = None
        for m in moves:
            if m["guilders"] <= want_g and (
                best is None
                or (m["guilders"], len(m["food"])) > (best["guilders"], len(best["food"]))
            ):
                best = m
        return best or moves[0]
    return moves[-1]


def choose(state, seat: int, moves: list[dict], style: dict, rng) -> dict:
    player = state["players"][seat]
    scores = []
    for m in moves:
        char = m["character"] if m["character"] != "count" else m["repeat"]
        v = character_value(state, seat, char, style, player)
        if m["character"] == "count":
            v *= 0.8
        scores.append(v + rng.random() * 1.5)
    return moves[max(range(len(moves)), key=lambda i: scores[i])]


def character_value(state, seat: int, char: str, style: dict, player: dict) -> float:
    wood = R.wood_value(player)
    g = player["guilders"]
    if char == "woodcutter":
        return (3.5 if wood < 5 else 1.5) if B.open_forest(state) else 0.0
    if char == "builder":
        return (2.0 + min(g, 6) * 0.4 + min(wood, 6) * 0.3) * style["build"]
    if char == "farmer":
        producers = sum(
            1
            for b in state["buildings"].values()
            if b["owner"] == seat and b["kind"] in ("grainfield", "pasture")
        ) + R.boats_of(state, seat)
        return producers * 1.3 * style["farm"]
    if char == "bailiff":
        return (1.0 + (1.0 if g >= 3 else 0) + 0.5 * len(player["hand"])) * style["cards"]
    if char == "merchant":
        goods = (
            sum(player[p] for p in PRODUCTS) + player["bread"] + player["meat"] + player["smoked"]
        )
        return (0.5 + goods * 0.7) * style["trade"]
    if char == "rentmaster":
        return len(R.owned(state, seat, "house")) + 2 * len(R.owned(state, seat, "manor")) + 1.0
    return 0.0


def builders(move: dict) -> int:
    """How many players build together under a proposal move (the proposer included)."""
    return len(move["seats"]) if "seats" in move else 1 + len(move["partners"])


def build(state, seat: int, moves: list[dict], style: dict, rng) -> dict:
    best, best_value = {"type": "pass"}, 0.2
    by_kind: dict[str, list[dict]] = {}
    for m in moves:
        if m["type"] in ("build", "propose"):
            by_kind.setdefault((m["type"], m["building"]), []).append(m)
    for (kind, key), options in by_kind.items():
        value = building_value(state, seat, key, style)
        if kind == "propose":
            widest = max(builders(o) for o in options)
            options = [o for o in options if builders(o) == widest]
            share = R.move_terms(state, seat, options[0])[seat]
            value = (
                (share["points"] + 1.0) * style["build"]
                - 0.35 * (share["guilders"] + share["wood"])
                + 1.0
            )
        value += rng.random() * 0.8
        if value > best_value:
            best_value = value
            best = rng.choice(options)
    hb = {"type": "play", "card": "housebuilding"}
    if best.get("building") in ("house", "manor") and hb in moves:
        return hb
    return best


def play(state, seat: int, moves: list[dict], rng) -> dict:
    player = state["players"][seat]
    ranked = []
    for m in moves:
        card = m.get("card")
        value = -1.0
        if card in ("gatherer", "knowledge", "boatbuilding"):
            value = 3.0
        elif card == "crime":
            victims = [s for s in R.district_residents(state, m["district"]) if s != seat]
            value = len(victims) * 1.2 - 0.5
            take = "guilders" if sum(state["players"][s]["guilders"] for s in victims) else "wood"
            if m["take"] != take:
                value -= 0.1
        elif card == "midsummer":
            mine = seat in R.district_residents(state, m["district"])
            value = 1.5 + (1.0 if mine else 0) if any(player[p] for p in PRODUCTS) else -1.0
        elif card == "fire":
            owner = state["buildings"][state["cells"][m["target"]]]["owner"]
            value = 1.0 if owner != seat else -2.0
        elif card in ("rottenfish", "locusts", "wolves"):
            mine, theirs = loss_of(state, seat, card)
            value = 0.5 * (theirs - 2 * mine)
        ranked.append((value + rng.random() * 0.3, m))
    value, move = max(ranked, key=lambda x: x[0]) if ranked else (0, {"type": "done"})
    return move if value > 0.5 else {"type": "done"}


def loss_of(state, seat: int, card: str) -> tuple[int, int]:
    mine = theirs = 0
    for s, p in enumerate(state["players"]):
        if card == "rottenfish":
            loss = p["fish"]
        else:
            kind = "grainfield" if card == "locusts" else "pasture"
            loss = sum(b["crop"] for b in R.owned(state, s, kind))
        if s == seat:
            mine += loss
        else:
            theirs += loss
    return mine, theirs


def trade(state, seat: int, moves: list[dict], rng) -> dict:
    player = state["players"][seat]

    def biggest(kind: str, **match) -> dict | None:
        found = [
            m for m in moves if m["type"] == kind and all(m.get(k) == v for k, v in match.items())
        ]
        return max(found, key=lambda m: m.get("count", 1)) if found else None

    for filling in ("meat", "game", "fish"):
        m = biggest("pasty", filling=filling)
        if m:
            return m
    inn_open = "inn" in state["stalls"] and R.stall_slots(state, "inn") > 0
    for good in ("meat", "bread", "smoked", "gamemeat"):
        m = biggest("sell", good=good)
        if m:
            if (
                good == "bread"
                and inn_open
                and player["meat"] + player["smoked"] + player["gamemeat"]
            ):
                continue
            return m
    if inn_open and player["bread"] == 0 and player["grain"]:
        m = biggest("convert", good="grain")
        if m:
            return {**m, "count": 1} if {**m, "count": 1} in moves else m
    m = next((m for m in moves if m["type"] == "sawmill"), None)
    if m and (state["stalls"].get("sawmill") == seat or player["guilders"] >= 2):
        return m
    for good in ("livestock", "game", "grain"):
        stall = CONVERSIONS[good][1]
        keep = 0 if stall not in state["stalls"] else 2
        if player[good] > keep:
            m = biggest("sell", good=good, at="market")
            if m:
                count = player[good] - keep
                return {**m, "count": count}
    if player["wood"] > 9:
        m = next(
            (
                m
                for m in moves
                if m["type"] == "sell" and m["good"] == "wood" and m["count"] == player["wood"] - 6
            ),
            None,
        )
        if m:
            return m
    if player["guilders"] >= 7 and R.wood_value(player) < 3:
        m = next((m for m in moves if m["type"] == "buy" and m["count"] == 2), None)
        if m:
            return m
    return {"type": "done"}
