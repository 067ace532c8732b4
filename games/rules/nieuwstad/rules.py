"""The rules: setup, the opening, rounds of characters, phases, cards, events, the end.

The state is plain JSON. `advance` moves the game on through everything that needs no
decision; every move function checks its preconditions, changes the state and calls it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from functools import cache
from itertools import combinations_with_replacement

from games.engine import IllegalMove

from . import board as B
from .data import (
    BLACK_DEATH_COST,
    BOARDS,
    BOAT,
    BUILDINGS,
    BURGHERS_MIN,
    CARDS,
    CHARACTER_NAMES,
    CHARACTERS,
    CITY_GATE_POINTS_PER_OUTER,
    CONVERSIONS,
    CRUSADE_BURGHERS,
    DARK_SEALS,
    DIR_NAMES,
    DISTRICT_NAMES,
    END_POINTS,
    FIRE_BURGHERS,
    FOREST_NAMES,
    FOREST_REMOVED_2P,
    FOREST_TILES,
    FOREST_YIELD,
    GOOD_NAMES,
    GOODS,
    LIGHT_SEALS,
    LOOSE_BOATS,
    PASTIES,
    PRODUCTS,
    REMOVED_2P,
    ROUND_LIMIT,
    SALE_PRICES,
    SAWMILL_WOOD,
    STALL_SLOTS,
    START_GUILDERS,
    STARTING_BUILDINGS,
    UNLOCKED_BY,
    VIKING_BURGHERS,
    Building,
    deck_for,
)

# --- setup ------------------------------------------------------------------------------


def new_player(players: int) -> dict:
    player = dict(_new_player(players))  # the keys in the template's order
    player["hand"] = []  # a list of its own
    return player


@cache
def _new_player(players: int) -> dict:  # copied by new_player, never changed
    player = {"guilders": START_GUILDERS, "points": 0, "hand": [], "knowledge": False}
    for good in GOODS:
        player[good] = 0
    player["light"] = LIGHT_SEALS[players]
    player["dark"] = DARK_SEALS
    return player


# What a setup starts from, per player count: worked out once (every replay sets up).
@cache
def _forest_tiles(n: int) -> tuple[str, ...]:
    tiles: list[str] = []
    for kind, count in FOREST_TILES.items():
        tiles += [kind] * (count - (FOREST_REMOVED_2P[kind] if n == 2 else 0))
    return tuple(tiles)


@cache
def _supply(n: int) -> dict[str, int]:  # copied by setup, never changed
    return {k: b.count - (REMOVED_2P.get(k, 0) if n == 2 else 0) for k, b in BUILDINGS.items()}


def setup(names: list[str], options: dict, rng, ruleset: int = 1) -> dict:
    n = len(names)
    board = BOARDS["small" if n == 2 else "large"]
    tiles = list(_forest_tiles(n))
    rng.shuffle(tiles)
    forest = {}
    for (a, b), kind in zip(board.tiles, tiles, strict=False):  # 3 left over, unseen
        forest[a] = forest[b] = kind
    supply = dict(_supply(n))
    deck = deck_for(n)
    rng.shuffle(deck)
    state = {
        "names": list(names),
        "n": n,
        "options": dict(options),
        "board": board.key,
        "round": 1,
        "start": 0,  # the eldest player: seat 0 [rulebook setup 7]
        "players": [new_player(n) for _ in range(n)],
        "forest": forest,
        "cells": {},
        "buildings": {},
        "next_id": 1,
        "supply": supply,
        "boats": [None] * board.boat_spots,
        "loose_boats": [],
        "burghers": BURGHERS_MIN,
        "deck": deck,
        "discard": [],
        "stalls": {},
        "slots": {},
        "phase": "opening_forest",
        "order": list(range(n)),
        "idx": 0,
        "picks": [],
        "pick": 0,
        "chosen": [],
        "act": None,
        "pending": None,
        "news": [],
        "final": None,
    }
    if ruleset > 1:  # version 1 states carry no key, so their stored digests still match
        state["ruleset"] = ruleset
    return state


# --- small helpers ----------------------------------------------------------------------


def ruleset(state) -> int:
    """The rules version the match was created with (docs/rules/nieuwstad.md, section 7).

    1: the first release. 2: the rulebook's rulings (end check before income, the Farmer in
    the rulebook's order, Birth Waves count Houses in the city, free negotiation, every card
    holder asked in the Bailiff's play step)."""
    return state.get("ruleset", 1)


def name(state, seat: int) -> str:
    return state["names"][seat]


# A move's narration goes to state["news"], which `play` starts afresh. A replayed move
# whose news nobody reads (`play` not narrating) has None there: its narration is not
# written, and the calls below whose text takes work to build are skipped by their callers
# (`if state["news"] is not None:`).


def say(state, text: str) -> None:
    """Record public narration."""
    news = state["news"]
    if news is not None:
        news.append({"all": text})


def say_to(state, text: str, seat: int, own: str) -> None:
    """Record narration: public `text`; `own` replaces it for `seat` alone."""
    news = state["news"]
    if news is not None:
        news.append({"all": text, "seat": seat, "own": own})


# The seats clockwise from each seat, per player count: most moves ask for them.
# CLOCKWISE[n][first]: indexed, not keyed by a pair, as no pair need be built to look up.
CLOCKWISE = [[tuple((first + i) % n for i in range(n)) for first in range(n)] for n in range(5)]


def clockwise(state, first: int) -> list[int]:
    return list(CLOCKWISE[state["n"]][first])


def wood_value(player: dict) -> int:
    return player["wood"] + 2 * player["plank"]


def pay_wood(player: dict, amount: int) -> None:
    """Pay wood, planks counting 2 [rulebook Sawmill]: planks first without overpaying."""
    planks = min(player["plank"], amount // 2)
    player["plank"] -= planks
    amount -= 2 * planks
    loose = min(player["wood"], amount)
    player["wood"] -= loose
    amount -= loose
    if amount > 0:  # one more plank, its spare half is lost
        player["plank"] -= 1


def change_burghers(state, delta: int) -> int:
    """Move the magistrate; never below 5 [rulebook Burghers track]. Returns the change."""
    before = state["burghers"]
    state["burghers"] = max(BURGHERS_MIN, before + delta)
    return state["burghers"] - before


def gain_points(player: dict, points: int) -> None:
    player["points"] = max(0, player["points"] + points)


def built(state, kind: str) -> bool:
    for b in state["buildings"].values():
        if b["kind"] == kind:
            return True
    return False


def house_counts(state) -> list[int]:
    """Per seat: own Houses + 2 x own Manor houses (income and rent)."""
    counts = [0] * state["n"]
    for b in state["buildings"].values():  # every round: the kind tested once
        kind = b["kind"]
        if kind == "house":
            if b["owner"] is not None:
                counts[b["owner"]] += 1
        elif kind == "manor" and b["owner"] is not None:
            counts[b["owner"]] += 2
    return counts


def owned(state, seat: int, kind: str) -> list[dict]:
    return [b for b in state["buildings"].values() if b["owner"] == seat and b["kind"] == kind]


def boats_of(state, seat: int) -> int:
    return state["boats"].count(seat) + state["loose_boats"].count(seat)


def privilege_count(state, seat: int) -> int:
    """1, or 2 with Knowledge is Power face up [card]."""
    return 2 if state["players"][seat]["knowledge"] else 1


def hand_card_counts(player: dict) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in player["hand"]:
        counts[card] = counts.get(card, 0) + 1
    return counts


@cache
def _deck_count(players: int, card: str) -> int:
    return deck_for(players).count(card)


def unplayed_copies(state, card: str) -> int:
    """Copies of `card` that may still sit in someone's hand, as everyone can count them."""
    return _deck_count(state["n"], card) - state["discard"].count(card)


def district_residents(state, district: str) -> list[int]:
    """Players with a seal on a building (even partly) in the district."""
    cells = BOARDS[state["board"]].districts[district]
    seats = set()
    for cell in cells:
        bid = state["cells"].get(cell)
        if bid is not None and state["buildings"][bid]["owner"] is not None:
            seats.add(state["buildings"][bid]["owner"])
    return sorted(seats)


def prison_districts(state) -> set[str]:
    result: set[str] = set()
    for b in state["buildings"].values():
        if b["kind"] == "prison":
            result |= B.district_of(state, b["cells"])
    return result


def houses_on_board(state) -> int:
    """Houses and Manor houses the Birth Waves count. Version 2 counts those "in the city"
    [rulebook Events], read as the Building rules read it: the inner area, not the outer
    area (the same reading as the Black Death and the Vikings)."""
    houses = [b for b in state["buildings"].values() if b["kind"] in ("house", "manor")]
    if ruleset(state) < 2:
        return len(houses)
    area = B.geometry(state["board"]).area
    return sum(1 for b in houses if area[b["cells"][0]] == "city")


# --- flow -------------------------------------------------------------------------------


def to_act(state) -> list[int]:
    if state["phase"] == "over":
        return []
    pending = state["pending"]
    if pending is not None:
        return [s for s in pending["waiting"] if str(s) not in pending["answers"]]
    return [current_seat(state)]


def current_seat(state) -> int:
    if state["phase"] in ("opening_forest", "opening_building"):
        return state["order"][state["idx"]]
    if state["phase"] == "choose":
        return state["picks"][state["pick"]]
    return state["act"]["order"][state["act"]["idx"]]


def start_round(state) -> None:
    n = state["n"]
    start = state["start"]
    if n == 2:
        state["picks"] = [start, 1 - start, start, 1 - start]
    else:
        state["picks"] = clockwise(state, start)
    state["pick"] = 0
    state["chosen"] = []
    state["phase"] = "choose"
    state["act"] = None


def available_characters(state) -> list[str]:
    result = []
    for key in CHARACTERS:
        if key in state["chosen"]:
            continue
        if key in UNLOCKED_BY and not built(state, UNLOCKED_BY[key]):
            continue
        if key == "count" and not [c for c in state["chosen"] if c != "count"]:
            continue
        result.append(key)
    return result


def advance(state) -> None:
    """Run the game on until somebody owes a decision."""
    while state["pending"] is None:
        phase = state["phase"]
        if phase == "act":  # after most moves: tested first
            act = state["act"]
            order = act["order"]
            idx = act["idx"]
            char = act["char"]
            if char == "farmer":  # its actors who choose nothing produce at once
                if idx < len(order) and not farm_unasked(state, act):
                    return
                idx = len(order)
            while idx < len(order):  # skipping an actor asks nobody
                if not skip_actor(state, act, char, order[idx]):
                    return
                idx += 1
                act["idx"] = idx
                act["turn"] = {}
            finish_phase(state)
        elif phase == "choose":
            if state["pick"] < len(state["picks"]):
                return
            end_round(state)
        elif phase == "over":
            return
        elif phase == "opening_forest":
            if state["idx"] >= len(state["order"]):
                last = state["order"][-1]
                state["order"] = [(last - i) % state["n"] for i in range(state["n"])]
                state["idx"] = 0
                state["phase"] = "opening_building"
            elif not B.any_forest_open(state):
                state["idx"] += 1
            else:
                return
        elif phase == "opening_building":
            if state["idx"] >= len(state["order"]):
                start_round(state)
            elif not any_starting_option(state):
                if state["news"] is not None:
                    say(state, f"{name(state, state['order'][state['idx']])} found no room.")
                state["idx"] += 1
            else:
                return
        else:
            raise AssertionError(f"unknown phase {phase}")


def skip_actor(state, act: dict, char: str, seat: int) -> bool:
    """Actors who cannot act are skipped [rulebook Course of play]; automatic actions run.
    `char`: act["char"], which the caller has read."""
    if char == "builder":
        return state["players"][seat]["light"] == 0 and not can_propose_any(state, seat)
    if char == "merchant":
        if act["privilege"] and seat == act["chooser"] and not act["turn"].get("paid"):
            act["turn"]["paid"] = True
            bonus = privilege_count(state, seat)
            state["players"][seat]["guilders"] += bonus
            if state["news"] is not None:
                say(state, f"{name(state, seat)} received {bonus} guilder(s) as Merchant.")
        return not can_trade(state, seat)
    if char == "woodcutter":
        return not B.any_forest_open(state)
    if char == "bailiff":
        player = state["players"][seat]
        if act["part"] == "buy":
            if act["privilege"] and seat == act["chooser"] and not act["turn"].get("paid"):
                act["turn"]["paid"] = True
                bonus = privilege_count(state, seat)
                player["guilders"] += bonus
                if state["news"] is not None:
                    say(state, f"{name(state, seat)} received {bonus} guilder(s) as Bailiff.")
            return player["guilders"] < 1 or not state["deck"]
        return not player["hand"] or act["turn"].get("played", 0) >= 2
    return False  # the Farmer's actors: see farm_unasked


def privileged(state, seat: int) -> bool:
    act = state["act"]
    return act["privilege"] and seat == act["chooser"]


def begin_phase(state, char: str, chooser: int, privilege: bool) -> None:
    state["phase"] = "act"
    state["act"] = {
        "char": char,
        "chooser": chooser,
        "privilege": privilege,
        "order": list(CLOCKWISE[state["n"]][chooser]),  # clockwise(), written out
        "idx": 0,
        "part": "buy" if char == "bailiff" else "",
        "turn": {},
        "proposed": [],
    }
    if char == "merchant":
        state["slots"] = {}
    if char == "rentmaster":
        counts = house_counts(state)
        for seat in range(state["n"]):
            player = state["players"][seat]
            rent = counts[seat]
            if seat == chooser and privilege:
                rent += privilege_count(state, seat)
            if rent:
                gain_points(player, rent)
                if state["news"] is not None:
                    say(state, f"{name(state, seat)} collected {rent} point(s) of rent.")
        state["act"]["idx"] = len(state["act"]["order"])


def finish_phase(state) -> None:
    act = state["act"]
    char = act["char"]
    if char == "bailiff" and act["part"] == "buy":
        act["part"] = "play"
        act["idx"] = 0
        act["turn"] = {}
        return
    if char == "merchant":
        state["slots"] = {}  # [rulebook] tokens leave the Market and stalls
    state["phase"] = "choose"
    state["act"] = None
    state["pick"] += 1


def next_actor(state) -> None:
    act = state["act"]
    act["idx"] += 1
    act["turn"] = {}


# --- end of a round ---------------------------------------------------------------------


def game_ends(state) -> bool:
    """Someone has 30 or more points, cards and City Gates included [rulebook End of the
    Game], or the round limit [design] is reached."""
    if state["round"] >= ROUND_LIMIT:
        return True
    # Asked every round: total_points's first case (no card in hand, no City Gate built)
    # read here without a call per seat.
    no_gate = state["supply"]["citygate"] >= BUILDINGS["citygate"].count
    for seat, player in enumerate(state["players"]):
        if no_gate and not player["hand"]:
            if player["points"] >= END_POINTS:
                return True
        elif total_points(state, seat) >= END_POINTS:
            return True
    return False


def end_round(state) -> None:
    # Version 2: "If someone has 30 or more points, the game ends. If this is not the case,
    # play continues and a new round is prepared" [rulebook End of a Round] - and income
    # belongs to Preparing a New Round, so the check comes first and the last round pays none.
    if ruleset(state) >= 2 and game_ends(state):
        finish_game(state)
        return
    if unplayed_copies(state, "incometax") > 0:
        players = state["players"]
        holders = []  # a loop over CLOCKWISE, no list copied nor comprehension's frame
        for s in CLOCKWISE[state["n"]][state["start"]]:
            if players[s]["hand"]:
                holders.append(s)
        if holders:
            state["pending"] = {"kind": "tax", "waiting": holders, "answers": {}}
            return
    pay_income(state, taxed=False)


def pay_income(state, taxed: bool) -> None:
    if not taxed:
        counts = house_counts(state)
        for seat in range(state["n"]):
            income = counts[seat]
            if income:
                state["players"][seat]["guilders"] += income
                if state["news"] is not None:
                    say(state, f"{name(state, seat)} received {income} guilder(s) income.")
    if ruleset(state) < 2 and game_ends(state):  # version 1 checked after income
        finish_game(state)
        return
    state["start"] = (state["start"] + 1) % state["n"]
    state["round"] += 1
    if state["news"] is not None:
        say(state, f"Round {state['round']}: {name(state, state['start'])} is the starting player.")
    start_round(state)


def card_points(state, seat: int) -> dict[str, int]:
    """Points of the end-of-game cards and buildings [rulebook End of the game]."""
    player = state["players"][seat]
    found: dict[str, int] = {}
    for card in player["hand"]:
        if card == "neighbourhood":
            value = player["guilders"] // 3
        elif card == "woodfestival":
            value = wood_value(player) // 3
        elif card == "painting":
            value = 3
        elif card == "statue":
            value = 4
        elif card == "districtparty":
            value = best_district_party(state, seat)
        else:
            continue
        found[card] = found.get(card, 0) + value
    # Every City Gate is in the supply until one is built (a removed building goes back):
    # only then is the board searched for the seat's. The end check runs every round.
    gates = []
    if state["supply"]["citygate"] < BUILDINGS["citygate"].count:
        gates = owned(state, seat, "citygate")
    if gates:
        geo = B.geometry(state["board"])
        outer = sum(
            1
            for b in state["buildings"].values()
            if b["owner"] == seat and geo.area[b["cells"][0]] == "country"
        )
        found["citygate"] = len(gates) * outer * CITY_GATE_POINTS_PER_OUTER
    return found


def best_district_party(state, seat: int) -> int:
    built_on, buildings = state["cells"], state["buildings"]
    best = 0
    for cells in BOARDS[state["board"]].districts.values():
        mine = set()  # the seat's buildings in the district (a 2-space one counts once)
        full = True
        for c in cells:
            bid = built_on.get(c)
            if bid is None:
                full = False
            elif buildings[bid]["owner"] == seat:
                mine.add(bid)
        value = len(mine) + (3 if full else 0)
        if value > best:
            best = value
    return best


def total_points(state, seat: int) -> int:
    player = state["players"][seat]
    if not player["hand"] and state["supply"]["citygate"] >= BUILDINGS["citygate"].count:
        return player["points"]  # no card in hand, no City Gate built: card_points is {}
    return player["points"] + sum(card_points(state, seat).values())


def finish_game(state) -> None:
    details = {str(s): card_points(state, s) for s in range(state["n"])}
    scores = [p["points"] + sum(details[str(s)].values()) for s, p in enumerate(state["players"])]
    # Ties [design; the rulebook is silent]: more guilders, then a shared place.
    ranking = sorted(
        range(state["n"]), key=lambda s: (-scores[s], -state["players"][s]["guilders"])
    )
    state["phase"] = "over"
    state["pending"] = None
    state["final"] = {"scores": scores, "ranking": ranking, "cards": details}
    if state["news"] is not None:
        say(
            state,
            "The game is over: " + ", ".join(f"{name(state, s)} {scores[s]}" for s in ranking),
        )


# --- the opening ------------------------------------------------------------------------


def starting_options(state, seat: int) -> list[dict]:
    moves = []
    for key in STARTING_BUILDINGS:
        if key == "boat":
            if None in state["boats"]:
                moves.append({"type": "build", "building": "boat", "cells": [], "facing": None})
            continue
        if state["supply"][key] <= 0:
            continue
        for cells, facing in B.placements(state, BUILDINGS[key]):
            moves.append({"type": "build", "building": key, "cells": cells, "facing": facing})
    return moves


def any_starting_option(state) -> bool:
    """bool(starting_options(...)) (the same for every seat), trying the Boat first."""
    if None in state["boats"]:
        return True
    return any(
        state["supply"][key] > 0 and B.placements(state, BUILDINGS[key])
        for key in STARTING_BUILDINGS
        if key != "boat"
    )


def take_forest(state, seat: int, cell: str, checked: bool = True) -> None:
    if not isinstance(cell, str) or cell not in state["forest"]:
        raise IllegalMove(f"There is no forest tile at {cell}.")
    if checked and not B.forest_open(state, cell):
        raise IllegalMove(
            f"The forest at {cell} cannot be reached: take a tile in the outer area, or in "
            "the city next to the Market or the open area."
        )
    forest = state["forest"]
    geo = B.geometry(state["board"])
    tile = forest.pop(cell)
    del forest[geo.partner[cell]]
    bonus = 0
    if state["phase"] == "act":
        act = state["act"]
        if act["privilege"] and seat == act["chooser"]:  # privileged(), written out
            bonus = privilege_count(state, seat)
    gains, got = forest_gains(tile, bonus)
    player = state["players"][seat]
    for good, amount in gains:
        player[good] += amount
    if state["news"] is not None:
        say(
            state,
            f"{name(state, seat)} cleared the forest at {geo.tile_first[cell]} "
            f"({FOREST_NAMES[tile]}): +{got}.",
        )


@cache
def forest_gains(tile: str, bonus: int) -> tuple[tuple[tuple[str, int], ...], str]:
    """What a forest tile yields, the Woodcutter's privilege adding `bonus` wood, and how
    the history tells it."""
    gains = dict(FOREST_YIELD[tile])
    if bonus:
        gains["wood"] += bonus
    return tuple(gains.items()), ", ".join(f"{a} {GOOD_NAMES[g]}" for g, a in gains.items())


# --- building ---------------------------------------------------------------------------


def discount_options(state, seat: int, building: Building) -> list[str]:
    """The Master Builder's privilege: 1 guilder or 1 wood off (twice with Knowledge)."""
    if state["phase"] != "act" or not privileged(state, seat):
        return [""]
    g, w = base_cost(state, building)
    k = privilege_count(state, seat)
    found: dict[tuple[int, int], str] = {}
    for letters in combinations_with_replacement("gw", k):
        dg = min(g, letters.count("g"))
        dw = min(w, letters.count("w"))
        found.setdefault((dg, dw), "g" * dg + "w" * dw)
    best = max(dg + dw for dg, dw in found)
    return [s for (dg, dw), s in found.items() if dg + dw == best]


def base_cost(state, building: Building) -> tuple[int, int]:
    g, w = building.guilders, building.wood
    act = state["act"]
    if act and act["turn"].get("housebuilding") and building.key in ("house", "manor"):
        g, w = max(0, g - 2), max(0, w - 2)  # [card House Building]
    return g, w


def cost_after(state, building: Building, discount: str) -> tuple[int, int]:
    g, w = base_cost(state, building)
    if not discount:  # most builds: the costs are never below 0
        return g, w
    return max(0, g - discount.count("g")), max(0, w - discount.count("w"))


def can_afford(player: dict, g: int, w: int) -> bool:
    return player["guilders"] >= g and wood_value(player) >= w


def build_error(state, seat: int, building: Building) -> str:
    """Why `seat` may not build this kind alone now (payment aside)."""
    player = state["players"][seat]
    if building.colour == "blue" and not blue_alone(state):
        return (
            f"The {building.name} is a community building: propose it to the others "
            "('propose ... with NAME')."
        )
    if building.colour != "blue" and player["light"] <= 0:
        return "You have no light seals left, so you can no longer build."
    if building.key == "boat":
        return "" if None in state["boats"] else "Both Boats on the lake are taken."
    if state["supply"].get(building.key, 0) <= 0:
        return f"No {building.name} is left to build."
    if building.stall and player["dark"] <= 0:
        return f"You have no dark seal left to mark the {building.name}'s market stall."
    return ""


def buildings_not_open(state, seat: int) -> list[tuple[str, str]]:
    """Each kind `seat` cannot build alone now, and why: the rule that forbids it, the price
    against the purse, or no space where it may stand (the builder's choices are the rest)."""
    player = state["players"][seat]
    closed = []
    memo: dict = {}
    for key, building in list(BUILDINGS.items()) + [("boat", BOAT)]:
        why = build_error(state, seat, building)
        if not why and not any(
            can_afford(player, *cost_after(state, building, d))
            for d in discount_options(state, seat, building)
        ):
            from .reference import plural  # (reference reads the rules: imported late)

            g, w = base_cost(state, building)
            why = (
                f"It costs {plural(g, 'guilder')} + {w} wood; you have "
                f"{plural(player['guilders'], 'guilder')} and {wood_value(player)} wood "
                "(a plank counts 2)."
            )
        if not why and key != "boat" and not B.placements(state, building, memo):
            why = "There is no free space where it may stand."
        if why:
            closed.append((building.name, why))
    return closed


def blue_alone(state) -> bool:
    return bool(state["options"].get("blue_alone")) and state["n"] == 2


# What a builder may build alone, in the order the menu lists it.
BUILDABLE = (*BUILDINGS.items(), ("boat", BOAT))


def can_play_housebuilding(state, seat: int) -> bool:
    return "housebuilding" in state["players"][seat]["hand"] and not state["act"]["turn"].get(
        "housebuilding"
    )


def builder_moves(state, seat: int) -> list[dict]:
    moves: list[dict] = []
    memo: dict = {}
    player = state["players"][seat]
    if can_play_housebuilding(state, seat):
        moves.append({"type": "play", "card": "housebuilding"})
    for key, building in BUILDABLE:
        if build_error(state, seat, building):
            continue
        options = [
            d
            for d in discount_options(state, seat, building)
            if can_afford(player, *cost_after(state, building, d))
        ]
        if not options:
            continue
        spots = [([], None)] if key == "boat" else B.placements(state, building, memo)
        for cells, facing in spots:
            for d in options:
                moves.append(
                    {
                        "type": "build",
                        "building": key,
                        "cells": cells,
                        "facing": facing,
                        "discount": d,
                    }
                )
    moves += proposal_moves(state, seat, memo)
    moves.append({"type": "pass"})
    return moves


def builder_has_choice(state, seat: int) -> bool:
    """Whether `builder_moves` lists more than "pass" (the card, a build or a proposal),
    stopping at the first it finds: the driver asks after every move."""
    if can_play_housebuilding(state, seat):
        return True
    player = state["players"][seat]
    for key, building in BUILDABLE:
        if build_error(state, seat, building) or not any(
            can_afford(player, *cost_after(state, building, d))
            for d in discount_options(state, seat, building)
        ):
            continue
        if key == "boat" or B.has_placement(state, building):
            return True
    return any_proposal(state, seat)


def only_move(state, seat: int) -> dict | None:
    """The one move `legal_moves` lists for `seat`, or None when it lists several or none;
    for a builder without listing the proposals, which can be hundreds."""
    if (
        state["pending"] is None
        and state["phase"] not in ("opening_forest", "opening_building", "choose")
        and seat in to_act(state)
        and state["act"]["char"] == "builder"
    ):
        return None if builder_has_choice(state, seat) else {"type": "pass"}
    moves = legal_moves(state, seat)
    return moves[0] if len(moves) == 1 else None


def check_build(
    state, seat: int, move: dict, free: bool, checked: bool = True
) -> tuple[Building, list[str], str | None]:
    key = move.get("building")
    building = BOAT if key == "boat" else BUILDINGS.get(key)
    if building is None:
        raise IllegalMove(f"There is no building called {key}.")
    cells = move.get("cells") or []
    facing = move.get("facing")
    if free:
        if key not in STARTING_BUILDINGS:
            raise IllegalMove("Choose a starting building: a House, a Grain field or a Boat.")
    elif checked:
        error = build_error(state, seat, building)
        if error:
            raise IllegalMove(error)
    if key == "boat":
        if None not in state["boats"]:
            raise IllegalMove("Both Boats on the lake are taken.")
        if cells or facing is not None:
            raise IllegalMove("A Boat goes on the lake: name no spaces and no facing.")
        return building, [], None
    if free and state["supply"][key] <= 0:
        raise IllegalMove(f"No {building.name} is left.")
    cells, facing = check_place(state, building, cells, facing, checked)
    return building, cells, facing


def logged_build(state, move: dict) -> tuple[Building, list[str], str | None]:
    """What `check_build` returns for a logged build (not `checked`), without the calls
    that could only refuse it: the builds are most of a replay's moves."""
    key = move["building"]
    if key == "boat":
        return BOAT, [], None
    cells = B.sort_spaces(move["cells"])
    facing = move.get("facing")
    if B.geometry(state["board"]).area[cells[0]] == "country":
        facing = None  # as check_place keeps it
    return BUILDINGS[key], cells, facing


def check_place(
    state, building: Building, cells, facing, checked: bool = True
) -> tuple[list[str], str | None]:
    """The spaces and facing of a building as the state keeps them (sorted; no facing in the
    outer area), or IllegalMove saying what is wrong with the place (unless not `checked`:
    a logged move's place was checked when it was made)."""
    geo = B.geometry(state["board"])
    if checked:
        if not isinstance(cells, list) or len(cells) != building.size:
            raise IllegalMove(f"The {building.name} covers {building.size} space(s).")
        for cell in cells:
            if not isinstance(cell, str) or cell not in geo.area:
                raise IllegalMove(f"{str(cell)[:10] or 'That'} is not a space on this board.")
        if facing is not None and facing not in DIR_NAMES:
            raise IllegalMove("A building faces north, east, south or west (N, E, S or W).")
    cells = B.sort_spaces(cells)
    # A building stands wholly in one area (placement_error refuses it otherwise, whatever
    # the facing): its first space tells which.
    if geo.area.get(cells[0]) == "country":
        facing = None
    if checked:
        error = B.placement_error(state, building, cells, facing)
        if error:
            raise IllegalMove(error)
    return cells, facing


def place(state, seat: int | None, building: Building, cells: list[str], facing) -> None:
    """Put a building on the board with its owner's seals."""
    if building.key == "boat":
        state["boats"][state["boats"].index(None)] = seat
        state["players"][seat]["light"] -= 1
        return
    bid = f"b{state['next_id']}"
    state["next_id"] += 1
    state["buildings"][bid] = {
        "kind": building.key,
        "cells": cells,
        "facing": facing,
        "owner": seat,
        "crop": 0,
    }
    for cell in cells:
        state["cells"][cell] = bid
    state["supply"][building.key] -= 1
    if building.colour == "blue":
        state["buildings"][bid]["owner"] = None  # it belongs to the city [rulebook]
    elif seat is not None:
        state["players"][seat]["light"] -= 1
        if building.stall:
            state["players"][seat]["dark"] -= 1
    if building.stall:
        state["stalls"][building.key] = seat  # the specialist joins the Market


def where(cells: list[str], facing) -> str:
    if not cells:
        return "on the lake"
    text = "at " + "+".join(cells)
    if facing:
        text += f" facing {DIR_NAMES[facing]}"
    return text


def build_start(state, seat: int, move: dict, checked: bool = True) -> None:
    if checked:
        building, cells, facing = check_build(state, seat, move, free=True)
    else:  # a logged starting building: the place was checked when it was made
        building, cells, facing = logged_build(state, move)
    place(state, seat, building, cells, facing)
    if state["news"] is not None:
        say(state, f"{name(state, seat)} placed a starting {building.name} {where(cells, facing)}.")
    state["idx"] += 1


def check_discount(state, seat: int, building: Building, discount: str) -> None:
    options = discount_options(state, seat, building)
    if discount not in options:
        if options == [""]:
            raise IllegalMove("Only the player who chose the Master Builder has a discount.")
        raise IllegalMove(
            "Choose your Master Builder discount: "
            + " or ".join(
                " and ".join(
                    f"{d.count(c)} {w}" for c, w in (("g", "guilder"), ("w", "wood")) if c in d
                )
                for d in options
            )
            + "."
        )


def build(state, seat: int, move: dict, checked: bool = True) -> None:
    if checked:
        building, cells, facing = check_build(state, seat, move, free=False)
    else:
        building, cells, facing = logged_build(state, move)
    player = state["players"][seat]
    discount = move.get("discount", "")
    if checked:
        check_discount(state, seat, building, discount)
    g, w = cost_after(state, building, discount)
    if checked and not can_afford(player, g, w):
        raise IllegalMove(
            f"The {building.name} costs {g} guilders and {w} wood; you have "
            f"{player['guilders']} guilders and {wood_value(player)} wood."
        )
    player["guilders"] -= g
    pay_wood(player, w)
    place(state, seat, building, cells, facing)
    moved = change_burghers(state, building.burghers)
    gain_points(player, building.points)
    if state["news"] is not None:
        say(  # "a Office": put right in the history (text.worded), as the "acceptd" below
            state,
            f"{name(state, seat)} built a {building.name} {where(cells, facing)} for {g} g and "
            f"{w} wood: {building.points} point(s), Burghers {moved:+d}.",
        )
    next_actor(state)


# --- community buildings and joint building (proposals) ---------------------------------


def proposable(state, seat: int, building: Building) -> bool:
    if building.key == "boat":
        return False
    if state["supply"].get(building.key, 0) <= 0:
        return False
    if building.colour == "blue":
        return True
    if not state["options"].get("joint"):
        return False
    player = state["players"][seat]
    return player["light"] > 0 and (not building.stall or player["dark"] > 0)


def shares(state, seat: int, building: Building, partners: list[int]) -> dict[int, dict]:
    """Even split of cost and points; the proposer pays and takes the remainders."""
    return split_evenly([seat, *partners], even_cost(state, seat, building), building.points)


def even_cost(state, seat: int, building: Building) -> tuple[int, int]:
    """What the even split shares out: the cost after the Master Builder's discount, taken
    in guilders first."""
    discount = ""
    if state["phase"] == "act" and privileged(state, seat):
        k = privilege_count(state, seat)
        g, w = base_cost(state, building)
        dg = min(g, k)
        discount = "g" * dg + "w" * min(w, k - dg)
    return cost_after(state, building, discount)


def split_evenly(people: list[int], cost: tuple[int, int], points: int) -> dict[int, dict]:
    """`shares` for a cost already worked out: the first of `people` takes the remainders."""
    g, w = cost
    k = len(people)
    result = {}
    for i, s in enumerate(people):
        result[s] = {
            "guilders": g // k + (g % k if i == 0 else 0),
            "wood": w // k + (w % k if i == 0 else 0),
            "points": points // k + (points % k if i == 0 else 0),
        }
    return result


def allowed_costs(state, proposer: int, building: Building) -> list[tuple[int, int]]:
    """The totals a proposal's shares may add up to: one per discount the proposer may take."""
    return [cost_after(state, building, d) for d in discount_options(state, proposer, building)]


def partner_sets(state, seat: int) -> list[list[int]]:
    others = [s for s in clockwise(state, seat)[1:]]
    sets: list[list[int]] = []
    for mask in range(1, 1 << len(others)):
        sets.append([s for i, s in enumerate(others) if mask >> i & 1])
    return sets


# The community (blue) buildings: the only ones proposed unless the match plays "joint".
COMMUNITY_BUILDINGS = tuple(b for b in BUILDINGS.values() if b.colour == "blue")


def can_propose_any(state, seat: int) -> bool:
    if seat in state["act"]["proposed"]:
        return False
    kinds = BUILDINGS.values() if state["options"].get("joint") else COMMUNITY_BUILDINGS
    return any(proposable(state, seat, b) for b in kinds)


def menu_partners(state, seat: int, building: Building) -> Iterator[tuple[list[int], dict]]:
    """Each partner set the menu proposes `building` with, clockwise, and the terms it names:
    version 1 the even split, which everyone must afford; version 2 `menu_split`. One at a
    time, so that `any_proposal` stops at the first."""
    if ruleset(state) >= 2:
        costs = even_cost(state, seat, building), allowed_costs(state, seat, building)
        for partners in partner_sets(state, seat):
            split = menu_split(state, seat, building, partners, costs)
            if split is not None:
                yield partners, split
        return
    cost = even_cost(state, seat, building)
    players = state["players"]
    for partners in partner_sets(state, seat):
        split = split_evenly([seat, *partners], cost, building.points)
        if all(can_afford(players[s], d["guilders"], d["wood"]) for s, d in split.items()):
            yield partners, split


def proposal_moves(state, seat: int, memo: dict | None = None) -> list[dict]:
    if seat in state["act"]["proposed"]:
        return []
    moves = []
    named = ruleset(state) >= 2  # version 2 moves name the terms; version 1 the partners
    for key, building in BUILDINGS.items():
        if not proposable(state, seat, building):
            continue
        spots = None
        for partners, split in menu_partners(state, seat, building):
            if spots is None:
                spots = B.placements(state, building, memo)
                if not spots:
                    break
            if not named:
                for cells, facing in spots:
                    moves.append(
                        {
                            "type": "propose",
                            "building": key,
                            "cells": cells,
                            "facing": facing,
                            "partners": partners,
                        }
                    )
                continue
            seats = list(split)
            guilders = [d["guilders"] for d in split.values()]
            wood = [d["wood"] for d in split.values()]
            points = [d["points"] for d in split.values()]
            for cells, facing in spots:  # each move its own lists, as terms_fields makes them
                moves.append(
                    {
                        "type": "propose",
                        "building": key,
                        "cells": cells,
                        "facing": facing,
                        "seats": list(seats),
                        "guilders": list(guilders),
                        "wood": list(wood),
                        "points": list(points),
                    }
                )
    return moves


def any_proposal(state, seat: int) -> bool:
    """bool(proposal_moves(...)), stopping at the first proposal found."""
    if seat in state["act"]["proposed"]:
        return False
    return any(
        proposable(state, seat, building)
        and next(menu_partners(state, seat, building), None) is not None
        and B.has_placement(state, building)
        for building in BUILDINGS.values()
    )


# Free negotiation (version 2). "The players may negotiate about everything: how the payment
# is shared, how the victory points are shared, location, and so on" [rulebook Exceptions]:
# a proposal names each partner's guilders, wood and points and the place; partners accept,
# decline or counter (each once per negotiation, so it ends); any decline ends it.

TERMS = ("guilders", "wood", "points")


def terms_fields(split: dict[int, dict]) -> dict:
    """A split as a move's fields: parallel lists in the split's (clockwise) order."""
    seats = list(split)
    return {"seats": seats, **{k: [split[s][k] for s in seats] for k in TERMS}}


def move_terms(state, seat: int, move: dict) -> dict[int, dict]:
    """Who pays and takes what under a proposal move (version 1: the even split)."""
    if "seats" in move:
        return {s: {k: move[k][i] for k in TERMS} for i, s in enumerate(move["seats"])}
    building = BUILDINGS[move["building"]]
    return shares(state, seat, building, move["partners"])


def menu_split(
    state,
    seat: int,
    building: Building,
    partners: list[int],
    costs: tuple[tuple[int, int], list[tuple[int, int]]] | None = None,
) -> dict | None:
    """The terms the menu offers for these partners: the even split if it is within the
    limits, else a split where everyone pays what they can (each at least one guilder or
    wood, the proposer most), so the menu lists a proposal whenever these partners can build
    it together at all. Any other terms may be typed. Keyed clockwise from `seat`, as
    `check_terms` returns them. `costs`: (even_cost, allowed_costs), when the caller asks
    for many partner sets."""
    people = [seat, *partners]
    n = state["n"]
    if not partners or len(set(people)) != len(people) or not all(0 <= s < n for s in partners):
        return None  # terms check_terms refuses, whatever they are
    if costs is None:
        costs = even_cost(state, seat, building), allowed_costs(state, seat, building)
    total, allowed = costs
    players = state["players"]
    even = split_evenly(people, total, building.points)
    if within_limits(players, building, even, allowed):
        return clockwise_terms(state, seat, even)
    points = {s: even[s]["points"] for s in people}
    for cost in allowed:  # one split per discount: the first within the limits
        need = dict(zip(("guilders", "wood"), cost, strict=True))
        have = {
            s: {"guilders": players[s]["guilders"], "wood": wood_value(players[s])} for s in people
        }
        pay = {s: {"guilders": 0, "wood": 0} for s in people}
        for s in [*partners, seat]:  # everyone pays something, partners first
            key = next((k for k in ("guilders", "wood") if need[k] and have[s][k]), None)
            if key is None:
                break
            pay[s][key] += 1
            have[s][key] -= 1
            need[key] -= 1
        for s in people:  # the rest, the proposer first
            for key in ("guilders", "wood"):
                part = min(need[key], have[s][key])
                pay[s][key] += part
                need[key] -= part
        split = {s: {**pay[s], "points": points[s]} for s in people}
        if within_limits(players, building, split, allowed):
            return clockwise_terms(state, seat, split)
    return None


def within_limits(
    players: list[dict], building: Building, split: dict[int, dict], allowed: list[tuple[int, int]]
) -> bool:
    """Whether `check_terms` accepts terms the menu made (distinct seats, the proposer among
    them, no share below 0): they add up to an allowed cost and to the building's points,
    and everyone pays something they can pay."""
    guilders = wood = points = 0
    for s, share in split.items():
        g, w = share["guilders"], share["wood"]
        if not (g or w) or not can_afford(players[s], g, w):
            return False
        guilders += g
        wood += w
        points += share["points"]
    return (guilders, wood) in allowed and points == building.points


def clockwise_terms(state, proposer: int, split: dict[int, dict]) -> dict[int, dict]:
    """A split keyed clockwise from the proposer, as `check_terms` returns it."""
    return {s: split[s] for s in CLOCKWISE[state["n"]][proposer] if s in split}


def named_terms(state, proposer: int, move: dict) -> dict[int, dict]:
    """The shares a proposal or counter-offer names, keyed by seat clockwise from the
    proposer (as they were checked: `check_terms`)."""
    seats = move["seats"]
    guilders, wood, points = move["guilders"], move["wood"], move["points"]
    split = {}
    for s in CLOCKWISE[state["n"]][proposer]:
        if s in seats:
            i = seats.index(s)
            split[s] = {"guilders": guilders[i], "wood": wood[i], "points": points[i]}
    return split


def check_terms(state, proposer: int, building: Building, move: dict) -> dict[int, dict]:
    """The shares a proposal or counter-offer names, checked against the rulebook's limits,
    keyed by seat clockwise from the proposer; or IllegalMove saying what is wrong."""
    seats = move.get("seats")
    if not seats:
        raise IllegalMove("Name who builds together, each with guilders, wood and points.")
    if any(len(move.get(k) or []) != len(seats) for k in TERMS):
        raise IllegalMove("Give each partner's share: guilders, wood and points.")
    if any(s < 0 or s >= state["n"] for s in seats) or len(set(seats)) != len(seats):
        raise IllegalMove("Name each player once, from this game's players.")
    if proposer not in seats or len(seats) < 2:
        raise IllegalMove(
            f"A community building is built together: {name(state, proposer)} and one or "
            "more others."
        )
    split = named_terms(state, proposer, move)
    if any(v < 0 for d in split.values() for v in d.values()):
        raise IllegalMove("Shares are 0 or more guilders, wood and points.")
    paid = (sum(d["guilders"] for d in split.values()), sum(d["wood"] for d in split.values()))
    costs = allowed_costs(state, proposer, building)
    if paid not in costs:
        raise IllegalMove(
            f"The {building.name} costs "
            + " or ".join(f"{g} guilders and {w} wood" for g, w in costs)
            + f"; the shares add up to {paid[0]} guilders and {paid[1]} wood."
        )
    points = sum(d["points"] for d in split.values())
    if points != building.points:
        raise IllegalMove(
            f"The {building.name} gives {building.points} points; the shares add up to {points}."
        )
    for s, d in split.items():
        if not d["guilders"] + d["wood"]:
            raise IllegalMove(
                f"{name(state, s)} pays nothing: a community building is paid for together, "
                "so everyone in it pays some guilders or wood."
            )
        if not can_afford(state["players"][s], d["guilders"], d["wood"]):
            raise IllegalMove(
                f"{name(state, s)} cannot pay {d['guilders']} guilders and {d['wood']} wood."
            )
    return split


def terms_text(state, split: dict) -> str:
    names = state["names"]
    return "; ".join(
        [
            f"{names[int(s)]} pays {d['guilders']} g and {d['wood']} wood for "
            f"{d['points']} point(s)"
            for s, d in split.items()
        ]
    )


def counter_moves(state, seat: int) -> list[dict]:
    """The menu's counter-offer: the menu's terms for these partners (the even split when it
    is within the limits) at the same place, when they differ from the terms on the table.
    Any other terms, or another place, may be typed."""
    pending = state["pending"]
    if seat in pending["countered"]:
        return []
    building = BUILDINGS[pending["building"]]
    proposer = pending["by"]
    partners = [int(s) for s in pending["split"] if int(s) != proposer]
    split = menu_split(state, proposer, building, partners)
    if split is None or split == {int(s): d for s, d in pending["split"].items()}:
        return []
    return [
        {
            "type": "counter",
            "cells": pending["cells"],
            "facing": pending["facing"],
            **terms_fields(split),
        }
    ]


def check_counter(state, seat: int, move: dict) -> None:
    """IllegalMove unless `seat` may make a counter-offer now, to the same partners."""
    pending = state["pending"]
    if ruleset(state) < 2:
        raise IllegalMove("Answer the proposal: 'accept' or 'decline'.")
    if seat in pending["countered"]:
        raise IllegalMove("You made your counter-offer in this negotiation: now accept or decline.")
    if sorted(move.get("seats") or []) != sorted(int(s) for s in pending["split"]):
        raise IllegalMove(
            "A counter-offer keeps the partners: "
            + ", ".join(name(state, int(s)) for s in pending["split"])
            + "."
        )


def counter(state, seat: int, move: dict, checked: bool = True) -> None:
    pending = state["pending"]
    building = BUILDINGS[pending["building"]]
    proposer = pending["by"]
    if checked:
        check_counter(state, seat, move)
        split = check_terms(state, proposer, building, move)
    else:
        split = named_terms(state, proposer, move)
    cells, facing = pending["cells"], pending["facing"]
    if "cells" in move or "facing" in move:
        cells, facing = check_place(
            state, building, move.get("cells") or [], move.get("facing"), checked
        )
    if (
        checked
        and split == {int(s): d for s, d in pending["split"].items()}
        and cells == pending["cells"]
    ):
        raise IllegalMove("Those are the terms on the table: accept them, or change something.")
    pending["countered"].append(seat)
    pending["offered_by"] = seat
    pending["split"] = {str(s): d for s, d in split.items()}
    pending["cells"], pending["facing"] = cells, facing
    pending["waiting"] = [s for s in split if s != seat]
    pending["answers"] = {}
    if state["news"] is not None:
        say(
            state,
            f"{name(state, seat)} made a counter-offer: the {building.name} "
            f"{where(cells, facing)}; {terms_text(state, split)}.",
        )


def check_proposal(state, seat: int, key, building: Building | None) -> None:
    """IllegalMove unless `seat` may propose to build `building` (named `key`) now."""
    if building is None or not proposable(state, seat, building):
        if building is not None and building.colour != "blue":
            raise IllegalMove(
                "Only community (blue) buildings are built together, unless the match plays "
                "the variant 'everything may be built together'."
            )
        raise IllegalMove(f"You cannot propose to build {key} now.")
    if seat in state["act"]["proposed"]:
        raise IllegalMove("You already made a proposal in this Master Builder phase.")


def propose(state, seat: int, move: dict, checked: bool = True) -> None:
    key = move.get("building")
    building = BUILDINGS.get(key)
    if checked:
        check_proposal(state, seat, key, building)
    if ruleset(state) >= 2:
        propose_terms(state, seat, building, move, checked)
        return
    partners = move.get("partners")
    if (
        not isinstance(partners, list)
        or not partners
        or seat in partners
        or len(set(partners)) != len(partners)
        or any(not isinstance(s, int) or not 0 <= s < state["n"] for s in partners)
    ):
        raise IllegalMove("Name one or more other players to build with.")
    partners = [s for s in clockwise(state, seat) if s in partners]
    cells, facing = check_place(
        state, building, move.get("cells") or [], move.get("facing"), checked
    )
    split = shares(state, seat, building, partners)
    for s, d in split.items():
        if checked and not can_afford(state["players"][s], d["guilders"], d["wood"]):
            who = "You" if s == seat else name(state, s)
            raise IllegalMove(f"{who} cannot pay {d['guilders']} guilders and {d['wood']} wood.")
    state["act"]["proposed"].append(seat)
    state["pending"] = {
        "kind": "proposal",
        "by": seat,
        "building": key,
        "cells": cells,
        "facing": facing,
        "split": {str(s): d for s, d in split.items()},
        "waiting": partners,
        "answers": {},
    }
    if state["news"] is not None:
        terms = "; ".join(
            f"{name(state, s)} pays {d['guilders']} g {d['wood']} wood for {d['points']} pt"
            for s, d in split.items()
        )
        say(
            state,
            f"{name(state, seat)} proposed a {building.name} {where(cells, facing)}: {terms}.",
        )


def propose_terms(state, seat: int, building: Building, move: dict, checked: bool = True) -> None:
    """Version 2: the proposer names the place and every partner's share."""
    if "partners" in move:
        raise IllegalMove(
            "Name each partner's share: 'propose hospice at D3 facing south: Cor pays 2 g "
            "and 2 wood for 2 points, Emily pays 2 g and 2 wood for 2 points'."
        )
    cells, facing = check_place(
        state, building, move.get("cells") or [], move.get("facing"), checked
    )
    if checked:
        split = check_terms(state, seat, building, move)
    else:
        split = named_terms(state, seat, move)
    state["act"]["proposed"].append(seat)
    by_seat, waiting = {}, []  # one loop, no comprehension's frame: proposals are many at 4
    for s, d in split.items():
        by_seat[str(s)] = d
        if s != seat:
            waiting.append(s)
    state["pending"] = {
        "kind": "proposal",
        "by": seat,
        "building": building.key,
        "cells": cells,
        "facing": facing,
        "split": by_seat,
        "waiting": waiting,
        "answers": {},
        "offered_by": seat,
        "countered": [],
    }
    if state["news"] is not None:
        say(
            state,
            f"{name(state, seat)} proposed a {building.name} {where(cells, facing)}: "
            f"{terms_text(state, split)}.",
        )


def resolve_proposal(state) -> None:
    pending = state["pending"]
    state["pending"] = None
    seat = pending["by"]
    building = BUILDINGS[pending["building"]]
    declined = []  # a loop, not a comprehension's frame: every proposal ends here
    for s, a in pending["answers"].items():
        if a != "accept":
            declined.append(int(s))
    if declined:
        if state["news"] is not None:
            say(
                state,
                f"The {building.name} was not built: "
                + ", ".join(name(state, s) for s in sorted(declined))
                + " declined.",
            )
        return  # the proposer's turn goes on
    for s, d in pending["split"].items():
        player = state["players"][int(s)]
        player["guilders"] -= d["guilders"]
        pay_wood(player, d["wood"])
        gain_points(player, d["points"])
    owner = None if building.colour == "blue" else seat
    place(state, owner, building, pending["cells"], pending["facing"])
    moved = change_burghers(state, building.burghers)
    if state["news"] is not None:
        say(
            state,
            f"The {building.name} was built together {where(pending['cells'], pending['facing'])}; "
            f"Burghers {moved:+d}.",
        )
    next_actor(state)  # it cost the proposer his build [rulebook Exceptions]


# --- farming ----------------------------------------------------------------------------


def farmer_extras(state, seat: int) -> list[list[str]]:
    """The privilege's choices: an extra of something the player also produces."""
    if not privileged(state, seat):
        return [[]]
    grain = pasture = False
    for b in state["buildings"].values():
        if b["owner"] == seat:
            kind = b["kind"]
            if kind == "grainfield":
                grain = True
            elif kind == "pasture":
                pasture = True
    kinds = []
    if boats_of(state, seat):
        kinds.append("fish")
    if grain:
        kinds.append("grain")
    if pasture:
        kinds.append("livestock")
    if not kinds:
        return [[]]
    k = privilege_count(state, seat)
    return [list(c) for c in combinations_with_replacement(kinds, k)]


def farmer_has_extra(state, seat: int) -> bool:
    """farmer_extras(...) != [[]]: the seat is the privileged chooser and produces something
    (a Boat first: no search of the buildings)."""
    if not privileged(state, seat):
        return False
    if state["boats"].count(seat) or state["loose_boats"].count(seat):  # boats_of()
        return True
    for b in state["buildings"].values():
        kind = b["kind"]
        if (kind == "grainfield" or kind == "pasture") and b["owner"] == seat:
            return True
    return False


def produce(state, seat: int, extras: list[str]) -> None:
    """[rulebook Farmer], read in its order: grain and livestock go onto the empty fields;
    tokens placed in an earlier turn come off into stock, so a field yields every other
    Farmer phase. Version 1, and the balance variant 'resow', harvest and sow every field."""
    produce_all(state, {seat: extras})


def produce_all(state, extras_of: dict[int, list[str] | tuple[()]]) -> None:
    """`produce` for each seat of `extras_of` (with its extras) in one pass over the
    buildings: a seat's fields and stock are its own, so each seat produces what it would
    alone; narrated seat by seat in the dict's order."""
    players = state["players"]
    resow = ruleset(state) < 2 or bool(state["options"].get("resow"))
    # Per seat: what came into stock (fish first, as the history tells it), fields sown.
    received: dict[int, dict[str, int]] = {}
    sown: dict[int, int] = {}
    planted: dict[int, list[dict]] = {}
    for seat in extras_of:  # a loop, not comprehensions' frames
        received[seat] = {"fish": 0, "grain": 0, "livestock": 0}
        sown[seat] = 0
        planted[seat] = []
    for b in state["buildings"].values():
        kind = b["kind"]  # most buildings are no field: the kind is tested first
        if kind == "grainfield":
            good = "grain"
        elif kind == "pasture":
            good = "livestock"
        else:
            continue
        seat = b["owner"]
        if seat not in extras_of:  # another's
            continue
        harvest = b["crop"]
        if harvest > 0:  # placed in an earlier turn: into stock
            players[seat][good] += harvest
            received[seat][good] += harvest
            b["crop"] = 0
        if harvest == 0 or resow:  # an empty field is sown
            b["crop"] = 1
            planted[seat].append(b)
            sown[seat] += 1
    boats, loose_boats = state["boats"], state["loose_boats"]
    for seat, extras in extras_of.items():
        player = players[seat]
        got = received[seat]
        fish = boats.count(seat) + loose_boats.count(seat)  # boats_of(), written out
        player["fish"] += fish
        got["fish"] = fish
        for good in extras:
            if good == "fish" or got[good] > 0:
                player[good] += 1
                got[good] += 1
            else:  # only sown: the extra goes onto the fields too [rulebook Farmer], the
                # first in the order of their first spaces' names (as they were once sorted)
                field = "grainfield" if good == "grain" else "pasture"
                fields = [b for b in planted[seat] if b["kind"] == field]
                min(fields, key=lambda b: b["cells"][0])["crop"] += 1
        if state["news"] is not None:
            parts = [f"{a} {g}" for g, a in got.items() if a]
            text = f"{name(state, seat)} farmed: " + (
                ", ".join(parts) if parts else "nothing harvested"
            )
            if sown[seat]:
                text += f"; sowed {sown[seat]} field(s)"
            if extras:
                text += f" (extra {', '.join(extras)})"
            say(state, text + ".")


def farm_unasked(state, act: dict) -> bool:
    """The Farmer's phase from its actor to act on: when none of them has an extra to
    choose (only a privileged chooser, the first in order, may), each produces, all in one
    pass over the buildings, and their turns are over; False when the actor must choose."""
    order = act["order"]
    if farmer_has_extra(state, order[act["idx"]]):
        return False
    produce_all(state, dict.fromkeys(order[act["idx"] :], ()))  # no extras: read, never changed
    act["idx"] = len(order)
    act["turn"] = {}
    return True


def farm(state, seat: int, move: dict, checked: bool = True) -> None:
    extras = move.get("extra", [])
    if checked:
        options = farmer_extras(state, seat)
        if not isinstance(extras, list) or sorted(extras) not in [sorted(o) for o in options]:
            raise IllegalMove(
                "Choose the Farmer's extra: "
                + " or ".join("+".join(o) or "nothing" for o in options)
                + " (something you also produce)."
            )
    # Only the privileged chooser (the first in order) chooses: the actors after him choose
    # nothing, so they produce now, all in one pass over the buildings (see farm_unasked).
    act = state["act"]
    later = act["order"][act["idx"] + 1 :]
    extras_of = {seat: sorted(extras)}
    for s in later:
        extras_of[s] = ()  # no extras: read, never changed
    produce_all(state, extras_of)
    act["idx"] = len(act["order"])
    act["turn"] = {}


# --- the Bailiff ------------------------------------------------------------------------


def buy_cards(state, seat: int, count: int) -> None:
    player = state["players"][seat]
    if count not in (0, 1, 2):
        raise IllegalMove("Buy 0, 1 or 2 cards.")
    price = (0, 1, 3)[count]
    if player["guilders"] < price:
        raise IllegalMove(f"{count} cards cost {price} guilders; you have {player['guilders']}.")
    if count > len(state["deck"]):
        raise IllegalMove(f"Only {len(state['deck'])} card(s) are left in the deck.")
    player["guilders"] -= price
    if count == 0:
        if state["news"] is not None:
            say(state, f"{name(state, seat)} bought no cards.")
        next_actor(state)
        return
    if state["news"] is not None:
        say(state, f"{name(state, seat)} bought {count} card(s) for {price} guilder(s).")
    state["act"]["turn"]["to_draw"] = count
    continue_drawing(state)


def continue_drawing(state) -> None:
    """Draw the bought cards; events are carried out at once and replaced [rulebook]."""
    act = state["act"]
    seat = act["order"][act["idx"]]
    player = state["players"][seat]
    while act["turn"].get("to_draw", 0) > 0 and state["deck"]:
        card = state["deck"].pop()
        if CARDS[card].kind == "event":
            if state["news"] is not None:
                say(state, f"{name(state, seat)} drew the event {CARDS[card].name}.")
            state["discard"].append(card)
            start_event(state, card, seat)
            if state["pending"] is not None:
                state["pending"]["resume"] = "draw"
                return
            continue
        player["hand"].append(card)
        act["turn"]["to_draw"] -= 1
        if state["news"] is not None:
            say_to(
                state, f"{name(state, seat)} drew a card.", seat, f"You drew {CARDS[card].name}."
            )
    next_actor(state)


def playable(state, seat: int) -> list[dict]:
    """Wish cards `seat` may play in the Bailiff phase now."""
    player = state["players"][seat]
    moves: list[dict] = []
    for card in dict.fromkeys(player["hand"]):
        if card == "boatbuilding":
            if player["light"] > 0 and len(state["loose_boats"]) < LOOSE_BOATS:
                moves.append({"type": "play", "card": card})
        elif card == "fire":
            if not built(state, "watchtower"):
                for _bid, b in sorted(state["buildings"].items(), key=lambda i: i[1]["cells"][0]):
                    if b["kind"] == "house":
                        moves.append({"type": "play", "card": card, "target": b["cells"][0]})
        elif card == "crime":
            shielded = prison_districts(state)
            for district in BOARDS[state["board"]].districts:
                if district not in shielded:
                    for take in ("guilders", "wood"):
                        moves.append(
                            {"type": "play", "card": card, "district": district, "take": take}
                        )
        elif card == "midsummer":
            for district in BOARDS[state["board"]].districts:
                moves.append({"type": "play", "card": card, "district": district})
        elif card == "knowledge":
            if not player["knowledge"]:
                moves.append({"type": "play", "card": card})
        elif card in ("rottenfish", "locusts", "wolves", "gatherer"):
            moves.append({"type": "play", "card": card})
    return moves


def play_card(state, seat: int, move: dict, checked: bool = True) -> None:
    card = move.get("card")
    player = state["players"][seat]
    if card not in CARDS or CARDS[card].kind != "wish":
        raise IllegalMove(f"There is no wish card called {card}.")
    if card not in player["hand"]:
        raise IllegalMove(f"You do not hold {CARDS[card].name}.")
    timing = CARDS[card].timing
    if timing == "end":
        raise IllegalMove(f"{CARDS[card].name} counts at the end of the game; keep it in hand.")
    if timing == "builder":
        raise IllegalMove("House Building may only be played in the Master Builder phase.")
    if timing == "income":
        raise IllegalMove("Income Tax may only be played when income is paid.")
    if timing == "reaction":
        raise IllegalMove("Citizens' Watch is played in reaction to Crime.")
    if checked and move not in playable(state, seat):
        raise IllegalMove(card_refusal(state, seat, move))
    player["hand"].remove(card)
    state["discard"].append(card)
    state["act"]["turn"]["played"] = state["act"]["turn"].get("played", 0) + 1
    label = f"{name(state, seat)} played {CARDS[card].name}"
    if card == "boatbuilding":
        state["loose_boats"].append(seat)
        player["light"] -= 1
        if state["news"] is not None:
            say(state, label + ": a Boat was launched on the lake.")
    elif card == "fire":
        burn_house(state, move["target"], label)
    elif card == "crime":
        start_crime(state, seat, move["district"], move["take"], label)
    elif card == "midsummer":
        start_festival(state, seat, move["district"], label)
    elif card == "knowledge":
        player["knowledge"] = True
        if state["news"] is not None:
            say(state, label + ": from now on their privileges count double.")
    elif card == "rottenfish":
        for p in state["players"]:
            p["fish"] = 0
        if state["news"] is not None:
            say(state, label + ": all fresh fish spoiled.")
    elif card == "locusts":
        wipe_fields(state, "grainfield")
        if state["news"] is not None:
            say(state, label + ": the grain on every Grain field was eaten.")
    elif card == "wolves":
        wipe_fields(state, "pasture")
        if state["news"] is not None:
            say(state, label + ": the livestock on every Pasture was eaten.")
    elif card == "gatherer":
        player["wood"] += 2
        if state["news"] is not None:
            say(state, label + ": +2 wood.")
    if state["pending"] is None:
        after_play(state, seat)
    else:
        state["pending"]["resume"] = "play"


def after_play(state, seat: int) -> None:
    """After a card, the player's play turn ends at his second card. Version 1 also ended it
    when no card in his hand could be played, and asked nobody whose cards were all end-game
    cards: the others saw at once that he held no playable wish card [issue 15]. Version 2
    asks every card holder (hand sizes are public) and offers 'done' and 'pass', so being
    asked, the deadline and the answer look the same whatever the hand holds."""
    played = state["act"]["turn"].get("played", 0)
    if ruleset(state) >= 2:
        if played >= 2 or not state["players"][seat]["hand"]:
            next_actor(state)
    elif played >= 2 or not playable(state, seat):
        next_actor(state)


def card_refusal(state, seat: int, move: dict) -> str:
    card = move.get("card")
    if card == "fire" and built(state, "watchtower"):
        return "The Watchtower stands: Fire cannot be played."
    if card == "fire":
        return "Fire needs a House (not a Manor house): name the space it stands on."
    if card == "crime":
        if move.get("district") in prison_districts(state):
            return "The Prison stands in that district: Crime cannot strike there."
        return "Crime needs a district (NW, NE, SE, SW) and 'taking guilders' or 'taking wood'."
    if card == "midsummer":
        return "Midsummer Night Festival needs a district: NW, NE, SE or SW."
    if card == "knowledge":
        return "You already have Knowledge is Power face up; the second copy cannot be played."
    if card == "boatbuilding":
        return "Boatbuilding needs a light seal and a loose Boat tile."
    return "That card cannot be played now."


def wipe_fields(state, kind: str) -> None:
    for b in state["buildings"].values():
        if b["kind"] == kind:
            b["crop"] = 0


def remove_building(state, bid: str) -> dict:
    b = state["buildings"].pop(bid)
    for cell in b["cells"]:
        del state["cells"][cell]
    state["supply"][b["kind"]] += 1
    if b["owner"] is not None:
        state["players"][b["owner"]]["light"] += 1
    return b


def burn_house(state, cell: str, label: str) -> None:
    bid = state["cells"][cell]
    b = remove_building(state, bid)
    moved = change_burghers(state, -FIRE_BURGHERS)
    if state["news"] is not None:
        say(
            state,
            f"{label}: {name(state, b['owner'])}'s House at {cell} burned; Burghers {moved:+d}.",
        )


def start_crime(state, seat: int, district: str, take: str, label: str) -> None:
    if state["news"] is not None:
        say(state, f"{label} in the {DISTRICT_NAMES[district]} district.")
    if unplayed_copies(state, "watch") > 0:
        # Everyone else holding any card is asked, so no answer reveals the holder.
        asked = [s for s in clockwise(state, seat)[1:] if state["players"][s]["hand"]]
        if asked:
            state["pending"] = {
                "kind": "watch",
                "by": seat,
                "district": district,
                "take": take,
                "waiting": asked,
                "answers": {},
            }
            return
    commit_crime(state, seat, district, take)


def resolve_watch(state) -> None:
    pending = state["pending"]
    state["pending"] = None
    thief = pending["by"]
    for s in clockwise(state, thief)[1:]:
        if pending["answers"].get(str(s)) == "watch" and "watch" in state["players"][s]["hand"]:
            state["players"][s]["hand"].remove("watch")
            state["discard"].append("watch")
            if state["news"] is not None:
                say(
                    state,
                    f"{name(state, s)} played Citizens' Watch: the "
                    f"{DISTRICT_NAMES[pending['district']]} district was protected.",
                )
            return
    commit_crime(state, thief, pending["district"], pending["take"])


def commit_crime(state, thief: int, district: str, take: str) -> None:
    robbed = []
    for s in district_residents(state, district):
        if s == thief:
            continue
        victim = state["players"][s]
        order = ("guilders", "wood") if take == "guilders" else ("wood", "guilders")
        for good in order:
            if victim[good] > 0:
                victim[good] -= 1
                state["players"][thief][good] += 1
                robbed.append(
                    f"1 {'guilder' if good == 'guilders' else 'wood'} from {name(state, s)}"
                )
                break
    if state["news"] is not None:
        say(state, "The thieves took " + (", ".join(robbed) if robbed else "nothing") + ".")


def start_festival(state, seat: int, district: str, label: str) -> None:
    if state["news"] is not None:
        say(state, f"{label} in the {DISTRICT_NAMES[district]} district.")
    asked = [s for s in clockwise(state, seat) if any(state["players"][s][p] for p in PRODUCTS)]
    state["pending"] = {
        "kind": "festival",
        "by": seat,
        "district": district,
        "waiting": asked,
        "answers": {},
    }
    if not asked:
        resolve_festival(state)


def resolve_festival(state) -> None:
    pending = state["pending"]
    state["pending"] = None
    residents = district_residents(state, pending["district"])
    parts = []
    for s in range(state["n"]):
        answer = pending["answers"].get(str(s), "skip")
        player = state["players"][s]
        if answer != "skip":
            player[answer] -= 1
            gain_points(player, 2)
            parts.append(f"{name(state, s)} joined with {answer} (+2)")
        elif s in residents:
            gain_points(player, -1)
            parts.append(f"{name(state, s)} stayed away (-1)")
    if state["news"] is not None:
        say(state, "The festival: " + (", ".join(parts) if parts else "nobody came") + ".")


# --- events -----------------------------------------------------------------------------


def viking_targets(state) -> tuple[int, list[str]]:
    """Boats, and city buildings by the water."""
    geo = B.geometry(state["board"])
    boats = sum(1 for s in state["boats"] if s is not None) + len(state["loose_boats"])
    by_water = geo.by_water
    shore = [bid for bid, b in state["buildings"].items() if not by_water.isdisjoint(b["cells"])]
    return boats, shore


def start_event(state, card: str, drawer: int) -> None:
    if card in ("smallbirth", "greatbirth"):
        per = 1 if card == "smallbirth" else 2
        moved = change_burghers(state, per * houses_on_board(state))
        if state["news"] is not None:
            say(state, f"{CARDS[card].name}: Burghers {moved:+d}.")
    elif card == "crusade":
        moved = change_burghers(state, -CRUSADE_BURGHERS)
        if state["news"] is not None:
            say(state, f"Crusade: Burghers {moved:+d}.")
    elif card == "vikings":
        if built(state, "watchtower"):
            say(state, "Vikings: the Watchtower kept them away.")
            return
        boats, shore = viking_targets(state)
        cost = boats + len(shore)
        if cost == 0:
            say(state, "Vikings: there was nothing for them to plunder.")
            return
        open_pledges(state, card, drawer, cost, 0)
    elif card == "blackdeath":
        if built(state, "hospice"):
            say(state, "Black Death: the Hospice kept the city healthy.")
            return
        open_pledges(state, card, drawer, *BLACK_DEATH_COST)


def open_pledges(state, card: str, drawer: int, guilders: int, food: int) -> None:
    asked = [
        s
        for s in clockwise(state, drawer)
        if state["players"][s]["guilders"] > 0
        or (food and any(state["players"][s][p] for p in PRODUCTS))
    ]
    total_g = sum(state["players"][s]["guilders"] for s in asked)
    total_f = sum(state["players"][s][p] for s in asked for p in PRODUCTS)
    if state["news"] is not None:
        say(
            state,
            f"To prevent the {CARDS[card].name} the players may pay together {guilders} guilder(s)"
            + (f" and {food} food" if food else "")
            + ".",
        )
    if total_g < guilders or total_f < food:
        say(state, "Together they could not pay it.")
        strike(state, card)
        return
    state["pending"] = {
        "kind": "pledge",
        "card": card,
        "by": drawer,
        "cost": [guilders, food],
        "waiting": asked,
        "answers": {},
    }


def pledge_moves(state, seat: int) -> list[dict]:
    pending = state["pending"]
    player = state["players"][seat]
    g_cost, f_cost = pending["cost"]
    foods = [[]]
    if f_cost:
        held = [p for p in PRODUCTS if player[p]]
        foods = []
        for k in range(f_cost + 1):
            for combo in combinations_with_replacement(held, k):
                if all(combo.count(p) <= player[p] for p in held):
                    foods.append(list(combo))
    return [
        {"type": "pledge", "guilders": g, "food": food}
        for g in range(min(g_cost, player["guilders"]) + 1)
        for food in foods
    ]


def resolve_pledges(state) -> None:
    pending = state["pending"]
    state["pending"] = None
    card = pending["card"]
    g_cost, f_cost = pending["cost"]
    pledged = {int(s): a for s, a in pending["answers"].items()}
    if sum(a["guilders"] for a in pledged.values()) >= g_cost and (
        sum(len(a["food"]) for a in pledged.values()) >= f_cost
    ):
        need_g, need_f = g_cost, f_cost
        paid = []
        for s in clockwise(state, pending["by"]):
            if s not in pledged:
                continue
            player = state["players"][s]
            g = min(need_g, pledged[s]["guilders"])
            food = pledged[s]["food"][:need_f]
            need_g -= g
            need_f -= len(food)
            player["guilders"] -= g
            for p in food:
                player[p] -= 1
            if g or food:
                paid.append(f"{name(state, s)} {g} g" + (f" + {', '.join(food)}" if food else ""))
        if state["news"] is not None:
            say(state, f"The {CARDS[card].name} was prevented: " + ", ".join(paid) + ".")
        return
    if state["news"] is not None:
        say(state, f"Not enough was pledged against the {CARDS[card].name}.")
    strike(state, card)


def strike(state, card: str) -> None:
    if card == "vikings":
        _, shore = viking_targets(state)
        for i, owner in enumerate(state["boats"]):
            if owner is not None:
                state["players"][owner]["light"] += 1
                state["boats"][i] = None
        for owner in state["loose_boats"]:
            state["players"][owner]["light"] += 1
        state["loose_boats"] = []
        moved = change_burghers(state, -VIKING_BURGHERS * len(shore))
        if state["news"] is not None:
            say(state, f"The Vikings burned every Boat; Burghers {moved:+d}.")
    elif card == "blackdeath":
        geo = B.geometry(state["board"])
        for b in state["buildings"].values():
            if b["owner"] is not None and geo.area[b["cells"][0]] == "city":
                gain_points(state["players"][b["owner"]], -1)
        moved = change_burghers(state, -(state["burghers"] - state["burghers"] // 2))
        if state["news"] is not None:
            say(
                state,
                "The Black Death struck: owners lost a point per city building; "
                f"Burghers {moved:+d}.",
            )


# --- the Merchant -----------------------------------------------------------------------


def stall_slots(state, stall: str) -> int:
    # The Burgher counts that open each slot, in rising order: those reached are open.
    opened = bisect_right(STALL_SLOTS[stall], state["burghers"])
    return opened - state["slots"].get(stall, 0)


def stall_fee_error(state, seat: int, stall: str) -> str:
    """Using another player's building costs its owner 1 guilder, once per turn."""
    if stall not in state["stalls"]:
        return f"The {BUILDINGS[stall].name} has not been built."
    owner = state["stalls"][stall]
    if owner == seat or stall in state["act"]["turn"].get("used", []):
        return ""
    if state["players"][seat]["guilders"] < 1:
        return f"Using {name(state, owner)}'s {BUILDINGS[stall].name} costs 1 guilder."
    return ""


def stall_blocked(state, seat: int, stall: str) -> bool:
    """bool(stall_fee_error(...)) without writing the message."""
    stalls = state["stalls"]
    if stall not in stalls:
        return True
    if stalls[stall] == seat or stall in state["act"]["turn"].get("used", ()):
        return False
    return state["players"][seat]["guilders"] < 1


def use_stall(state, seat: int, stall: str) -> None:
    turn = state["act"]["turn"]
    used = turn.setdefault("used", [])
    if stall in used:
        return
    used.append(stall)
    owner = state["stalls"][stall]
    if owner != seat:
        state["players"][seat]["guilders"] -= 1
        state["players"][owner]["guilders"] += 1


RAW_OF = {done: raw for raw, (done, _stall) in CONVERSIONS.items()}  # processed -> raw


def merchant_moves(state, seat: int) -> list[dict]:
    moves = list(_trades(state, seat))
    moves.append({"type": "done"})
    return moves


def can_trade(state, seat: int) -> bool:
    """bool(list(_trades(...))) without making the moves: skip_actor asks after every
    Merchant move. The same tests in the same order as `_trades`."""
    player = state["players"][seat]
    turn = state["act"]["turn"]
    if player["grain"] > 0 or player["livestock"] > 0 or player["game"] > 0:
        return True
    if not stall_blocked(state, seat, "timbertrade"):
        fee = (
            0
            if state["stalls"]["timbertrade"] == seat or "timbertrade" in turn.get("used", [])
            else 1
        )
        if turn.get("timber") != "buy" and player["wood"] > 0:
            return True
        if turn.get("timber") != "sell" and player["guilders"] - fee > 0:
            return True
    if (
        player["wood"] >= SAWMILL_WOOD
        and not turn.get("sawmill")
        and not stall_blocked(state, seat, "sawmill")
    ):
        return True
    for raw, (_done, stall) in CONVERSIONS.items():
        if player[raw] > 0 and not stall_blocked(state, seat, stall):
            return True
    for good, (stall, _g, _p) in SALE_PRICES.items():
        have = player[good] + player[RAW_OF[good]]
        if have > 0 and not stall_blocked(state, seat, stall) and stall_slots(state, stall) > 0:
            return True
    if player["bread"] and not stall_blocked(state, seat, "inn") and stall_slots(state, "inn") > 0:
        return any(player[filling] for filling, _g, _p in PASTIES.values())
    return False


def _trades(state, seat: int):
    """The Merchant's moves but 'done', in menu order, one at a time (skip_actor stops at
    the first)."""
    player = state["players"][seat]
    turn = state["act"]["turn"]
    for good in ("grain", "livestock", "game"):
        for k in range(1, player[good] + 1):
            yield {"type": "sell", "good": good, "count": k, "at": "market"}
    if not stall_blocked(state, seat, "timbertrade"):
        fee = (
            0
            if state["stalls"]["timbertrade"] == seat or "timbertrade" in turn.get("used", [])
            else 1
        )
        if turn.get("timber") != "buy":
            for k in range(1, player["wood"] + 1):
                yield {"type": "sell", "good": "wood", "count": k, "at": "timbertrade"}
        if turn.get("timber") != "sell":
            for k in range(1, player["guilders"] - fee + 1):
                yield {"type": "buy", "good": "wood", "count": k, "at": "timbertrade"}
    # Below, what the player holds is tested before the stalls (the cheaper test).
    if (
        player["wood"] >= SAWMILL_WOOD
        and not turn.get("sawmill")
        and not stall_blocked(state, seat, "sawmill")
    ):
        yield {"type": "sawmill"}
    for raw, (_done, stall) in CONVERSIONS.items():
        if player[raw] and not stall_blocked(state, seat, stall):
            for k in range(1, player[raw] + 1):
                yield {"type": "convert", "good": raw, "count": k}
    for good, (stall, _g, _p) in SALE_PRICES.items():
        have = player[good] + player[RAW_OF[good]]
        if not have or stall_blocked(state, seat, stall):
            continue
        for k in range(1, min(have, stall_slots(state, stall)) + 1):
            yield {"type": "sell", "good": good, "count": k, "at": stall}
    if player["bread"] and not stall_blocked(state, seat, "inn") and stall_slots(state, "inn") > 0:
        for pasty, (filling, _g, _p) in PASTIES.items():
            if player[filling]:
                yield {"type": "pasty", "filling": pasty}


def merchant_act(state, seat: int, move: dict, checked: bool = True) -> None:
    """A Merchant's trade or 'done'. Not `checked` (a logged move): the checks that can only
    refuse the trade are skipped."""
    kind = move["type"]
    player = state["players"][seat]
    turn = state["act"]["turn"]
    if kind == "done":
        if state["news"] is not None:
            say(state, f"{name(state, seat)} finished trading.")
        next_actor(state)
        return
    if kind == "sawmill":
        if checked:
            error = stall_fee_error(state, seat, "sawmill")
            if error:
                raise IllegalMove(error)
            if turn.get("sawmill"):
                raise IllegalMove("The Sawmill saws 2 wood per player per Merchant phase.")
            if player["wood"] < SAWMILL_WOOD:
                raise IllegalMove("The Sawmill needs 2 wood.")
        use_stall(state, seat, "sawmill")
        turn["sawmill"] = True
        player["wood"] -= SAWMILL_WOOD
        player["plank"] += SAWMILL_WOOD
        if state["news"] is not None:
            say(state, f"{name(state, seat)} sawed 2 wood into 2 planks at the Sawmill.")
        return
    count = move.get("count", 1)
    if checked and kind != "pasty" and (not isinstance(count, int) or count < 1):
        raise IllegalMove("Say how many (1 or more).")
    good = move.get("good")
    if kind == "sell":
        at = move.get("at")
        if at == "market":
            market_sale(state, seat, good, count, checked)
        elif at == "timbertrade":
            timber_sale(state, seat, good, count, checked)
        else:
            stall_sale(state, seat, good, count, at, checked)
        return
    if kind == "convert":
        if checked and good not in CONVERSIONS:
            raise IllegalMove(
                "Convert livestock or game (Butcher), grain (Baker) or fish (Fishmonger)."
            )
        done, stall = CONVERSIONS[good]
        if checked:
            error = stall_fee_error(state, seat, stall)
            if error:
                raise IllegalMove(error)
            if player[good] < count:
                raise IllegalMove(f"You have {player[good]} {GOOD_NAMES[good]}.")
        use_stall(state, seat, stall)
        player[good] -= count
        player[done] += count
        if state["news"] is not None:
            say(
                state,
                f"{name(state, seat)} turned {count} {GOOD_NAMES[good]} into {GOOD_NAMES[done]}.",
            )
        return
    if kind == "buy":
        if checked:
            if good != "wood" or move.get("at") != "timbertrade":
                raise IllegalMove("Only wood can be bought, at the Timber trade.")
            error = stall_fee_error(state, seat, "timbertrade")
            if error:
                raise IllegalMove(error)
            if turn.get("timber") == "sell":
                raise IllegalMove("You sold wood this turn; you cannot also buy it.")
            fee = (
                0
                if state["stalls"]["timbertrade"] == seat or "timbertrade" in turn.get("used", [])
                else 1
            )
            if player["guilders"] - fee < count:
                raise IllegalMove(
                    f"{count} wood cost {count} guilders (+{fee} fee); "
                    f"you have {player['guilders']}."
                )
        use_stall(state, seat, "timbertrade")
        turn["timber"] = "buy"
        player["guilders"] -= count
        player["wood"] += count
        if state["news"] is not None:
            say(state, f"{name(state, seat)} bought {count} wood at the Timber trade.")
        return
    if kind == "pasty":
        pasty = move.get("filling")
        if checked and pasty not in PASTIES:
            raise IllegalMove("Sell a meat, game or fish pasty.")
        filling, g, p = PASTIES[pasty]
        if checked:
            error = stall_fee_error(state, seat, "inn")
            if error:
                raise IllegalMove(error)
            if stall_slots(state, "inn") <= 0:
                raise IllegalMove("The Inn has no demand left (it grows with the Burghers).")
            if not player["bread"] or not player[filling]:
                raise IllegalMove(f"A {pasty} pasty needs 1 bread and 1 {GOOD_NAMES[filling]}.")
        use_stall(state, seat, "inn")
        player["bread"] -= 1
        player[filling] -= 1
        state["slots"]["inn"] = state["slots"].get("inn", 0) + 1
        player["guilders"] += g
        gain_points(player, p)
        if state["news"] is not None:
            say(state, f"{name(state, seat)} sold a {pasty} pasty at the Inn: +{g} g, +{p} points.")
        return
    raise IllegalMove("Trade at the Market or a stall, or say 'done'.")


def market_sale(state, seat: int, good, count: int, checked: bool) -> None:
    player = state["players"][seat]
    if checked:
        if good not in ("grain", "livestock", "game"):
            raise IllegalMove("The Market buys grain, livestock and game.")
        if player[good] < count:
            raise IllegalMove(f"You have {player[good]} {GOOD_NAMES[good]}.")
    player[good] -= count
    player["guilders"] += count
    if state["news"] is not None:
        say(
            state,
            f"{name(state, seat)} sold {count} {GOOD_NAMES[good]} at the Market for {count} g.",
        )


def timber_sale(state, seat: int, good, count: int, checked: bool) -> None:
    player = state["players"][seat]
    turn = state["act"]["turn"]
    if checked:
        if good != "wood":
            raise IllegalMove("The Timber trade buys wood (not planks).")
        error = stall_fee_error(state, seat, "timbertrade")
        if error:
            raise IllegalMove(error)
        if turn.get("timber") == "buy":
            raise IllegalMove("You bought wood this turn; you cannot also sell it.")
        if player["wood"] < count:
            raise IllegalMove(f"You have {player['wood']} wood.")
    use_stall(state, seat, "timbertrade")
    turn["timber"] = "sell"
    player["wood"] -= count
    player["guilders"] += count
    if state["news"] is not None:
        say(state, f"{name(state, seat)} sold {count} wood at the Timber trade for {count} g.")


def stall_sale(state, seat: int, good, count: int, at, checked: bool) -> None:
    """Processed goods at their specialist's stall, raw goods made up the shortfall."""
    player = state["players"][seat]
    if checked and (good not in SALE_PRICES or SALE_PRICES[good][0] != at):
        raise IllegalMove(
            "Sell meat or game meat at the butcher, bread at the baker, smoked fish at the "
            "fishmonger."
        )
    stall, g, p = SALE_PRICES[good]
    raw = RAW_OF[good]
    if checked:
        error = stall_fee_error(state, seat, stall)
        if error:
            raise IllegalMove(error)
        free = stall_slots(state, stall)
        if count > free:
            raise IllegalMove(
                f"The {BUILDINGS[stall].name} has demand for {free} more now "
                f"({state['burghers']} Burghers)."
            )
        if player[good] + player[raw] < count:
            raise IllegalMove(
                f"You have {player[good]} {GOOD_NAMES[good]} and {player[raw]} {raw}."
            )
    use_stall(state, seat, stall)
    from_raw = max(0, count - player[good])
    player[raw] -= from_raw
    player[good] -= count - from_raw
    state["slots"][stall] = state["slots"].get(stall, 0) + count
    player["guilders"] += g * count
    gain_points(player, p * count)
    if state["news"] is not None:
        say(
            state,
            f"{name(state, seat)} sold {count} {GOOD_NAMES[good]} at the "
            f"{BUILDINGS[stall].name}: +{g * count} g, +{p * count} points.",
        )


# --- choosing characters ----------------------------------------------------------------


def check_choice(state, move: dict) -> None:
    """IllegalMove unless the character is open this round (and the Count names one chosen
    before to repeat)."""
    char = move.get("character")
    if char not in CHARACTERS:
        raise IllegalMove(
            "Choose a character: "
            + ", ".join(CHARACTER_NAMES[c] for c in available_characters(state))
            + "."
        )
    if char not in available_characters(state):
        if char in state["chosen"]:
            raise IllegalMove(f"The {CHARACTER_NAMES[char]} was already chosen this round.")
        if char in UNLOCKED_BY:
            raise IllegalMove(
                f"The {CHARACTER_NAMES[char]} comes into play once the "
                f"{BUILDINGS[UNLOCKED_BY[char]].name} is built."
            )
        raise IllegalMove("The Count repeats a character chosen earlier this round; none was.")
    if char == "count":
        repeat = move.get("repeat")
        if repeat not in state["chosen"] or repeat == "count":
            raise IllegalMove(
                "Say which character the Count repeats: "
                + ", ".join(CHARACTER_NAMES[c] for c in state["chosen"] if c != "count")
                + "."
            )


def choose(state, seat: int, move: dict, checked: bool = True) -> None:
    if checked:
        check_choice(state, move)
    char = move.get("character")
    if char == "count":
        repeat = move.get("repeat")
        state["chosen"].append(char)
        if state["news"] is not None:
            say(
                state,
                f"{name(state, seat)} chose the Count and repeated the "
                f"{CHARACTER_NAMES[repeat]} (no privilege).",
            )
        begin_phase(state, repeat, seat, False)  # no privilege
        return
    state["chosen"].append(char)
    if state["news"] is not None:
        say(state, f"{name(state, seat)} chose the {CHARACTER_NAMES[char]}.")
    begin_phase(state, char, seat, True)  # the privilege (positional: a cheaper call)


def choose_moves(state) -> list[dict]:
    moves = []
    for char in available_characters(state):
        if char == "count":
            for repeat in state["chosen"]:
                if repeat != "count":
                    moves.append({"type": "choose", "character": "count", "repeat": repeat})
        else:
            moves.append({"type": "choose", "character": char})
    return moves


# --- the move menu and dispatch ---------------------------------------------------------

# Every move's fields and their kinds (games.engine.contract.FIELD_KINDS): the contract
# refuses any other shape before these rules look at a move.
MOVE_FIELDS = {
    **{kind: {} for kind in ("pass", "done", "accept", "decline", "watch", "nowatch")},
    **{kind: {} for kind in ("tax", "notax", "skip", "sawmill")},
    "forest": {"cell": "str"},
    "choose": {"character": "str", "repeat": "str"},
    "build": {"building": "str", "cells": "strs", "facing": "str?", "discount": "str"},
    "propose": {"building": "str", "cells": "strs", "facing": "str?", "partners": "ints"},
    "farm": {"extra": "strs"},
    "buy": {"count": "int", "good": "str", "at": "str"},
    "play": {"card": "str", "target": "str", "district": "str", "take": "str"},
    "sell": {"good": "str", "count": "int", "at": "str"},
    "convert": {"good": "str", "count": "int"},
    "pasty": {"filling": "str"},
    "join": {"food": "str"},
    "pledge": {"guilders": "int", "food": "strs"},
}
_TERMS_FIELDS = {"seats": "ints", "guilders": "ints", "wood": "ints", "points": "ints"}
MOVE_FIELDS_V2 = {
    **MOVE_FIELDS,
    "propose": {"building": "str", "cells": "strs", "facing": "str?", **_TERMS_FIELDS},
    "counter": {"cells": "strs", "facing": "str?", **_TERMS_FIELDS},
}


def legal_moves(state, seat: int) -> list[dict]:
    if seat not in to_act(state):
        return []
    pending = state["pending"]
    if pending is not None:
        kind = pending["kind"]
        if kind == "proposal":
            split = pending["split"][str(seat)]
            answers = [{"type": "decline"}]
            if can_afford(state["players"][seat], split["guilders"], split["wood"]):
                answers.insert(0, {"type": "accept"})
            if ruleset(state) >= 2:
                answers += counter_moves(state, seat)
            return answers
        if kind == "watch":
            return [{"type": "watch"}, {"type": "nowatch"}]
        if kind == "tax":
            return [{"type": "tax"}, {"type": "notax"}]
        if kind == "festival":
            player = state["players"][seat]
            return [{"type": "join", "food": p} for p in PRODUCTS if player[p]] + [{"type": "skip"}]
        if kind == "pledge":
            return pledge_moves(state, seat)
    phase = state["phase"]
    if phase == "opening_forest":
        return [{"type": "forest", "cell": c} for c in B.open_forest(state)]
    if phase == "opening_building":
        return starting_options(state, seat)
    if phase == "choose":
        return choose_moves(state)
    act = state["act"]
    char = act["char"]
    if char == "woodcutter":
        return [{"type": "forest", "cell": c} for c in B.open_forest(state)] + [{"type": "pass"}]
    if char == "builder":
        return builder_moves(state, seat)
    if char == "farmer":
        return [{"type": "farm", "extra": e} for e in farmer_extras(state, seat)]
    if char == "bailiff":
        if act["part"] == "buy":
            player = state["players"][seat]
            counts = [0, 1] + ([2] if player["guilders"] >= 3 and len(state["deck"]) >= 2 else [])
            return [{"type": "buy", "count": k} for k in counts]
        if ruleset(state) >= 2:  # every card holder is asked: see after_play
            return playable(state, seat) + [{"type": "done"}, {"type": "pass"}]
        return playable(state, seat) + [{"type": "done"}]
    if char == "merchant":
        return merchant_moves(state, seat)
    return [{"type": "pass"}]


def apply(state, seat: int, move: dict) -> dict:
    """Make the move, or raise IllegalMove (the state unchanged) saying why not."""
    if not isinstance(move, dict):
        raise IllegalMove("A move is a command such as 'pass'.")
    if seat not in to_act(state):
        raise IllegalMove("It is not your turn.")
    news = state["news"]
    try:
        return play(state, seat, move, checked=True)
    except IllegalMove:
        state["news"] = news
        raise


def play(
    state, seat: int, move: dict, _rng=None, narrate: bool = True, checked: bool = False
) -> dict:
    """Make the move of the seat to act (see `apply`). Not `checked`: a move read back from
    the log, which `apply` accepted when it was appended; the checks that can only refuse a
    move (where a building may stand, a proposal's terms, ...) are skipped, and the state
    changes exactly as with them. Not `narrate`: a replayed move whose news nobody reads
    (`Game.replay_move`); its narration is not written, and it leaves `news` empty.
    Its parameters are `Game.replay_move`'s (the rules draw nothing after the setup, so the
    event's generator goes unused): it is the class's `replay_move` itself, as no wrapper
    need run for every move a position is loaded with."""
    state["news"] = [] if narrate else None
    if state["pending"] is not None:
        answer_pending(state, seat, move, checked)
    else:
        phase = state["phase"]
        if phase == "act":  # most moves: tested first
            ACT_MOVES[state["act"]["char"]](state, seat, move, checked)
        elif phase == "choose":
            if move.get("type") != "choose":
                raise IllegalMove("Choose a character first.")
            choose(state, seat, move, checked)
        elif phase == "opening_forest":
            if move.get("type") != "forest":
                raise IllegalMove("Choose a forest tile to clear: 'take forest C4'.")
            take_forest(state, seat, move.get("cell"), checked)
            state["idx"] += 1
        elif phase == "opening_building":
            if move.get("type") != "build":
                raise IllegalMove("Place your starting building: a House, a Grain field or a Boat.")
            build_start(state, seat, move, checked)
        else:
            raise AssertionError(f"no moves in phase {phase}")
    advance(state)
    if not narrate:
        state["news"] = []
    return state


def woodcutter_move(state, seat: int, move: dict, checked: bool = True) -> None:
    kind = move.get("type")
    if kind == "forest":
        take_forest(state, seat, move.get("cell"), checked)
    elif kind == "pass":
        if state["news"] is not None:
            say(state, f"{name(state, seat)} passed.")
    else:
        raise IllegalMove("Take a forest tile ('take forest C4') or pass.")
    next_actor(state)


def builder_move(state, seat: int, move: dict, checked: bool = True) -> None:
    kind = move.get("type")
    if kind == "build":
        build(state, seat, move, checked)
    elif kind == "propose":
        propose(state, seat, move, checked)
    elif kind == "pass":
        if state["news"] is not None:
            say(state, f"{name(state, seat)} built nothing.")
        next_actor(state)
    elif kind == "play" and move.get("card") == "housebuilding":
        player = state["players"][seat]
        turn = state["act"]["turn"]
        if "housebuilding" not in player["hand"]:
            raise IllegalMove("You do not hold House Building.")
        if turn.get("housebuilding"):
            raise IllegalMove("You already played House Building this turn.")
        player["hand"].remove("housebuilding")
        state["discard"].append("housebuilding")
        turn["housebuilding"] = True
        if state["news"] is not None:
            say(
                state,
                f"{name(state, seat)} played House Building: 2 g and 2 wood off a House or "
                "Manor house.",
            )
    else:
        raise IllegalMove("Build ('build house at D5 facing north'), propose, or pass.")


def farmer_move(state, seat: int, move: dict, checked: bool = True) -> None:
    if move.get("type") != "farm":
        raise IllegalMove("Say 'farm' (the chooser may add 'extra grain', 'extra fish'...).")
    farm(state, seat, move, checked)


def bailiff_move(state, seat: int, move: dict, checked: bool = True) -> None:
    kind = move.get("type")
    if state["act"]["part"] == "buy":
        if kind != "buy":
            raise IllegalMove("Buy 0, 1 or 2 cards: 'buy 1 card' or 'buy 0'.")
        buy_cards(state, seat, move.get("count"))
    elif kind == "done" or kind == "pass" and ruleset(state) >= 2:
        if state["news"] is not None:
            say(state, f"{name(state, seat)} played no more cards.")
        next_actor(state)
    elif kind == "play":
        play_card(state, seat, move, checked)
    else:
        raise IllegalMove("Play a wish card ('play gatherer') or say 'done'.")


# The moves of the action phase, per character (the Rentmaster's phase asks nobody).
ACT_MOVES = {
    "woodcutter": woodcutter_move,
    "builder": builder_move,
    "farmer": farmer_move,
    "bailiff": bailiff_move,
    "merchant": merchant_act,
}


def answer_pending(state, seat: int, move: dict, checked: bool = True) -> None:
    pending = state["pending"]
    kind = pending["kind"]
    answer = move.get("type")
    if kind == "proposal":
        if answer == "counter":
            counter(state, seat, move, checked)
            return
        if answer not in ("accept", "decline"):
            raise IllegalMove(
                "Answer the proposal: 'accept', 'decline'"
                + (" or a counter-offer ('counter: ...')." if ruleset(state) >= 2 else ".")
            )
        if checked and answer == "accept":
            split = pending["split"][str(seat)]
            if not can_afford(state["players"][seat], split["guilders"], split["wood"]):
                raise IllegalMove("You cannot pay your share any more.")
        pending["answers"][str(seat)] = answer
        # Worded wrongly ("acceptd"), but narration is part of the hashed position: the
        # history puts it right (text.worded), so stored logs keep their digests.
        if state["news"] is not None:
            say(state, f"{name(state, seat)} {answer}d the proposal.")
        if answer == "decline" and ruleset(state) >= 2:  # one decline ends it: ask no more
            resolve_proposal(state)
            return
    elif kind in ("watch", "tax"):
        allowed = ("watch", "nowatch") if kind == "watch" else ("tax", "notax")
        if answer not in allowed:
            raise IllegalMove(
                "Answer 'watch' (play Citizens' Watch if you hold it) or 'no watch'."
                if kind == "watch"
                else "Answer 'tax' (play Income Tax if you hold it) or 'no tax'."
            )
        pending["answers"][str(seat)] = answer
        if state["news"] is not None:  # the answer stays secret until the window closes
            say(state, f"{name(state, seat)} answered.")
    elif kind == "festival":
        if answer == "skip":
            pending["answers"][str(seat)] = "skip"
            if state["news"] is not None:
                say(state, f"{name(state, seat)} stayed away from the festival.")
        elif answer == "join" and move.get("food") in PRODUCTS:
            if not state["players"][seat][move["food"]]:
                raise IllegalMove(f"You have no {move['food']}.")
            pending["answers"][str(seat)] = move["food"]
            if state["news"] is not None:
                say(state, f"{name(state, seat)} joined the festival with 1 {move['food']}.")
        else:
            raise IllegalMove("Answer 'join with fish' (or grain, livestock, game) or 'skip'.")
    elif kind == "pledge":
        if answer != "pledge":
            raise IllegalMove(
                "Pledge what you will pay: 'pay 2' or 'pay 1 and fish, grain', or 'pay 0'."
            )
        g = move.get("guilders")
        food = move.get("food", [])
        player = state["players"][seat]
        g_cost, f_cost = pending["cost"]
        if not isinstance(g, int) or not 0 <= g <= min(g_cost, player["guilders"]):
            raise IllegalMove(f"Pledge 0 to {min(g_cost, player['guilders'])} guilders.")
        if (
            not isinstance(food, list)
            or len(food) > f_cost
            or any(p not in PRODUCTS or food.count(p) > player[p] for p in food)
        ):
            raise IllegalMove(
                f"Pledge up to {f_cost} food you hold (fish, grain, livestock, game)."
            )
        pending["answers"][str(seat)] = {"guilders": g, "food": sorted(food)}
        if state["news"] is not None:
            say(
                state,
                f"{name(state, seat)} pledged {g} guilder(s)"
                + (f" and {', '.join(food)}" if food else "")
                + ".",
            )
    answers = pending["answers"]
    for s in pending["waiting"]:
        if str(s) not in answers:  # more answers to come
            return
    resume = pending.get("resume")
    if kind == "proposal":
        resolve_proposal(state)
    elif kind == "watch":
        resolve_watch(state)
    elif kind == "festival":
        resolve_festival(state)
    elif kind == "pledge":
        resolve_pledges(state)
    elif kind == "tax":
        resolve_tax(state)
        return
    if resume == "draw":
        continue_drawing(state)
    elif resume == "play":
        after_play(state, state["act"]["order"][state["act"]["idx"]])


def resolve_tax(state) -> None:
    pending = state["pending"]
    state["pending"] = None
    for s in clockwise(state, state["start"]):
        if pending["answers"].get(str(s)) == "tax" and "incometax" in state["players"][s]["hand"]:
            state["players"][s]["hand"].remove("incometax")
            state["discard"].append("incometax")
            if state["news"] is not None:
                say(
                    state, f"{name(state, s)} played Income Tax: nobody received income this round."
                )
            pay_income(state, taxed=True)
            return
    pay_income(state, taxed=False)


def default_move(state, seat: int) -> dict:
    """Cautious: pass, decline, pay nothing, buy nothing, the cheapest choice."""
    moves = legal_moves(state, seat)
    for preferred in (
        {"type": "pass"},
        {"type": "done"},
        {"type": "decline"},
        {"type": "nowatch"},
        {"type": "notax"},
        {"type": "skip"},
        {"type": "buy", "count": 0},
        {"type": "pledge", "guilders": 0, "food": []},
    ):
        if preferred in moves:
            return preferred
    return moves[0]
