"""Builders of Blankenburg: the turn sequence and one function per move.

A turn is: bidding (select resources, sealed bids, picks), building (each player in turn
order), income (event, visitor, offers, lodging), marketplace (plans, two resource rounds),
end of turn. The state is plain JSON; see `new_state` for its shape.
"""

from __future__ import annotations

import hashlib
from typing import Any

from games.engine import IllegalMove
from games.engine.words import Text, _, joined

from .data import (
    BASIC_IDS,
    CHARACTERS,
    CITIZENS,
    DIE_FACES,
    DIE_YIELD,
    DISTRICT_NAMES,
    DISTRICTS,
    EVENTS,
    GOLD_TOTAL,
    GRAND_IDS,
    HAND_LIMIT,
    HOLDING_LIMIT,
    INN,
    MAJORITY_BONUS,
    MAX_TAKE,
    PLAN_DRAW,
    PLAN_PRICE,
    PLANS,
    REPAIR_COST,
    RESOURCE_NAMES,
    RESOURCE_PRICE,
    RESOURCE_TOTAL,
    RESOURCES,
    SELL_PRICE,
    SILVER_PER_PRESTIGE,
    SILVER_PRESTIGE_CAP,
    SPACES,
    STARRED_CITIZENS,
    STARRED_PLANS,
    START_RESOURCES,
    START_SILVER,
    TRACK_LENGTH,
    VISITORS,
    WHEEL_CARRY,
    ZERO_BID_SILVER,
    ZERO_BID_SILVER_SIX,
)

State = dict[str, Any]
MASTER_BUILDER = -1  # owner of the master builder's structures (two-player variant)

# Regular spaces per district and the dual spaces, per board side.
REGULAR = {
    board: {d: [i for i, ds in enumerate(spaces) if ds == (d,)] for d in DISTRICTS}
    for board, spaces in SPACES.items()
}
DUALS = {
    board: [i for i, ds in enumerate(spaces) if len(ds) == 2] for board, spaces in SPACES.items()
}
# Each space's district if it is a regular one, None for a dual space, per board side.
REGULAR_DISTRICT = {
    board: tuple(ds[0] if len(ds) == 1 else None for ds in spaces)
    for board, spaces in SPACES.items()
}


# --- small helpers ------------------------------------------------------------------------


def is_v2(state: State) -> bool:
    """Rules version 2 (issue 12): who is asked never depends on hidden silver. Version 1
    matches replay as they were played."""
    return state.get("ruleset", 1) >= 2


# For each player count (up to six), the seats clockwise from each start, SEAT_ORDER[n][start],
# and the seats after each seat in that order, SEATS_AFTER[n][first][seat]: built once, asked
# for nearly every move (indexing tuples costs less than a cached function's call; the steps
# that hand the turn on index them directly).
SEAT_ORDER = tuple(
    tuple(tuple((start + i) % n for i in range(n)) for start in range(n)) for n in range(7)
)
SEATS_AFTER = tuple(
    tuple(tuple(order[order.index(seat) + 1 :] for seat in range(n)) for order in SEAT_ORDER[n])
    for n in range(7)
)


def turn_order(state: State) -> tuple[int, ...]:
    return SEAT_ORDER[state["n"]][state["first"]]


def char_of(state: State, seat: int) -> str:
    return state["players"][seat]["char"]


def name_of(state: State, seat: int) -> str:
    return "the master builder" if seat == MASTER_BUILDER else state["names"][seat]


def news(state: State, text: Text) -> None:
    """Add a line to what the move tells. `state["news"]` is None while a replay goes through
    a move whose news no one will read (`moves.replay_move`, narrate False): then nothing is
    written, and the places that build a line ask first, so as not to build it for nothing."""
    told = state["news"]
    if told is not None:
        told.append(text)


def take_from_supply(state: State, resource: str, count: int) -> int:
    """Up to `count` of a resource (or gold) from the supply; returns how many came."""
    supply = state["supply"]
    got = count if count < supply[resource] else supply[resource]  # min() costs more
    supply[resource] -= got
    return got


def resource_list(resources) -> Text:
    """Resources named in a sentence: "wood, stone, glass"."""
    return joined((RESOURCE_NAMES[r] for r in resources), ", ")


def cost_list(cost) -> Text:
    """A plan's cost in a sentence: "1 wood, 2 stone"."""
    return joined(
        (_("{count} {resource}", count=k, resource=RESOURCE_NAMES[r]) for r, k in cost), ", "
    )


def new_salts(rng, n: int) -> list[str]:
    """A fresh salt for each of the n sealed bids (the generator's method is looked up once:
    the event's rng hands every attribute on through a Python-level __getattr__)."""
    getrandbits = rng.getrandbits
    salts = []
    for _salt in range(n):  # a loop: a comprehension's frame costs more than two or three draws
        salts.append(getrandbits(128).to_bytes(16, "big").hex())  # 32 hex digits
    return salts


def receipt(salt: str, turn: int, bid: int) -> str:
    """The bidder's receipt: a commitment to the bid that the revealed salt lets anyone check."""
    return hashlib.sha256(f"{salt}:{turn}:{bid}".encode()).hexdigest()


def hand_limit(state: State, seat: int) -> int:
    return HAND_LIMIT + (1 if char_of(state, seat) == "architect" else 0)


def space_district(state: State, space: int) -> str:
    """The district a structure counts for: a dual space takes its structure's district, or
    the left colour when the City Planner put a third district's structure there [R]."""
    districts = SPACES[state["board"]][space]
    if len(districts) == 1:
        return districts[0]
    plan = PLANS[state["town"][space]["card"]]
    return plan.district if plan.district in districts else districts[0]


def owned_spaces(state: State, seat: int) -> list[int]:
    return [i for i, s in enumerate(state["town"]) if s is not None and s["owner"] == seat]


def structures_in_district(state: State, district: str | None) -> list[int]:
    """How many structures each seat has in the district (None: none counted), in one pass."""
    counts = [0] * state["n"]
    if district is None:
        return counts
    regular = REGULAR_DISTRICT[state["board"]]
    for i, s in enumerate(state["town"]):
        if (
            s is not None
            and s["owner"] >= 0
            and (regular[i] or space_district(state, i)) == district
        ):
            counts[s["owner"]] += 1
    return counts


def pay_silver(state: State, seat: int, amount: int, reason: Text) -> None:
    """A forced payment; who cannot pay gives all their silver and a prestige [R]."""
    if amount <= 0:
        return
    player = state["players"][seat]
    if player["silver"] >= amount:
        player["silver"] -= amount
        if state["news"] is not None:
            news(
                state,
                _(
                    "{who} paid {amount} silver ({reason})",
                    who=state["names"][seat],
                    amount=amount,
                    reason=reason,
                ),
            )
    else:
        player["silver"] = 0
        player["prestige"] = max(0, player["prestige"] - 1)
        if state["news"] is not None:
            news(
                state,
                _(
                    "{who} went bankrupt ({reason}): all silver and 1 prestige",
                    who=state["names"][seat],
                    reason=reason,
                ),
            )


# --- setup --------------------------------------------------------------------------------

# What setup deals from, the same in every game: worked out once, copied per game.
START_HOLDING = {r: START_RESOURCES.get(r, 0) for r in RESOURCES}
UNSTARRED_BASIC = tuple(i for i in BASIC_IDS if i not in STARRED_PLANS)
UNSTARRED_CITIZENS = tuple(c.id for c in CITIZENS if not c.starred)
VISITOR_IDS = tuple(v.id for v in VISITORS)
EVENT_IDS = tuple(e.id for e in EVENTS)
EMPTY_WHEEL = {**{r: 0 for r in RESOURCES}, "gold": 0}
# The characters in play on each board side (the City Planner needs the back's dual spaces).
BOARD_CHARACTERS = {
    board: tuple(c.key for c in CHARACTERS if board == "back" or c.key != "city_planner")
    for board in SPACES
}


def new_state(names: list[str], options: dict[str, Any], rng) -> State:
    n = len(names)
    board = options.get("board", "front")
    supply = dict(RESOURCE_TOTAL)
    supply["gold"] = GOLD_TOTAL
    players = []
    for _seat in range(n):
        res = dict(START_HOLDING)
        for r in RESOURCES:
            supply[r] -= res[r]
        players.append(
            {"silver": START_SILVER, "res": res, "gold": 0, "prestige": 0, "hand": [], "char": ""}
        )
    shuffle = rng.shuffle  # looked up once (see new_salts)
    # Starred basic plans: one to each player, one communal, the rest into the deck [R].
    starred = list(STARRED_PLANS)
    shuffle(starred)
    for seat in range(n):
        players[seat]["hand"].append(starred.pop())
    basic_deck = list(UNSTARRED_BASIC)
    communal_basic = None
    if starred:
        communal_basic = starred.pop()
    basic_deck.extend(starred)
    shuffle(basic_deck)
    if communal_basic is None:  # six players: every starred plan was dealt [R]
        communal_basic = basic_deck.pop(0)
    grand_deck = list(GRAND_IDS)
    shuffle(grand_deck)
    communal_grand = grand_deck.pop(0)
    # Characters; the City Planner's ability needs the dual spaces of the alternate board.
    characters = list(BOARD_CHARACTERS[board])
    shuffle(characters)
    for seat in range(n):
        players[seat]["char"] = characters[seat]
    # Citizens: starred ones on the track, the rest form the deck; six players add one more.
    stars = list(STARRED_CITIZENS)
    shuffle(stars)
    track = stars[:n]
    citizen_deck = [*UNSTARRED_CITIZENS, *stars[n:]]
    shuffle(citizen_deck)
    wheel = dict(EMPTY_WHEEL)
    if n == 6:
        extra = citizen_deck.pop(0)
        track.append(extra)
        if CITIZENS[extra].gold:
            wheel["gold"] += min(1, supply["gold"])
            supply["gold"] -= wheel["gold"]
    visitor_deck = list(VISITOR_IDS)
    shuffle(visitor_deck)
    event_deck = list(EVENT_IDS)
    shuffle(event_deck)
    market = {}
    for r in RESOURCES:
        market[r] = n - 1
        supply[r] -= n - 1
    state: State = {
        "names": list(names),
        "n": n,
        "board": board,
        "master_builder": bool(options.get("master_builder")) and n == 2,
        "turn": 1,
        "first": rng.randrange(n),  # "whose birthday occurs next": drawn at random
        "phase": "",
        "cur": None,
        "players": players,
        "supply": supply,
        "market": market,
        "wheel": wheel,
        "dice": [],
        "basic_deck": basic_deck,
        "grand_deck": grand_deck,
        "communal": [communal_basic, communal_grand],
        "citizen_deck": citizen_deck,
        "track": track,
        "visitor_deck": visitor_deck,
        "event_deck": event_deck,
        "visitor": None,
        "event": None,
        "town": [None] * len(SPACES[board]),
        "locks": {},
        "build_seq": 0,
        "bids": [None] * n,
        "salts": new_salts(rng, n),
        "reveal": None,
        "picks": [],
        "pick_i": 0,
        "built": False,
        "demolished": False,
        "offer": None,
        "income_mod": {},
        "no_visitor": False,
        "lodging": [],
        "round": 0,
        "drawn": [],
        "drawn_deck": "",
        "waiting": [],
        "news": [],
        "result": None,
    }
    for seat in range(n):
        if players[seat]["char"] == "noble":  # [R]
            players[seat]["silver"] += 4
            players[seat]["gold"] += take_from_supply(state, "gold", 1)
        elif players[seat]["char"] == "banker":
            players[seat]["silver"] += 3
    merchants = [s for s in range(n) if players[s]["char"] == "merchant"]
    if merchants:
        state["phase"] = "merchant"
        state["cur"] = merchants[0]
    else:
        start_turn(state, rng, fresh_salts=False)
    return state


def choose_extra(state: State, seat: int, resource: str, rng) -> None:
    """The Merchant's extra starting resource."""
    if resource not in RESOURCES:
        raise IllegalMove(_("Choose one of {resources}.", resources=resource_list(RESOURCES)))
    if state["supply"][resource] < 1:
        raise IllegalMove(
            _("The supply has no {resource} left.", resource=RESOURCE_NAMES[resource])
        )
    state["players"][seat]["res"][resource] += take_from_supply(state, resource, 1)
    if state["news"] is not None:
        news(
            state,
            _(
                "{who} (Merchant) took one extra {resource}",
                who=state["names"][seat],
                resource=RESOURCE_NAMES[resource],
            ),
        )
    start_turn(state, rng, fresh_salts=False)


# --- bidding ------------------------------------------------------------------------------


def start_turn(state: State, rng, fresh_salts: bool = True) -> None:
    n = state["n"]
    state["bids"] = [None] * n
    if fresh_salts:
        state["salts"] = new_salts(rng, n)
    state["dice"] = []
    if n == 6:  # one of each resource, no choice, all five dice [R]
        for r in RESOURCES:
            state["wheel"][r] += take_from_supply(state, r, 1)
        roll_dice(state, rng, 5)
        state["phase"] = "bid"
        state["cur"] = None
    else:
        state["phase"] = "select"
        state["cur"] = state["first"]


def selectable_count(state: State) -> int:
    available = sum(1 for r in RESOURCES if state["supply"][r] > 0)
    return min(state["n"] - 1, available)


def select_resources(state: State, seat: int, chosen: list[str], rng) -> None:
    want = selectable_count(state)
    if len(set(chosen)) != len(chosen) or len(chosen) != want:
        raise IllegalMove(_("Choose {want} different resources for the bidding wheel.", want=want))
    for r in chosen:
        if r not in RESOURCES:
            raise IllegalMove(
                _(
                    "{word} is not a resource; choose from {resources}.",
                    word=r,
                    resources=resource_list(RESOURCES),
                )
            )
        if state["supply"][r] < 1:
            raise IllegalMove(_("The supply has no {resource} left.", resource=RESOURCE_NAMES[r]))
    fill_wheel(state, chosen, rng)


def fill_wheel(state: State, chosen: list[str], rng) -> None:
    """Put the resources `select_resources` has checked (or read back from the log) on the
    wheel and roll the dice."""
    for r in chosen:
        state["wheel"][r] += take_from_supply(state, r, 1)
    roll_dice(state, rng, state["n"])
    state["phase"] = "bid"
    state["cur"] = None


def roll_dice(state: State, rng, dice: int) -> None:
    """Roll the resource dice; on the first turn reroll while the wheel would hold fewer
    resource types than there are players [R] (never possible with six)."""
    wheel = state["wheel"]
    choice = rng.choice  # looked up once (see new_salts)
    reroll = state["turn"] == 1 and state["n"] != 6
    on_wheel = {r for r in RESOURCES if wheel[r] > 0} if reroll else None
    for _roll in range(50):
        faces = []
        for _die in range(dice):  # a loop costs less than a comprehension for five at most
            faces.append(choice(DIE_FACES))
        if not reroll or len(on_wheel | {f for f in faces if f}) >= state["n"]:
            break
    for face in faces:
        if face:
            wheel[face] += take_from_supply(state, face, DIE_YIELD[face])
    state["dice"] = faces


def place_bid(state: State, seat: int, silver: int) -> None:
    if state["bids"][seat] is not None:
        raise IllegalMove(_("You have already placed your bid this turn."))
    have = state["players"][seat]["silver"]
    if not isinstance(silver, int) or isinstance(silver, bool) or silver < 0:
        raise IllegalMove(_("A bid is a whole number of silver, 0 or more."))
    if silver > have:
        raise IllegalMove(
            _("You have {have} silver; you cannot bid {silver}.", have=have, silver=silver)
        )
    enter_bid(state, seat, silver)


def enter_bid(state: State, seat: int, silver: int) -> None:
    """Seal a bid `place_bid` has checked (or one read back from the log)."""
    state["bids"][seat] = silver
    if None not in state["bids"]:
        reveal_bids(state)


def reveal_bids(state: State) -> None:
    n = state["n"]
    bids = state["bids"]
    first = state["first"]
    # Highest bid first, ties in turn order (a stable sort keeps that order among equals);
    # two bids are compared without a sort, which costs more.
    order = SEAT_ORDER[n][first]
    if n == 2:
        a, b = order
        ranked = [b, a] if bids[b] > bids[a] else [a, b]
    else:
        ranked = sorted(order, key=bids.__getitem__, reverse=True)
    for s in range(n):
        if bids[s] == 0:
            state["players"][s]["silver"] += zero_bid_gain(state, s)
    state["reveal"] = {"turn": state["turn"], "bids": list(bids), "salts": list(state["salts"])}
    if state["news"] is not None:
        tell_bids(state, ranked)
    picks = []
    for s in ranked:  # a loop costs less than a comprehension for a few seats
        if bids[s] > 0:
            picks.append(s)
    state["picks"] = picks
    state["pick_i"] = 0
    advance_picks(state)


BIDS_REVEALED = _("bids revealed: {bids}").template


def tell_bids(state: State, ranked: list[int]) -> None:
    """The news of the revealed bids: each bid from the highest, and what bidding zero gave."""
    n = state["n"]
    bids = state["bids"]
    names = state["names"]
    news(state, _(BIDS_REVEALED, bids=", ".join(f"{names[s]} {bids[s]}" for s in ranked)))
    zeros = [names[s] for s in range(n) if bids[s] == 0]
    if zeros and is_v2(state):  # the Banker gains one more [R]: one line per amount
        for gain in sorted({zero_bid_gain(state, s) for s in range(n) if bids[s] == 0}):
            who = [names[s] for s in range(n) if bids[s] == 0 and zero_bid_gain(state, s) == gain]
            news(state, _("{who} bid zero and gained {gain} silver", who=", ".join(who), gain=gain))
    elif zeros:
        zero = ZERO_BID_SILVER_SIX if n == 6 else ZERO_BID_SILVER
        news(state, _("{who} bid zero and gained {gain} silver", who=", ".join(zeros), gain=zero))


def zero_bid_gain(state: State, seat: int) -> int:
    zero = ZERO_BID_SILVER_SIX if state["n"] == 6 else ZERO_BID_SILVER
    return zero + (1 if char_of(state, seat) == "banker" else 0)


def wheel_categories(state: State) -> list[str]:
    wheel = state["wheel"]  # no count is negative
    return [r for r in RESOURCES if wheel[r]]


def advance_picks(state: State) -> None:
    """Hand the wheel to the next bidder; a bidder with no real choice is served at once."""
    wheel = state["wheel"]
    while state["pick_i"] < len(state["picks"]):
        seat = state["picks"][state["pick_i"]]
        # How many categories the wheel holds (`wheel_categories`), counted: the bidder
        # chooses only among two or more; the last one counted is the only one otherwise.
        options = 0
        option = None
        for r in RESOURCES:
            if wheel[r]:
                options += 1
                option = r
        if not options and wheel["gold"] == 0:
            if state["news"] is not None:
                left = ", ".join(state["names"][s] for s in state["picks"][state["pick_i"] :])
                news(state, _("the wheel is empty: {who} took nothing and paid nothing", who=left))
            break
        if options > 1:
            state["phase"] = "pick"
            state["cur"] = seat
            return
        take_pick(state, seat, option)
    end_bidding(state)


def take_pick(state: State, seat: int, resource: str | None) -> None:
    player = state["players"][seat]
    wheel = state["wheel"]
    player["silver"] -= state["bids"][seat]
    if resource is not None:
        count = MAX_TAKE if MAX_TAKE < wheel[resource] else wheel[resource]  # min() costs more
        wheel[resource] -= count
        player["res"][resource] += count
    gold = wheel["gold"] > 0
    if gold:
        wheel["gold"] -= 1
        player["gold"] += 1
    if state["news"] is not None:
        who, bid = state["names"][seat], state["bids"][seat]
        if resource is None:  # only gold was left on the wheel (`advance_picks`)
            said = _("{who} paid {bid} and took 1 gold", who=who, bid=bid)
        elif gold:
            said = _(
                "{who} paid {bid} and took {count} {resource} and 1 gold",
                who=who,
                bid=bid,
                count=count,
                resource=RESOURCE_NAMES[resource],
            )
        else:
            said = _(
                "{who} paid {bid} and took {count} {resource}",
                who=who,
                bid=bid,
                count=count,
                resource=RESOURCE_NAMES[resource],
            )
        news(state, said)
    state["pick_i"] += 1


def pick(state: State, seat: int, resource: str) -> None:
    if resource not in RESOURCES or state["wheel"][resource] <= 0:
        raise IllegalMove(
            _(
                "The wheel holds {resources}; you cannot take {resource}.",
                resources=resource_list(wheel_categories(state)),
                resource=RESOURCE_NAMES.get(resource, resource),
            )
        )
    take_pick(state, seat, resource)
    advance_picks(state)


def end_bidding(state: State) -> None:
    wheel = state["wheel"]
    for r in RESOURCES:  # leftovers stay, at most three of each [R]
        excess = wheel[r] - WHEEL_CARRY
        if excess > 0:
            wheel[r] -= excess
            state["supply"][r] += excess
    state["picks"] = []
    state["pick_i"] = 0
    start_building(state)


# --- building -----------------------------------------------------------------------------


def start_building(state: State) -> None:
    state["phase"] = "build"
    next_builder(state, SEAT_ORDER[state["n"]][state["first"]])


def next_builder(state: State, candidates: tuple[int, ...]) -> None:
    for seat in candidates:
        state["cur"] = seat
        state["built"] = False
        state["demolished"] = False
        if has_build_action(state, seat):
            return
    state["cur"] = None
    if state["master_builder"]:
        master_builder_builds(state)
    start_income(state)


def finish_builder(state: State) -> None:
    next_builder(state, SEATS_AFTER[state["n"]][state["first"]][state["cur"]])


def payment(state: State, seat: int, plan_id: int) -> dict[str, int] | None:
    """What building the plan takes from the player: own resources first, then (Mason) one
    wood/stone swap, then gold for each missing resource [R]. None if they cannot."""
    player = state["players"][seat]
    have = player["res"]
    paid: dict[str, int] = {}
    missing = 0
    for r, k in PLANS[plan_id].cost:
        if have[r] >= k:
            paid[r] = k
        else:
            paid[r] = have[r]
            missing += k - have[r]
    if missing and player["char"] == "mason":
        cost = PLANS[plan_id].cost_dict
        for need, spare in (("wood", "stone"), ("stone", "wood")):
            if cost.get(need, 0) > paid.get(need, 0) and have[spare] - paid.get(spare, 0) > 0:
                paid[spare] = paid.get(spare, 0) + 1
                missing -= 1
                break
    if missing > player["gold"]:
        return None
    if missing:
        paid["gold"] = missing
    return paid


def can_pay(state: State, seat: int, plan_id: int) -> bool:
    """Whether `payment` finds one, without working it out: gold covering every missing
    resource always does; the Mason's swap saves one at most, so only then is it asked."""
    player = state["players"][seat]
    have = player["res"]
    missing = 0
    for r, k in PLANS[plan_id].cost:
        if have[r] < k:
            missing += k - have[r]
    if missing <= player["gold"]:
        return True
    return (
        missing == player["gold"] + 1
        and player["char"] == "mason"
        and payment(state, seat, plan_id) is not None
    )


def build_spaces(state: State, seat: int, plan_id: int) -> list[int]:
    """Spaces where the plan may go now: the first usable regular space of its district,
    then any usable dual space (only once no regular space is usable, except for the City
    Planner, who may use any dual space for any structure)."""
    plan = PLANS[plan_id]
    town = state["town"]
    locks = state["locks"]
    board = state["board"]
    regular = None
    for i in REGULAR[board][plan.district]:
        if town[i] is None:
            lock = locks.get(str(i))
            if lock is None:
                regular = i
                break
            if regular is None and plan.prestige > lock:
                regular = i
    result = [] if regular is None else [regular]
    if board == "back":
        planner = seat >= 0 and char_of(state, seat) == "city_planner"
        for i in DUALS[board]:
            if town[i] is not None:
                continue
            lock = locks.get(str(i))
            if lock is not None and plan.prestige <= lock:
                continue
            if planner or (regular is None and plan.district in SPACES[board][i]):
                result.append(i)
    return result


def plans_not_open(state: State, seat: int) -> list[tuple[str, str]]:
    """Each plan `seat` holds (or communal) that it cannot build now, and why: the same
    checks as `build`, the price against its goods or no room in the district."""
    closed = []
    for card, source in available_plans(state, seat):
        plan = PLANS[card]
        name = plan.name if source == "hand" else _("communal {plan}", plan=plan.name)
        if payment(state, seat, card) is None:
            closed.append(
                (
                    name,
                    _(
                        "It needs {need}; you do not have enough (gold counts).",
                        need=cost_list(plan.cost),
                    ),
                )
            )
        elif not build_spaces(state, seat, card):
            closed.append(
                (
                    name,
                    _(
                        "There is no room for it in the {district} district.",
                        district=DISTRICT_NAMES[plan.district],
                    ),
                )
            )
    return closed


def available_plans(state: State, seat: int) -> list[tuple[int, str]]:
    """(card, source) for the plans a player may try to build: hand, then communal."""
    found = [(c, "hand") for c in state["players"][seat]["hand"]]
    found.extend((c, "communal") for c in state["communal"] if c is not None)
    return found


def can_repair(state: State, seat: int, space: int) -> bool:
    s = state["town"][space]
    if s is None or s["owner"] != seat or not s["damaged"]:
        return False
    return state["players"][seat]["silver"] >= repair_cost(state, seat, s["card"])


def repair_cost(state: State, seat: int, card: int) -> int:
    return 0 if char_of(state, seat) == "foreman" else REPAIR_COST[PLANS[card].kind]


# No repair for anyone holding less silver, but the Foreman, who repairs for nothing.
LOWEST_REPAIR_COST = min(REPAIR_COST.values())
# What each plan costs in all: no one holding fewer goods and gold can pay for it.
PLAN_TOTAL_COST = tuple(sum(k for _, k in plan.cost) for plan in PLANS)


def has_build_action(state: State, seat: int) -> bool:
    """Whether the seat may still demolish, repair or build this turn (asked after every
    building move, so one pass over the town and no lists built)."""
    player = state["players"][seat]
    if not state["demolished"] and not state["built"]:
        for s in state["town"]:
            if s is not None and s["owner"] == seat:
                return True  # it may demolish
    elif player["silver"] >= LOWEST_REPAIR_COST or player["char"] == "foreman":
        for s in state["town"]:
            if (
                s is not None
                and s["damaged"]
                and s["owner"] == seat
                and player["silver"] >= repair_cost(state, seat, s["card"])
            ):
                return True
    # Each good or gold pays for one resource at most (a Mason's swap too), so a plan
    # costing more than all of them is out without working out its payment.
    means = sum(player["res"].values()) + player["gold"]
    for card in (*player["hand"], *state["communal"]):
        if (
            card is not None
            and PLAN_TOTAL_COST[card] <= means
            and can_pay(state, seat, card)
            and build_spaces(state, seat, card)
        ):
            return True
    return False


def demolish(state: State, seat: int, space: int) -> None:
    if state["demolished"]:
        raise IllegalMove(_("You may demolish only one structure per turn."))
    if state["built"]:
        raise IllegalMove(_("Demolition comes before building; you have already built."))
    structure = state["town"][space] if 0 <= space < len(state["town"]) else None
    if structure is None or structure["owner"] != seat:
        raise IllegalMove(_("You can only demolish one of your own structures."))
    plan = PLANS[structure["card"]]
    player = state["players"][seat]
    cost = plan.cost_dict
    refund = []
    for r in ("wood", "stone"):  # never more than one wood and one stone back [R]
        if cost.get(r) and take_from_supply(state, r, 1):
            player["res"][r] += 1
            refund.append(r)
    remove_structure(state, space)
    state["locks"][str(space)] = plan.prestige
    state["demolished"] = True
    lost_prestige = plan.kind == "grand" and player["char"] != "foreman"
    if lost_prestige:
        player["prestige"] = max(0, player["prestige"] - 1)
    if state["news"] is not None:
        who = state["names"][seat]
        back = joined((RESOURCE_NAMES[r] for r in refund), " and ")
        if refund and lost_prestige:
            said = _(
                "{who} demolished the {building}, getting back {back}, and lost 1 prestige",
                who=who,
                building=plan.name,
                back=back,
            )
        elif refund:
            said = _(
                "{who} demolished the {building}, getting back {back}",
                who=who,
                building=plan.name,
                back=back,
            )
        elif lost_prestige:
            said = _(
                "{who} demolished the {building}, and lost 1 prestige", who=who, building=plan.name
            )
        else:
            said = _("{who} demolished the {building}", who=who, building=plan.name)
        news(state, said)
    after_build_action(state, seat)


def remove_structure(state: State, space: int) -> None:
    card = state["town"][space]["card"]
    state["town"][space] = None
    deck = "basic_deck" if PLANS[card].kind == "basic" else "grand_deck"
    state[deck].append(card)  # discards go to the bottom of their deck [R]


def place_structure(state: State, owner: int, card: int, space: int) -> None:
    state["build_seq"] += 1
    state["town"][space] = {
        "card": card,
        "owner": owner,
        "damaged": False,
        "dmg_turn": 0,
        "seq": state["build_seq"],
    }


def build(state: State, seat: int, card: int, space: int) -> None:
    player = state["players"][seat]
    if card not in player["hand"] and card not in state["communal"]:
        raise IllegalMove(_("You can build only a plan from your hand or a communal plan."))
    plan = PLANS[card]
    if payment(state, seat, card) is None:
        raise IllegalMove(
            _(
                "The {building} needs {need}; you do not have enough (gold counts).",
                building=plan.name,
                need=cost_list(plan.cost),
            )
        )
    spaces = build_spaces(state, seat, card)
    if space not in spaces:
        if not spaces:
            raise IllegalMove(
                _(
                    "There is no room for the {building} in the {district}.",
                    building=plan.name,
                    district=DISTRICT_NAMES[plan.district],
                )
            )
        raise IllegalMove(_("The {building} cannot go on that space.", building=plan.name))
    place_plan(state, seat, card, space)


def place_plan(state: State, seat: int, card: int, space: int) -> None:
    """Build a plan `build` has checked (or one read back from the log): pay, place, score."""
    player = state["players"][seat]
    source = "hand" if card in player["hand"] else "communal"
    plan = PLANS[card]
    for r, k in payment(state, seat, card).items():
        if r == "gold":
            player["gold"] -= k
        else:
            player["res"][r] -= k
        state["supply"][r] += k
    if source == "hand":
        player["hand"].remove(card)
    else:
        state["communal"][state["communal"].index(card)] = None
    place_structure(state, seat, card, space)
    if state["locks"]:  # most turns nothing was demolished
        state["locks"].pop(str(space), None)
    player["prestige"] += plan.prestige + character_bonus(state, seat, plan.kind, space)
    state["built"] = True
    if state["news"] is not None:
        dual = len(SPACES[state["board"]][space]) == 2
        built = BUILT_NEWS[source == "communal", dual]
        news(
            state,
            _(built, who=state["names"][seat], building=plan.name, prestige=plan.prestige),
        )
    after_build_action(state, seat)


# What a build tells, by (from the communal plans, on a dual space).
BUILT_NEWS = {
    (False, False): _("{who} built the {building} (+{prestige} prestige)").template,
    (True, False): _("{who} built the communal {building} (+{prestige} prestige)").template,
    (False, True): _("{who} built the {building} on a dual space (+{prestige} prestige)").template,
    (True, True): _(
        "{who} built the communal {building} on a dual space (+{prestige} prestige)"
    ).template,
}


def character_bonus(state: State, seat: int, kind: str, space: int) -> int:
    """Extra prestige for building: the Foreman on grand plans, the City Planner on duals."""
    char = char_of(state, seat)
    if char == "foreman" and kind == "grand":
        return 1
    if char == "city_planner" and len(SPACES[state["board"]][space]) == 2:
        return 1
    return 0


def repair(state: State, seat: int, space: int) -> None:
    structure = state["town"][space] if 0 <= space < len(state["town"]) else None
    if structure is None or structure["owner"] != seat or not structure["damaged"]:
        raise IllegalMove(_("You can repair only one of your own damaged structures."))
    cost = repair_cost(state, seat, structure["card"])
    if state["players"][seat]["silver"] < cost:
        raise IllegalMove(_("Repairing costs {cost} silver; you do not have enough.", cost=cost))
    state["players"][seat]["silver"] -= cost
    structure["damaged"] = False
    if state["news"] is not None:
        news(
            state,
            _(
                "{who} repaired the {building}",
                who=state["names"][seat],
                building=PLANS[structure["card"]].name,
            ),
        )
    if state["phase"] == "build":
        after_build_action(state, seat)
    else:
        after_final_repair(state, seat)


def after_build_action(state: State, seat: int) -> None:
    if not has_build_action(state, seat):
        finish_builder(state)


def end_building(state: State, seat: int) -> None:
    finish_builder(state)


def master_builder_builds(state: State) -> None:
    """The two-player master builder [R]: builds when it has fewer structures than both."""
    mine = len(owned_spaces(state, MASTER_BUILDER))
    if any(len(owned_spaces(state, s)) <= mine for s in range(state["n"])):
        return
    latest = CITIZENS[state["track"][-1]]
    if latest.starred:
        return
    deck = state["grand_deck"] if latest.gold else state["basic_deck"]
    if not deck:
        return
    card = deck.pop(0)
    plan = PLANS[card]
    spaces = build_spaces(state, MASTER_BUILDER, card)
    if not spaces and latest.gold:
        own = [
            i
            for i in owned_spaces(state, MASTER_BUILDER)
            if space_district(state, i) == plan.district
        ]
        if own:
            lowest = min(own, key=lambda i: (PLANS[state["town"][i]["card"]].prestige, i))
            if state["news"] is not None:
                gone = PLANS[state["town"][lowest]["card"]].name
                news(state, _("the master builder demolished its {building}", building=gone))
            remove_structure(state, lowest)
            spaces = [lowest]
    if not spaces:
        deck.append(card)
        if state["news"] is not None:
            news(state, _("the master builder could not place the {building}", building=plan.name))
        return
    place_structure(state, MASTER_BUILDER, card, spaces[0])
    if state["news"] is not None:
        news(state, _("the master builder built the {building}", building=plan.name))


# --- income -------------------------------------------------------------------------------


def start_income(state: State) -> None:
    state["phase"] = "income"
    state["income_mod"] = {}
    state["no_visitor"] = False
    if state["event"] is not None:
        state["event_deck"].append(state["event"])
    state["event"] = state["event_deck"].pop(0)
    event = EVENTS[state["event"]]
    if state["news"] is not None:
        news(state, _("event: {event} - {text}", event=event.name, text=event.text))
    if apply_effect(state, event.effect, "event"):
        return
    income_visitor(state)


def income_visitor(state: State) -> None:
    if state["no_visitor"] and state["visitor"] is not None:
        if state["news"] is not None:
            news(
                state,
                _("no new visitor: the {visitor} stays", visitor=VISITORS[state["visitor"]].name),
            )
    elif state["no_visitor"]:
        news(state, _("no visitor comes this turn"))
    else:
        if state["visitor"] is not None:
            state["visitor_deck"].append(state["visitor"])
        state["visitor"] = state["visitor_deck"].pop(0)
        visitor = VISITORS[state["visitor"]]
        if state["news"] is not None:
            news(state, _("visitor: {visitor} - {text}", visitor=visitor.name, text=visitor.text))
        if apply_effect(state, visitor.effect, "visitor"):
            return
    lodge(state)
    start_market(state)


def apply_effect(state: State, effect: tuple, source: str) -> bool:
    """Carry out an event's or visitor's instruction. True if players must now answer an
    offer (the income phase then waits for them)."""
    kind = effect[0]
    n = state["n"]
    card = EVENTS[state["event"]].name if source == "event" else VISITORS[state["visitor"]].name
    if kind == "gain":
        _kind, flat, district, per = effect
        counts = structures_in_district(state, district)
        for s in range(n):
            amount = flat + per * counts[s]
            if amount:
                state["players"][s]["silver"] += amount
                if state["news"] is not None:
                    news(
                        state,
                        _(
                            "{who} gained {amount} silver ({card})",
                            who=state["names"][s],
                            amount=amount,
                            card=card,
                        ),
                    )
    elif kind == "pay":
        _kind, flat, district, per = effect
        counts = structures_in_district(state, district)
        for s in turn_order(state):
            amount = flat + per * counts[s]
            pay_silver(state, s, amount, card)
    elif kind == "pay_rich":
        _kind, threshold, amount = effect
        for s in turn_order(state):
            if state["players"][s]["silver"] >= threshold:
                pay_silver(state, s, amount, card)
    elif kind == "pay_damaged":
        for s in turn_order(state):
            damaged = sum(1 for i in owned_spaces(state, s) if state["town"][i]["damaged"])
            pay_silver(state, s, effect[1] * damaged, card)
    elif kind == "damage":
        damage(state, effect[1], card)
    elif kind == "wheel_gold":
        got = take_from_supply(state, "gold", 1)
        state["wheel"]["gold"] += got
        news(state, _("one gold was added to the bidding wheel") if got else _("no gold is left"))
    elif kind == "give":
        for s in turn_order(state):
            got = take_from_supply(state, effect[1], 1)
            state["players"][s]["res"][effect[1]] += got
    elif kind == "no_visitor":
        state["no_visitor"] = True
    elif kind == "income":
        state["income_mod"][effect[1]] = effect[2]
    else:  # an offer
        # Version 2 asks everyone the offer could serve with a full purse (the rest of what
        # it needs is public); whoever cannot pay has only "decline", which waits unasked
        # for the others like a broke bidder's zero bid (games.engine.driver).
        purse = HIDDEN_PURSE if is_v2(state) else None
        waiting = []
        for s in range(n):  # a loop costs less than a comprehension for a few seats
            if offer_moves(state, s, effect, purse):
                waiting.append(s)
        if waiting:
            state["offer"] = {"source": source}
            if is_v2(state):
                state["offer"]["asked"] = len(waiting)
            state["waiting"] = waiting
            state["phase"] = "offer"
            state["cur"] = None
            return True
    return False


def damage(state: State, which: str, card: Text) -> None:
    town = state["town"]
    targets = []
    if which == "latest":
        standing = [i for i, s in enumerate(town) if s is not None and not s["damaged"]]
        if standing:
            targets.append(max(standing, key=lambda i: town[i]["seq"]))
    else:
        owners = (
            [*range(state["n"]), MASTER_BUILDER] if state["master_builder"] else range(state["n"])
        )
        standing_of: dict[int, list[int]] = {owner: [] for owner in owners}  # one pass
        for i, s in enumerate(town):
            if s is not None and not s["damaged"]:
                standing_of[s["owner"]].append(i)
        for owner in owners:
            mine = standing_of[owner]
            if which == "low-commercial":
                mine = [i for i in mine if PLANS[town[i]["card"]].district == "commercial"]
                if mine:
                    targets.append(min(mine, key=lambda i: (PLANS[town[i]["card"]].prestige, i)))
            elif mine:
                targets.append(
                    max(mine, key=lambda i: (PLANS[town[i]["card"]].prestige, -town[i]["seq"]))
                )
    for i in targets:
        s = town[i]
        name = PLANS[s["card"]].name
        if s["owner"] == MASTER_BUILDER:  # its damaged structures leave the town [R]
            remove_structure(state, i)
            if state["news"] is not None:
                news(
                    state,
                    _(
                        "the master builder's {building} was destroyed ({card})",
                        building=name,
                        card=card,
                    ),
                )
        else:
            s["damaged"] = True
            s["dmg_turn"] = state["turn"]
            if state["news"] is not None:
                news(
                    state,
                    _(
                        "{who}'s {building} was damaged ({card})",
                        who=state["names"][s["owner"]],
                        building=name,
                        card=card,
                    ),
                )


def current_offer(state: State) -> tuple:
    if state["offer"]["source"] == "event":
        return EVENTS[state["event"]].effect
    return VISITORS[state["visitor"]].effect


HIDDEN_PURSE = 10**9  # "any amount": whom to ask must not depend on the silver behind a screen


def offer_moves(state: State, seat: int, effect: tuple, silver: int | None = None) -> list[dict]:
    """The accepting moves open to a player for an offer (decline is always possible);
    `silver` overrides the player's purse."""
    kind = effect[0]
    player = state["players"][seat]
    silver = player["silver"] if silver is None else silver
    supply = state["supply"]
    if kind == "offer_resource":
        _kind, resource, price = effect
        if silver < price:
            return []
        if resource is not None:
            return [{"type": "accept"}] if supply[resource] > 0 else []
        return [{"type": "accept", "resource": r} for r in RESOURCES if supply[r] > 0]
    if kind == "offer_plan":
        _kind, deck, price = effect
        if silver < price or len(player["hand"]) >= hand_limit(state, seat):
            return []
        if deck is not None:
            return [{"type": "accept"}] if state[f"{deck}_deck"] else []
        return [{"type": "accept", "deck": d} for d in ("basic", "grand") if state[f"{d}_deck"]]
    if kind == "offer_prestige":
        return [{"type": "accept"}] if silver >= effect[1] else []
    if kind == "offer_gold":
        return [{"type": "accept"}] if silver >= effect[1] and supply["gold"] > 0 else []
    if kind == "offer_repair":
        return [
            {"type": "accept", "space": i}
            for i in owned_spaces(state, seat)
            if state["town"][i]["damaged"]
        ]
    return []


def answer_offer(state: State, seat: int, move: dict) -> None:
    if seat not in state["waiting"]:
        raise IllegalMove(_("You have already answered this offer."))
    if move["type"] == "accept" and move not in offer_moves(state, seat, current_offer(state)):
        raise IllegalMove(_("You cannot accept that offer now."))
    enter_answer(state, seat, move)


def enter_answer(state: State, seat: int, move: dict) -> None:
    """An answer `answer_offer` has checked (or one read back from the log)."""
    if move["type"] == "accept":
        accept_offer(state, seat, current_offer(state), move)
    state["waiting"].remove(seat)
    if not state["waiting"]:
        source = state["offer"]["source"]
        state["offer"] = None
        state["phase"] = "income"
        if source == "event":
            income_visitor(state)
        else:
            lodge(state)
            start_market(state)


def accept_offer(state: State, seat: int, effect: tuple, move: dict) -> None:
    kind = effect[0]
    player = state["players"][seat]
    name = state["names"][seat]
    if kind == "offer_resource":
        resource = effect[1] or move["resource"]
        player["silver"] -= effect[2]
        player["res"][resource] += take_from_supply(state, resource, 1)
        if state["news"] is not None:
            news(
                state,
                _(
                    "{who} bought one {resource} for {price} silver",
                    who=name,
                    resource=RESOURCE_NAMES[resource],
                    price=effect[2],
                ),
            )
    elif kind == "offer_plan":
        deck = effect[1] or move["deck"]
        player["silver"] -= effect[2]
        player["hand"].append(state[f"{deck}_deck"].pop(0))
        if state["news"] is not None:
            news(state, _(TOOK_PLAN[deck], who=name))
    elif kind == "offer_prestige":
        player["silver"] -= effect[1]
        player["prestige"] += 1
        if state["news"] is not None:
            news(state, _("{who} paid {price} silver for 1 prestige", who=name, price=effect[1]))
    elif kind == "offer_gold":
        player["silver"] -= effect[1]
        player["gold"] += take_from_supply(state, "gold", 1)
        if state["news"] is not None:
            news(state, _("{who} paid {price} silver for 1 gold", who=name, price=effect[1]))
    elif kind == "offer_repair":
        state["town"][move["space"]]["damaged"] = False
        if state["news"] is not None:
            building = PLANS[state["town"][move["space"]]["card"]].name
            news(state, _("{who} repaired the {building}", who=name, building=building))


# What taking a plan from an offer tells, by deck.
TOOK_PLAN = {
    "basic": _("{who} took a basic plan").template,
    "grand": _("{who} took a grand plan").template,
}

# Each plan as lodging reads it: its name, how many it sleeps and what each guest pays.
PLAN_BEDS = tuple((plan.name, plan.capacity, plan.income) for plan in PLANS)
# Each person as lodging reads them: their name and their wishes in order, a player's inn last.
CITIZEN_GUESTS = tuple((c.name, (*c.prefs, INN)) for c in CITIZENS)
VISITOR_GUESTS = tuple((v.name, (*v.prefs, INN)) for v in VISITORS)


def lodge(state: State) -> None:
    """The visitor, then the citizens from the highest number down, each take their first
    available preference, else a player's inn, else the board's inn [R]."""
    town = state["town"]
    n = state["n"]
    # The undamaged structures with a bed left, by name, as [space, beds left]: a person's
    # place is the first of the first wanted name that has one (one pass over the town; a
    # structure leaves its list when it is full). A name the town holds more than once is
    # put in the order ties are broken: the first player's, then clockwise, the master
    # builder's last; then by space.
    beds: dict[str, list[list[int]]] = {}
    shared = []
    for i, s in enumerate(town):
        if s is not None and not s["damaged"]:
            name, capacity, _income = PLAN_BEDS[s["card"]]
            free = beds.get(name)
            if free is None:
                beds[name] = [[i, capacity]]
            else:
                free.append([i, capacity])
                if len(free) == 2:
                    shared.append(free)
    if shared:
        first = state["first"]

        def tie_order(room: list[int]) -> tuple[int, int]:
            owner = town[room[0]]["owner"]
            return (n if owner == MASTER_BUILDER else (owner - first) % n, room[0])

        for free in shared:
            free.sort(key=tie_order)
    people = [] if state["visitor"] is None else [VISITOR_GUESTS[state["visitor"]]]
    for c in reversed(state["track"]):  # a loop costs less than a comprehension here
        people.append(CITIZEN_GUESTS[c])
    players = state["players"]
    income_mod = state["income_mod"]
    regular = REGULAR_DISTRICT[state["board"]]
    at_board_inn = 0
    lodging = []
    for person, wishes in people:
        for wanted in wishes:
            if wanted in beds:  # a name leaves `beds` when its last bed is taken
                break
        else:
            at_board_inn += 1
            lodging.append([person, -1, -1, 0])
            continue
        free = beds[wanted]
        room = free[0]
        where = room[0]
        room[1] -= 1
        if not room[1]:
            free.pop(0)
            if not free:
                del beds[wanted]
        s = town[where]
        owner = s["owner"]
        if owner == MASTER_BUILDER:
            pay = 0
        else:
            district = regular[where] or space_district(state, where)
            pay = PLAN_BEDS[s["card"]][2]
            if income_mod:  # most turns no event changes what a district earns
                pay *= income_mod.get(district, 1)
            if district == "religious" and players[owner]["char"] == "abbess":
                pay += 1
            players[owner]["silver"] += pay
        lodging.append([person, where, owner, pay])
    state["lodging"] = lodging
    if at_board_inn >= 3:
        for s in range(n):
            if char_of(state, s) == "innkeeper":
                state["players"][s]["silver"] += at_board_inn // 3
                if state["news"] is not None:
                    gain = at_board_inn // 3
                    news(
                        state,
                        _(
                            "{who} (Innkeeper) gained {gain} silver",
                            who=state["names"][s],
                            gain=gain,
                        ),
                    )
    if state["news"] is not None:
        earned = [0] * n
        for _person, _where, owner, pay in lodging:
            if owner >= 0:
                earned[owner] += pay
        amounts = ", ".join(f"{state['names'][s]} {earned[s]}" for s in range(n))
        news(state, _("income: {amounts}", amounts=amounts))


# --- marketplace --------------------------------------------------------------------------


def start_market(state: State) -> None:
    state["phase"] = "plans"
    next_plan_buyer(state, SEAT_ORDER[state["n"]][state["first"]])


def can_buy_plan(state: State, seat: int) -> bool:
    silver = state["players"][seat]["silver"]
    if state["basic_deck"] and silver >= plan_price(state, seat, "basic"):
        return True
    return bool(state["grand_deck"]) and silver >= plan_price(state, seat, "grand")


def plan_price(state: State, seat: int, deck: str) -> int:
    if state["players"][seat]["char"] == "architect":
        return PLAN_PRICE[deck] - 1
    return PLAN_PRICE[deck]


def next_plan_buyer(state: State, candidates: tuple[int, ...]) -> None:
    """The first candidate who may be asked to buy a plan. Version 2 asks everyone while a
    plan deck holds a card, whatever their purse: skipping those who cannot pay would tell
    the table who holds less than the price (so the first candidate, or no one)."""
    if is_v2(state):
        if candidates and (state["basic_deck"] or state["grand_deck"]):
            state["cur"] = candidates[0]
            return
    else:
        for seat in candidates:
            if can_buy_plan(state, seat):
                state["cur"] = seat
                return
    start_resources(state, 1)


def after_plan_buyer(state: State) -> None:
    state["phase"] = "plans"
    next_plan_buyer(state, SEATS_AFTER[state["n"]][state["first"]][state["cur"]])


def buy_plan(state: State, seat: int, deck: str, discards: list[int]) -> None:
    player = state["players"][seat]
    if deck not in PLAN_PRICE:
        raise IllegalMove(_("Buy a basic or a grand plan."))
    price = plan_price(state, seat, deck)
    if player["silver"] < price:
        raise IllegalMove(_(PLAN_COSTS[deck], price=price, have=player["silver"]))
    if not state[f"{deck}_deck"]:
        raise IllegalMove(_(DECK_EMPTY[deck]))
    if len(set(discards)) != len(discards) or any(c not in player["hand"] for c in discards):
        raise IllegalMove(_("You can discard only plans from your hand, each once."))
    if len(player["hand"]) - len(discards) + 1 > hand_limit(state, seat):
        raise IllegalMove(
            _(
                "You may hold at most {limit} plans: discard one to buy another.",
                limit=hand_limit(state, seat),
            )
        )
    draw_plans(state, seat, deck, discards, price)


# A plan purchase's refusals and news, by deck.
PLAN_COSTS = {
    "basic": _("A basic plan costs {price} silver; you have {have}.").template,
    "grand": _("A grand plan costs {price} silver; you have {have}.").template,
}
DECK_EMPTY = {
    "basic": _("The basic plan deck is empty.").template,
    "grand": _("The grand plan deck is empty.").template,
}
BOUGHT_PLAN = {
    ("basic", False): _("{who} bought a basic plan for {price} silver").template,
    ("grand", False): _("{who} bought a grand plan for {price} silver").template,
    ("basic", True): _("{who} bought a basic plan for {price} silver, discarding {count}").template,
    ("grand", True): _("{who} bought a grand plan for {price} silver, discarding {count}").template,
}


def draw_plans(state: State, seat: int, deck: str, discards: list[int], price: int) -> None:
    """A plan purchase `buy_plan` has checked (or one read back from the log)."""
    player = state["players"][seat]
    player["silver"] -= price
    for c in discards:
        player["hand"].remove(c)
        state["basic_deck" if PLANS[c].kind == "basic" else "grand_deck"].append(c)
    draw = PLAN_DRAW[deck] + len(discards)
    pile = state[f"{deck}_deck"]
    drawn = pile[:draw]
    del pile[:draw]
    if state["news"] is not None:
        bought = BOUGHT_PLAN[deck, bool(discards)]
        news(state, _(bought, who=state["names"][seat], price=price, count=len(discards)))
    if len(drawn) == 1:
        player["hand"].append(drawn[0])
        after_plan_buyer(state)
    else:
        state["phase"] = "keep"
        state["drawn"] = drawn
        state["drawn_deck"] = deck


def keep_plan(state: State, seat: int, card: int) -> None:
    if card not in state["drawn"]:
        raise IllegalMove(_("Keep one of the plans you drew."))
    state["players"][seat]["hand"].append(card)
    pile = state[f"{state['drawn_deck']}_deck"]
    for c in state["drawn"]:
        if c != card:
            pile.append(c)
    state["drawn"] = []
    state["drawn_deck"] = ""
    after_plan_buyer(state)


def pass_plans(state: State, seat: int) -> None:
    after_plan_buyer(state)


def start_resources(state: State, round_: int) -> None:
    state["phase"] = "resources"
    state["round"] = round_
    next_trader(state, SEAT_ORDER[state["n"]][state["first"]])


def can_trade(state: State, seat: int, silver: int | None = None) -> bool:
    """Whether the seat could buy or sell now; `silver` overrides its purse."""
    player = state["players"][seat]
    market = state["market"]  # holds a count for each resource, none negative
    silver = player["silver"] if silver is None else silver
    if any(market.values()) and silver >= buy_price(state, seat):
        return True
    held = player["res"]
    n = state["n"]
    for r in RESOURCES:
        if held[r] > 0 and market[r] < n:
            return True
    return False


def may_be_asked_to_trade(state: State, seat: int) -> bool:
    """Version 2 asks whoever could trade with a full purse: the market and the resources
    held are public, the purse is not."""
    return can_trade(state, seat, HIDDEN_PURSE if is_v2(state) else None)


def next_trader(state: State, candidates: tuple[int, ...]) -> None:
    if is_v2(state):  # as may_be_asked_to_trade
        if candidates and any(state["market"].values()):
            state["cur"] = candidates[0]  # a full purse buys while the market holds anything
            return
        purse = HIDDEN_PURSE
    else:
        purse = None
    for seat in candidates:
        if can_trade(state, seat, purse):
            state["cur"] = seat
            return
    if state["round"] == 1:
        start_resources(state, 2)
    else:
        end_turn(state)


def after_trader(state: State) -> None:
    next_trader(state, SEATS_AFTER[state["n"]][state["first"]][state["cur"]])


def buy_price(state: State, seat: int) -> int:
    if state["players"][seat]["char"] == "guildmaster":
        return RESOURCE_PRICE[0]  # the second round costs the Guildmaster 2, not 3
    return RESOURCE_PRICE[state["round"] - 1]


def sell_price(state: State, seat: int) -> int:
    return 2 if char_of(state, seat) == "guildmaster" else SELL_PRICE


def sell(state: State, seat: int, resource: str, count: int) -> None:
    if resource not in RESOURCES:
        raise IllegalMove(_("Sell one of {resources}.", resources=resource_list(RESOURCES)))
    player = state["players"][seat]
    if not isinstance(count, int) or count < 1 or count > player["res"][resource]:
        raise IllegalMove(
            _(
                "You have {have} {resource}; you cannot sell {count}.",
                have=player["res"][resource],
                resource=RESOURCE_NAMES[resource],
                count=count,
            )
        )
    room = state["n"] - state["market"][resource]
    if count > room:
        raise IllegalMove(
            _(
                "The marketplace holds {held} {resource}; it takes at most {room} more "
                "(as many as there are players).",
                held=state["market"][resource],
                resource=RESOURCE_NAMES[resource],
                room=max(0, room),
            )
        )
    player["res"][resource] -= count
    state["market"][resource] += count
    gain = count * sell_price(state, seat)
    player["silver"] += gain
    if state["news"] is not None:
        news(
            state,
            _(
                "{who} sold {count} {resource} for {gain} silver",
                who=state["names"][seat],
                count=count,
                resource=RESOURCE_NAMES[resource],
                gain=gain,
            ),
        )
    if not may_be_asked_to_trade(state, seat):
        after_trader(state)


def buy_resource(state: State, seat: int, resource: str) -> None:
    if resource not in RESOURCES:
        raise IllegalMove(_("Buy one of {resources}.", resources=resource_list(RESOURCES)))
    price = buy_price(state, seat)
    player = state["players"][seat]
    if state["market"][resource] < 1:
        raise IllegalMove(
            _("The marketplace has no {resource}.", resource=RESOURCE_NAMES[resource])
        )
    if player["silver"] < price:
        raise IllegalMove(
            _(
                "A resource costs {price} silver this round; you have {have}.",
                price=price,
                have=player["silver"],
            )
        )
    take_resource(state, seat, resource, price)


def take_resource(state: State, seat: int, resource: str, price: int) -> None:
    """A purchase `buy_resource` has checked (or one read back from the log)."""
    player = state["players"][seat]
    player["silver"] -= price
    state["market"][resource] -= 1
    player["res"][resource] += 1
    if state["news"] is not None:
        news(
            state,
            _(
                "{who} bought one {resource} for {price} silver",
                who=state["names"][seat],
                resource=RESOURCE_NAMES[resource],
                price=price,
            ),
        )
    after_trader(state)


def pass_trade(state: State, seat: int) -> None:
    after_trader(state)


# --- end of turn and end of game ----------------------------------------------------------


LOWEST_RESOURCE_LIMIT = min(HOLDING_LIMIT[r] for r in RESOURCES)


def end_turn(state: State) -> None:
    state["phase"] = "end"
    state["cur"] = None
    market = state["market"]
    low = 1 if state["n"] == 2 else 2  # [R] two players: wood and stone to one
    for r in ("wood", "stone"):
        if market[r] < low:
            market[r] += take_from_supply(state, r, low - market[r])
    for r in ("glass", "marble", "iron"):
        if market[r] == 0:
            market[r] += take_from_supply(state, r, 1)
    for slot, deck in ((0, "basic_deck"), (1, "grand_deck")):
        if state["communal"][slot] is None and state[deck]:
            state["communal"][slot] = state[deck].pop(0)
    for seat, player in enumerate(state["players"]):
        # Most hold no more of anything than the lowest limit: nothing to check one by one
        # (a loop that stops at the first such count costs less than max()).
        for count in player["res"].values():
            if count > LOWEST_RESOURCE_LIMIT:
                return_over_limit(state, seat)
                break
        excess = player["gold"] - HOLDING_LIMIT["gold"]
        if excess > 0:
            player["gold"] -= excess
            state["wheel"]["gold"] += excess
            if state["news"] is not None:
                news(
                    state,
                    _(
                        "{who} put {count} {resource} on the wheel (limit)",
                        who=state["names"][seat],
                        count=excess,
                        resource=RESOURCE_NAMES["gold"],
                    ),
                )
    state["locks"] = {}
    if None not in state["town"]:
        news(state, _("the town is complete: the game ends"))
        return start_final_repairs(state)
    if len(state["track"]) >= TRACK_LENGTH or not state["citizen_deck"]:
        news(state, _("the town is fully populated: the game ends"))
        return start_final_repairs(state)
    citizen = state["citizen_deck"].pop(0)
    state["track"].append(citizen)
    got = 0
    if CITIZENS[citizen].gold:
        got = take_from_supply(state, "gold", 1)
        state["wheel"]["gold"] += got
    if state["news"] is not None:
        if got:
            arrives = _(
                "a new citizen arrives: the {citizen}, adding a gold to the wheel",
                citizen=CITIZENS[citizen].name,
            )
        else:
            arrives = _("a new citizen arrives: the {citizen}", citizen=CITIZENS[citizen].name)
        news(state, arrives)
    state["first"] = (state["first"] + 1) % state["n"]
    state["turn"] += 1
    if state["news"] is not None:
        news(
            state,
            _(
                "turn {turn}: {who} holds the key",
                turn=state["turn"],
                who=state["names"][state["first"]],
            ),
        )


def return_over_limit(state: State, seat: int) -> None:
    """What the seat holds of each resource over its limit goes on the wheel."""
    held = state["players"][seat]["res"]
    for r in RESOURCES:
        excess = held[r] - HOLDING_LIMIT[r]
        if excess > 0:
            held[r] -= excess
            state["wheel"][r] += excess
            if state["news"] is not None:
                news(
                    state,
                    _(
                        "{who} put {count} {resource} on the wheel (limit)",
                        who=state["names"][seat],
                        count=excess,
                        resource=RESOURCE_NAMES[r],
                    ),
                )


def final_repairers(state: State) -> list[int]:
    turn = state["turn"]
    damaged_now = {
        s["owner"]
        for s in state["town"]
        if s is not None and s["damaged"] and s["dmg_turn"] == turn
    }
    return [s for s in range(state["n"]) if s in damaged_now and final_repair_spaces(state, s)]


def final_repair_spaces(state: State, seat: int) -> list[int]:
    """The last repair window: only structures damaged during the last turn [R]."""
    turn = state["turn"]
    return [
        i
        for i, s in enumerate(state["town"])
        if s is not None
        and s["owner"] == seat
        and s["damaged"]
        and s["dmg_turn"] == turn
        and can_repair(state, seat, i)
    ]


def start_final_repairs(state: State) -> None:
    waiting = final_repairers(state)
    if waiting:
        state["phase"] = "final_repair"
        state["waiting"] = waiting
        return
    score(state)


def after_final_repair(state: State, seat: int) -> None:
    if not final_repair_spaces(state, seat) and seat in state["waiting"]:
        state["waiting"].remove(seat)
    if not state["waiting"]:
        score(state)


def final_repair(state: State, seat: int, space: int) -> None:
    if space not in final_repair_spaces(state, seat):
        raise IllegalMove(
            _("Now you may repair only your structures damaged during the last turn.")
        )
    repair(state, seat, space)


def done_final_repair(state: State, seat: int) -> None:
    state["waiting"].remove(seat)
    if not state["waiting"]:
        score(state)


def majority_counts(state: State) -> dict[str, dict[int, int]]:
    counts: dict[str, dict[int, int]] = {d: {} for d in DISTRICTS}
    for i, s in enumerate(state["town"]):
        if s is None or s["damaged"]:  # damaged structures do not count [R]
            continue
        district = space_district(state, i)
        weight = 1
        if district == "religious" and s["owner"] >= 0 and char_of(state, s["owner"]) == "abbess":
            weight = 2
        counts[district][s["owner"]] = counts[district].get(s["owner"], 0) + weight
    return counts


def score(state: State) -> None:
    n = state["n"]
    lines = []
    details: dict[str, Any] = {"players": []}
    winners_of = {}
    for district, counts in majority_counts(state).items():
        if counts:
            top = max(counts.values())
            leaders = [o for o, c in counts.items() if c == top]
            if len(leaders) == 1 and leaders[0] >= 0:
                winners_of[district] = leaders[0]
    owned_of = [0] * n  # each seat's structures, and how many are damaged: one pass
    damaged_of = [0] * n
    for s in state["town"]:
        if s is not None and s["owner"] >= 0:
            owned_of[s["owner"]] += 1
            if s["damaged"]:
                damaged_of[s["owner"]] += 1
    supply = state["supply"]
    for seat, player in enumerate(state["players"]):
        held = player["res"]
        resources = sum(held.values())
        for r in RESOURCES:
            supply[r] += held[r]
            held[r] = 0
        player["silver"] += resources
        cap = SILVER_PRESTIGE_CAP + (1 if player["char"] == "banker" else 0)
        from_silver = player["silver"] // SILVER_PER_PRESTIGE
        if from_silver > cap:
            from_silver = cap
        from_gold = player["gold"]
        majorities = sorted(d for d, w in winners_of.items() if w == seat)
        bonus = sum(MAJORITY_BONUS[d] for d in majorities)
        damaged = damaged_of[seat]
        before = player["prestige"]
        total = before + from_silver + from_gold + bonus - damaged
        player["prestige"] = total if total > 0 else 0
        details["players"].append(
            {
                "name": state["names"][seat],
                "prestige_before": before,
                "resources_sold": resources,
                "silver": player["silver"],
                "from_silver": from_silver,
                "from_gold": from_gold,
                "majorities": majorities,
                "majority_bonus": bonus,
                "damaged_penalty": damaged,
                "structures": owned_of[seat],
                "final": player["prestige"],
            }
        )
        lines.append(
            _(
                "{who}: {before} + {from_silver} silver + {from_gold} gold + {bonus} majorities "
                "- {damaged} damaged = {total}",
                who=state["names"][seat],
                before=before,
                from_silver=from_silver,
                from_gold=from_gold,
                bonus=bonus,
                damaged=damaged,
                total=player["prestige"],
            )
        )
    scores = [p["prestige"] for p in state["players"]]
    structures = [d["structures"] for d in details["players"]]
    silver = [p["silver"] for p in state["players"]]
    ranking = sorted(range(n), key=lambda s: (-scores[s], -structures[s], -silver[s], s))
    notes = list(lines)
    names = state["names"]
    for a, b in zip(ranking, ranking[1:], strict=False):
        if scores[a] == scores[b]:
            if structures[a] != structures[b]:
                notes.append(
                    _("{who} ranks above {other} on structures", who=names[a], other=names[b])
                )
            elif silver[a] != silver[b]:
                notes.append(_("{who} ranks above {other} on silver", who=names[a], other=names[b]))
            else:
                notes.append(_("{who} and {other} share their place", who=names[a], other=names[b]))
    details["winners_of"] = winners_of
    state["phase"] = "over"
    state["cur"] = None
    state["waiting"] = []
    state["result"] = {"scores": scores, "ranking": ranking, "notes": notes, "details": details}
    if state["news"] is not None:
        final = ", ".join(f"{state['names'][s]} {scores[s]}" for s in ranking)
        news(state, _("final scores: {scores}", scores=final))


# --- the per-player decision points -------------------------------------------------------


def to_act(state: State) -> list[int]:
    phase = state["phase"]
    if phase == "bid":
        return [s for s, b in enumerate(state["bids"]) if b is None]
    if phase in ("offer", "final_repair"):
        return list(state["waiting"])
    if phase == "over" or state["cur"] is None:
        return []
    return [state["cur"]]
