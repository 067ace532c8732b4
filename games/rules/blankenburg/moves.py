"""Builders of Blankenburg: the legal moves of each decision and the dispatch of a move to
its rule function. Moves are JSON objects; see docs/rules/blankenburg.md for the list."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from games.engine import IllegalMove
from games.engine.words import _

from . import rules
from .data import PLANS, RESOURCES, SPACES
from .rules import State


def structure_label(state: State, space: int) -> str:
    """How a player names one of their structures: 'tower', 'tower (damaged)',
    'town hall in commercial/civic'."""
    s = state["town"][space]
    label = PLANS[s["card"]].name.lower()
    if s["damaged"]:
        label += " (damaged)"
    districts = SPACES[state["board"]][space]
    if len(districts) == 2:
        label += f" in {districts[0]}/{districts[1]}"
    return label


def distinct_structures(state: State, spaces: list[int]) -> list[int]:
    """One space per distinct label (the lowest), so identical structures are one choice."""
    seen: set[str] = set()
    result = []
    for i in spaces:
        label = structure_label(state, i)
        if label not in seen:
            seen.add(label)
            result.append(i)
    return result


def canonical_plans(state: State, seat: int) -> list[tuple[int, str]]:
    """(card, source) with one card per plan name and source (lowest id)."""
    seen: set[tuple[str, str]] = set()
    result = []
    for card, source in sorted(rules.available_plans(state, seat), key=lambda cs: cs[0]):
        key = (PLANS[card].name, source)
        if key not in seen:
            seen.add(key)
            result.append((card, source))
    return result


def build_moves(state: State, seat: int) -> list[dict]:
    result = []
    for card, _plan in canonical_plans(state, seat):
        if rules.payment(state, seat, card) is None:
            continue
        for space in rules.build_spaces(state, seat, card):
            result.append({"type": "build", "card": card, "space": space})
    return result


def legal_moves(state: State, seat: int) -> list[dict]:
    if seat not in rules.to_act(state):
        return []
    phase = state["phase"]
    player = state["players"][seat]
    if phase == "merchant":
        return [{"type": "extra", "resource": r} for r in RESOURCES if state["supply"][r] > 0]
    if phase == "select":
        available = [r for r in RESOURCES if state["supply"][r] > 0]
        return [
            {"type": "select", "resources": list(c)}
            for c in combinations(available, rules.selectable_count(state))
        ]
    if phase == "bid":
        return [{"type": "bid", "silver": v} for v in range(player["silver"] + 1)]
    if phase == "pick":
        return [{"type": "take", "resource": r} for r in rules.wheel_categories(state)]
    if phase == "build":
        owned = rules.owned_spaces(state, seat)
        moves = []
        if not state["demolished"] and not state["built"]:
            moves.extend(
                {"type": "demolish", "space": i} for i in distinct_structures(state, owned)
            )
        moves.extend(build_moves(state, seat))
        repairable = [i for i in owned if rules.can_repair(state, seat, i)]
        moves.extend({"type": "repair", "space": i} for i in distinct_structures(state, repairable))
        moves.append({"type": "done"})
        return moves
    if phase == "offer":
        return [*rules.offer_moves(state, seat, rules.current_offer(state)), {"type": "decline"}]
    if phase == "plans":
        moves = []
        hand = sorted(player["hand"])
        limit = rules.hand_limit(state, seat)
        for deck in ("basic", "grand"):
            if player["silver"] < rules.plan_price(state, seat, deck) or not state[f"{deck}_deck"]:
                continue
            for k in range(len(hand) + 1):
                if len(hand) - k + 1 > limit:
                    continue
                seen: set[tuple[str, ...]] = set()
                for discard in combinations(hand, k):
                    names = tuple(PLANS[c].name for c in discard)
                    if names not in seen:  # identical cards make one choice
                        seen.add(names)
                        moves.append({"type": "buy_plan", "deck": deck, "discard": list(discard)})
        moves.append({"type": "pass"})
        return moves
    if phase == "keep":
        first_of_name = {}  # identical plans are one choice: the lowest card, as parse reads it
        for c in sorted(state["drawn"]):
            first_of_name.setdefault(PLANS[c].name, c)
        return [{"type": "keep", "card": c} for c in sorted(first_of_name.values())]
    if phase == "resources":
        moves = []
        price = rules.buy_price(state, seat)
        if player["silver"] >= price:
            moves.extend({"type": "buy", "resource": r} for r in RESOURCES if state["market"][r])
        for r in RESOURCES:
            room = min(player["res"][r], state["n"] - state["market"][r])
            moves.extend({"type": "sell", "resource": r, "count": k} for k in range(1, room + 1))
        moves.append({"type": "pass"})
        return moves
    if phase == "final_repair":
        spaces = distinct_structures(state, rules.final_repair_spaces(state, seat))
        return [*({"type": "repair", "space": i} for i in spaces), {"type": "done"}]
    return []


def _int(move: dict, key: str) -> int:
    value = move.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalMove(_("That move needs a whole number for {field}.", field=repr(key)))
    return value


def apply_move(state: State, seat: int, move: dict, rng) -> State:
    if state["phase"] == "over":
        raise IllegalMove(_("The game is over."))
    if seat not in rules.to_act(state):
        raise IllegalMove(_("It is not your turn to act."))
    if not isinstance(move, dict):
        raise IllegalMove(_("A move is an object with a type."))
    earlier_news = state["news"]
    state["news"] = []
    try:
        dispatch(state, seat, move, rng)
    except IllegalMove:
        state["news"] = earlier_news  # a refused move leaves the state as it was
        raise
    if state["phase"] == "end":
        rules.start_turn(state, rng)
    return state


def replay_move(state: State, seat: int, move: dict, rng, narrate: bool = True) -> State:
    """`apply_move` for a move read back from the log, which `apply_move` accepted when it
    was appended: whether the game is over and whose turn it is are not asked again, no
    refusal needs undoing, and a build or last repair skips its checks (`REPLAY_MOVES`);
    every change to the state is made as in `apply_move`. Unnarrated, the move writes no
    news: `news` is None until a later move starts its own (`rules.news`)."""
    state["news"] = [] if narrate else None
    REPLAY_BY_PHASE[state["phase"]][move["type"]](state, seat, move, rng)
    if state["phase"] == "end":
        rules.start_turn(state, rng)
    return state


def dispatch(state: State, seat: int, move: dict, rng) -> None:
    """Hand the move to its rule function; each checks it before changing anything."""
    kind = move.get("type")
    enact = MOVES.get((state["phase"], kind))
    if enact is None:
        raise IllegalMove(
            _(
                "That move ({kind}) is not possible now; {ask}.",
                kind=kind,
                ask=PHASE_ASK[state["phase"]],
            )
        )
    enact(state, seat, move, rng)


# One function per move: read its fields and call the rule that enacts it.


def extra(state: State, seat: int, move: dict, rng) -> None:
    rules.choose_extra(state, seat, move.get("resource"), rng)


def select(state: State, seat: int, move: dict, rng) -> None:
    chosen = move.get("resources")
    if not isinstance(chosen, list):
        raise IllegalMove(_("Name the resources to put on the bidding wheel."))
    rules.select_resources(state, seat, chosen, rng)


def bid(state: State, seat: int, move: dict, rng) -> None:
    rules.place_bid(state, seat, move.get("silver"))


def take(state: State, seat: int, move: dict, rng) -> None:
    rules.pick(state, seat, move.get("resource"))


def demolish(state: State, seat: int, move: dict, rng) -> None:
    rules.demolish(state, seat, _int(move, "space"))


def build(state: State, seat: int, move: dict, rng) -> None:
    card = _int(move, "card")
    if not 0 <= card < len(PLANS):
        raise IllegalMove(_("There is no such plan."))
    rules.build(state, seat, card, _int(move, "space"))


def repair(state: State, seat: int, move: dict, rng) -> None:
    rules.repair(state, seat, _int(move, "space"))


def done_building(state: State, seat: int, move: dict, rng) -> None:
    rules.end_building(state, seat)


def answer(state: State, seat: int, move: dict, rng) -> None:
    rules.answer_offer(state, seat, move)


def buy_plan(state: State, seat: int, move: dict, rng) -> None:
    discard = move.get("discard", [])
    if not isinstance(discard, list):
        raise IllegalMove(_("Name the plans to discard."))
    rules.buy_plan(state, seat, move.get("deck"), discard)


def pass_plans(state: State, seat: int, move: dict, rng) -> None:
    rules.pass_plans(state, seat)


def keep(state: State, seat: int, move: dict, rng) -> None:
    rules.keep_plan(state, seat, move.get("card"))


def buy(state: State, seat: int, move: dict, rng) -> None:
    rules.buy_resource(state, seat, move.get("resource"))


def sell(state: State, seat: int, move: dict, rng) -> None:
    rules.sell(state, seat, move.get("resource"), move.get("count"))


def pass_trade(state: State, seat: int, move: dict, rng) -> None:
    rules.pass_trade(state, seat)


def final_repair(state: State, seat: int, move: dict, rng) -> None:
    rules.final_repair(state, seat, _int(move, "space"))


def done_repairing(state: State, seat: int, move: dict, rng) -> None:
    rules.done_final_repair(state, seat)


# (phase, move type) -> its function: the moves each decision allows.
MOVES = {
    ("merchant", "extra"): extra,
    ("select", "select"): select,
    ("bid", "bid"): bid,
    ("pick", "take"): take,
    ("build", "demolish"): demolish,
    ("build", "build"): build,
    ("build", "repair"): repair,
    ("build", "done"): done_building,
    ("offer", "accept"): answer,
    ("offer", "decline"): answer,
    ("plans", "buy_plan"): buy_plan,
    ("plans", "pass"): pass_plans,
    ("keep", "keep"): keep,
    ("resources", "buy"): buy,
    ("resources", "sell"): sell,
    ("resources", "pass"): pass_trade,
    ("final_repair", "repair"): final_repair,
    ("final_repair", "done"): done_repairing,
}


# A logged move passed its checks when it was appended: a replay skips the ones that only
# refuse (a build's room and price, a last repair's window, a bid's purse, the wheel's and
# the market's stock, a plan purchase's price and hand limit, an answer's offer).


def replayed_select(state: State, seat: int, move: dict, rng) -> None:
    rules.fill_wheel(state, move["resources"], rng)


def replayed_bid(state: State, seat: int, move: dict, rng) -> None:
    rules.enter_bid(state, seat, move["silver"])


def replayed_take(state: State, seat: int, move: dict, rng) -> None:
    rules.take_pick(state, seat, move["resource"])
    rules.advance_picks(state)


def replayed_build(state: State, seat: int, move: dict, rng) -> None:
    rules.place_plan(state, seat, move["card"], move["space"])


def replayed_final_repair(state: State, seat: int, move: dict, rng) -> None:
    rules.repair(state, seat, move["space"])


def replayed_answer(state: State, seat: int, move: dict, rng) -> None:
    rules.enter_answer(state, seat, move)


def replayed_buy_plan(state: State, seat: int, move: dict, rng) -> None:
    deck = move["deck"]
    discard = move.get("discard", [])
    rules.draw_plans(state, seat, deck, discard, rules.plan_price(state, seat, deck))


def replayed_buy(state: State, seat: int, move: dict, rng) -> None:
    rules.take_resource(state, seat, move["resource"], rules.buy_price(state, seat))


# The commonest moves that only hand the turn on go straight to the rule that does it: a
# call less for each (a replay's cost is mostly such small steps).


def replayed_done_building(state: State, seat: int, move: dict, rng) -> None:
    rules.finish_builder(state)


def replayed_pass_plans(state: State, seat: int, move: dict, rng) -> None:
    rules.after_plan_buyer(state)


def replayed_pass_trade(state: State, seat: int, move: dict, rng) -> None:
    rules.after_trader(state)


REPLAY_MOVES = {
    **MOVES,
    ("select", "select"): replayed_select,
    ("bid", "bid"): replayed_bid,
    ("pick", "take"): replayed_take,
    ("build", "build"): replayed_build,
    ("build", "done"): replayed_done_building,
    ("offer", "accept"): replayed_answer,
    ("offer", "decline"): replayed_answer,
    ("plans", "buy_plan"): replayed_buy_plan,
    ("plans", "pass"): replayed_pass_plans,
    ("resources", "buy"): replayed_buy,
    ("resources", "pass"): replayed_pass_trade,
    ("final_repair", "repair"): replayed_final_repair,
}
# The same by phase, then move type: two lookups by string cost less than one by a new tuple.
REPLAY_BY_PHASE: dict[str, dict[str, Callable]] = {
    phase: {kind: enact for (at, kind), enact in REPLAY_MOVES.items() if at == phase}
    for phase, _ in REPLAY_MOVES
}

# The fields of each move (games.engine.check_move refuses any other shape).
MOVE_FIELDS = {
    "extra": {"resource": "str"},
    "select": {"resources": "strs"},
    "bid": {"silver": "int"},
    "take": {"resource": "str"},
    "demolish": {"space": "int"},
    "build": {"card": "int", "space": "int"},
    "repair": {"space": "int"},
    "done": {},
    "accept": {"resource": "str", "deck": "str", "space": "int"},
    "decline": {},
    "buy_plan": {"deck": "str", "discard": "ints"},
    "pass": {},
    "keep": {"card": "int"},
    "buy": {"resource": "str"},
    "sell": {"resource": "str", "count": "int"},
}

PHASE_ASK = {
    "merchant": _("choose your extra starting resource"),
    "select": _("choose the resources for the bidding wheel"),
    "bid": _("place your sealed bid"),
    "pick": _("take a category from the bidding wheel"),
    "build": _("build, demolish, repair or say done"),
    "offer": _("accept or decline the offer"),
    "plans": _("buy a plan or pass"),
    "keep": _("keep one of the plans you drew"),
    "resources": _("buy or sell resources, or pass"),
    "final_repair": _("repair a structure damaged last turn, or say done"),
    "over": _("the game is over"),
}
