"""The flow of the game: whose turn it is, a round of characters, each character's phase
begun, run on and finished, the end of a round (income, Income Tax) and the end of the game.
"""

from __future__ import annotations

from games.engine.words import _

from .. import geometry as B
from ..data import (
    BOARDS,
    BUILDINGS,
    CHARACTERS,
    CITY_GATE_POINTS_PER_OUTER,
    END_POINTS,
    ROUND_LIMIT,
    UNLOCKED_BY,
)
from .farming import farm_unasked
from .helpers import (
    CLOCKWISE,
    built,
    clockwise,
    gain_points,
    house_counts,
    name,
    owned,
    privilege_count,
    ruleset,
    say,
    unplayed_copies,
    wood_value,
)
from .merchant import can_trade
from .opening import any_starting_option
from .proposals import can_propose_any


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
                    say(
                        state,
                        _("{who} found no room.", who=name(state, state["order"][state["idx"]])),
                    )
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
                say(
                    state,
                    _(
                        "{who} received {count} guilder(s) as Merchant.",
                        who=name(state, seat),
                        count=bonus,
                    ),
                )
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
                    say(
                        state,
                        _(
                            "{who} received {count} guilder(s) as Bailiff.",
                            who=name(state, seat),
                            count=bonus,
                        ),
                    )
            return player["guilders"] < 1 or not state["deck"]
        return not player["hand"] or act["turn"].get("played", 0) >= 2
    return False  # the Farmer's actors: see farm_unasked


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
                    say(
                        state,
                        _(
                            "{who} collected {count} point(s) of rent.",
                            who=name(state, seat),
                            count=rent,
                        ),
                    )
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
                    say(
                        state,
                        _(
                            "{who} received {count} guilder(s) income.",
                            who=name(state, seat),
                            count=income,
                        ),
                    )
    if ruleset(state) < 2 and game_ends(state):  # version 1 checked after income
        finish_game(state)
        return
    state["start"] = (state["start"] + 1) % state["n"]
    state["round"] += 1
    if state["news"] is not None:
        say(
            state,
            _(
                "Round {round}: {who} is the starting player.",
                round=state["round"],
                who=name(state, state["start"]),
            ),
        )
    start_round(state)


def resolve_tax(state) -> None:
    pending = state["pending"]
    state["pending"] = None
    for s in clockwise(state, state["start"]):
        if pending["answers"].get(str(s)) == "tax" and "incometax" in state["players"][s]["hand"]:
            state["players"][s]["hand"].remove("incometax")
            state["discard"].append("incometax")
            if state["news"] is not None:
                say(
                    state,
                    _(
                        "{who} played Income Tax: nobody received income this round.",
                        who=name(state, s),
                    ),
                )
            pay_income(state, taxed=True)
            return
    pay_income(state, taxed=False)


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
            _(
                "The game is over: {scores}",
                scores=", ".join(f"{name(state, s)} {scores[s]}" for s in ranking),
            ),
        )
