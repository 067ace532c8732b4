"""Builders of Blankenburg: a greedy bot.

It aims at the plan it can most cheaply complete (prestige and income against missing
resources), bids for the wheel category that helps most, builds the best plan it can afford,
buys what it lacks in the marketplace and sells what it cannot keep. `style` varies a few
weights so simulations can pit strategies against each other.
"""

from __future__ import annotations

from . import rules
from .data import HOLDING_LIMIT, PLANS, RESOURCES, TRACK_LENGTH
from .moves import build_moves, legal_moves
from .rules import State

DEFAULT_STYLE = {"greed": 1.0, "grand": 1.0, "thrift": 1.0}


def turns_left(state: State) -> int:
    return TRACK_LENGTH - len(state["track"]) + 1


def plan_value(state: State, card: int, style: dict) -> float:
    plan = PLANS[card]
    left = turns_left(state)
    value = plan.prestige * (style["grand"] if plan.kind == "grand" else 1.0)
    return value + plan.income * min(left, 6) / 8


def missing(state: State, seat: int, card: int) -> dict[str, int]:
    have = state["players"][seat]["res"]
    return {r: k - have[r] for r, k in PLANS[card].cost if k > have[r]}


def target(state: State, seat: int, style: dict) -> int | None:
    """The plan worth working towards: value minus the cost of what is missing."""
    best, best_score = None, -99.0
    gold = state["players"][seat]["gold"]
    for card, _ in rules.available_plans(state, seat):
        if not rules.build_spaces(state, seat, card):
            continue
        short = sum(missing(state, seat, card).values())
        score = plan_value(state, card, style) - 1.3 * max(0, short - gold)
        if score > best_score:
            best, best_score = card, score
    return best


def needs(state: State, seat: int, style: dict) -> dict[str, int]:
    card = target(state, seat, style)
    return {} if card is None else missing(state, seat, card)


def bot_move(state: State, seat: int, rng, style: dict | None = None) -> dict:
    style = style or DEFAULT_STYLE
    phase = state["phase"]
    if phase == "merchant":
        need = needs(state, seat, style)
        choice = max(RESOURCES, key=lambda r: (need.get(r, 0), r == "stone"))
        return {"type": "extra", "resource": choice}
    if phase == "select":
        need = needs(state, seat, style)
        ranked = sorted(RESOURCES, key=lambda r: (-need.get(r, 0), rng.random()))
        chosen = [r for r in ranked if state["supply"][r] > 0][: rules.selectable_count(state)]
        return {"type": "select", "resources": [r for r in RESOURCES if r in chosen]}
    if phase == "bid":
        return {"type": "bid", "silver": choose_bid(state, seat, rng, style)}
    if phase == "pick":
        need = needs(state, seat, style)
        wheel = state["wheel"]
        best = max(
            rules.wheel_categories(state),
            key=lambda r: (min(need.get(r, 0), wheel[r]) * 3 + min(3, wheel[r]), rng.random()),
        )
        return {"type": "take", "resource": best}
    if phase == "build":
        return build_choice(state, seat, style)
    if phase == "offer":
        return offer_choice(state, seat, style)
    if phase == "plans":
        return plan_choice(state, seat, rng, style)
    if phase == "keep":
        best = max(
            sorted(state["drawn"]),  # identical plans: the lowest, the one legal_moves lists
            key=lambda c: plan_value(state, c, style) - 1.2 * sum(missing(state, seat, c).values()),
        )
        return {"type": "keep", "card": best}
    if phase == "resources":
        return trade_choice(state, seat, style)
    if phase == "final_repair":
        spaces = rules.final_repair_spaces(state, seat)
        return {"type": "repair", "space": spaces[0]} if spaces else {"type": "done"}
    return rng.choice(legal_moves(state, seat))


def choose_bid(state: State, seat: int, rng, style: dict) -> int:
    silver = state["players"][seat]["silver"]
    if silver == 0:
        return 0
    need = needs(state, seat, style)
    wheel = state["wheel"]
    useful = max((min(need.get(r, 0), wheel[r], 3) for r in RESOURCES), default=0)
    bulk = max((min(3, wheel[r]) for r in RESOURCES), default=0)
    value = 1.6 * useful + 0.5 * bulk + (3 if wheel["gold"] else 0)
    if useful == 0 and not wheel["gold"] and rng.random() < 0.7:
        return 0
    bid = int(value * style["greed"] * (0.6 + 0.6 * rng.random()))
    if state["turn"] > 1 and turns_left(state) <= 1:
        bid = min(bid, 2 + (3 if wheel["gold"] else 0))
    return max(0, min(silver, bid))


def build_choice(state: State, seat: int, style: dict) -> dict:
    moves = build_moves(state, seat)
    if moves:
        best = max(moves, key=lambda m: (plan_value(state, m["card"], style), -m["space"]))
        return best
    player = state["players"][seat]
    for i in rules.owned_spaces(state, seat):
        if rules.can_repair(state, seat, i):
            cost = rules.repair_cost(state, seat, state["town"][i]["card"])
            if player["silver"] >= cost + 2 * style["thrift"]:
                return {"type": "repair", "space": i}
    if not state["demolished"] and not state["built"]:
        swap = demolition_for_upgrade(state, seat, style)
        if swap is not None:
            return {"type": "demolish", "space": swap}
    return {"type": "done"}


def demolition_for_upgrade(state: State, seat: int, style: dict) -> int | None:
    """Demolish a low structure when a better affordable plan has no room in its district."""
    for card, _ in rules.available_plans(state, seat):
        plan = PLANS[card]
        if rules.payment(state, seat, card) is None or rules.build_spaces(state, seat, card):
            continue
        own = [
            i
            for i in rules.owned_spaces(state, seat)
            if PLANS[state["town"][i]["card"]].district == plan.district
            and PLANS[state["town"][i]["card"]].prestige + 1 < plan.prestige
        ]
        if own:
            return min(own, key=lambda i: PLANS[state["town"][i]["card"]].prestige)
    return None


def offer_choice(state: State, seat: int, style: dict) -> dict:
    effect = rules.current_offer(state)
    options = rules.offer_moves(state, seat, effect)
    silver = state["players"][seat]["silver"]
    kind = effect[0]
    if not options:
        return {"type": "decline"}
    if kind == "offer_resource":
        need = needs(state, seat, style)
        for m in options:
            r = m.get("resource", effect[1])
            if need.get(r) and silver >= effect[2] + 2:
                return m
        return {"type": "decline"}
    if kind == "offer_plan":
        if len(state["players"][seat]["hand"]) >= 2 and effect[2] > 0:
            return {"type": "decline"}
        if "deck" not in options[0]:
            return options[0]
        have = sum(state["players"][seat]["res"].values()) + state["players"][seat]["gold"]
        wanted = "grand" if have >= 5 else "basic"
        return next((m for m in options if m["deck"] == wanted), options[0])
    if kind == "offer_prestige":
        return (
            options[0] if silver >= effect[1] + 6 or turns_left(state) <= 2 else {"type": "decline"}
        )
    if kind == "offer_gold":
        return options[0] if silver >= effect[1] + 5 else {"type": "decline"}
    return options[0]


def plan_choice(state: State, seat: int, rng, style: dict) -> dict:
    player = state["players"][seat]
    hand = player["hand"]
    if turns_left(state) <= 1:
        return {"type": "pass"}
    buildable = [c for c in hand if rules.build_spaces(state, seat, c)]
    stuck = [c for c in hand if c not in buildable or sum(missing(state, seat, c).values()) > 5]
    if len(buildable) >= 2 and not stuck:
        return {"type": "pass"}
    have = sum(player["res"].values()) + player["gold"]
    deck = "grand" if have >= 5 and player["silver"] >= 6 and state["grand_deck"] else "basic"
    if not state[f"{deck}_deck"] or player["silver"] < (2 if deck == "grand" else 1) + 2:
        return {"type": "pass"}
    discard = []
    if stuck:  # identical cards are one choice: name the lowest of them
        name = PLANS[stuck[0]].name
        discard = [min(c for c in hand if PLANS[c].name == name)]
    if len(hand) - len(discard) + 1 > rules.hand_limit(state, seat):
        return {"type": "pass"}
    return {"type": "buy_plan", "deck": deck, "discard": discard}


def trade_choice(state: State, seat: int, style: dict) -> dict:
    player = state["players"][seat]
    market = state["market"]
    n = state["n"]
    need = needs(state, seat, style)
    for r in RESOURCES:
        excess = player["res"][r] - HOLDING_LIMIT[r]
        room = n - market[r]
        if excess > 0 and room > 0:
            return {"type": "sell", "resource": r, "count": min(excess, room)}
    price = rules.buy_price(state, seat)
    if player["silver"] >= price + style["thrift"]:
        for r in sorted(need, key=lambda r: -need[r]):
            if market[r] > 0:
                return {"type": "buy", "resource": r}
    return {"type": "pass"}
