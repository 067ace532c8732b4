"""Nieuwstad's moves: the moves listed for a seat (the Master Builder's among them),
`only_move`, and each move sent to its phase of the rules (`apply`, `play`).
"""

from __future__ import annotations

from games.engine import IllegalMove
from games.engine.words import _, joined

from . import geometry as B
from .data import BOAT, BUILDINGS, GOOD_NAMES, PRODUCTS
from .rules.bailiff import (
    after_play,
    buy_cards,
    continue_drawing,
    play_card,
    playable,
    resolve_festival,
    resolve_watch,
)
from .rules.building import (
    build,
    build_error,
    build_start,
    can_afford,
    cost_after,
    discount_options,
)
from .rules.characters import choose, choose_moves
from .rules.events import pledge_moves, resolve_pledges
from .rules.farming import farm, farmer_extras
from .rules.flow import advance, resolve_tax, to_act
from .rules.helpers import name, next_actor, ruleset, say
from .rules.merchant import merchant_act, merchant_moves
from .rules.opening import starting_options, take_forest
from .rules.proposals import (
    any_proposal,
    counter,
    counter_moves,
    proposal_moves,
    propose,
    resolve_proposal,
)

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


# What a builder may build alone, in the order the menu lists it.
BUILDABLE = (*BUILDINGS.items(), ("boat", BOAT))


def can_play_housebuilding(state, seat: int) -> bool:
    return "housebuilding" in state["players"][seat]["hand"] and not state["act"]["turn"].get(
        "housebuilding"
    )


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


def apply(state, seat: int, move: dict) -> dict:
    """Make the move, or raise IllegalMove (the state unchanged) saying why not."""
    if not isinstance(move, dict):
        raise IllegalMove(_("A move is a command such as 'pass'."))
    if seat not in to_act(state):
        raise IllegalMove(_("It is not your turn."))
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
                raise IllegalMove(_("Choose a character first."))
            choose(state, seat, move, checked)
        elif phase == "opening_forest":
            if move.get("type") != "forest":
                raise IllegalMove(_("Choose a forest tile to clear: 'take forest C4'."))
            take_forest(state, seat, move.get("cell"), checked)
            state["idx"] += 1
        elif phase == "opening_building":
            if move.get("type") != "build":
                raise IllegalMove(
                    _("Place your starting building: a House, a Grain field or a Boat.")
                )
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
            say(state, _("{who} passed.", who=name(state, seat)))
    else:
        raise IllegalMove(_("Take a forest tile ('take forest C4') or pass."))
    next_actor(state)


def builder_move(state, seat: int, move: dict, checked: bool = True) -> None:
    kind = move.get("type")
    if kind == "build":
        build(state, seat, move, checked)
    elif kind == "propose":
        propose(state, seat, move, checked)
    elif kind == "pass":
        if state["news"] is not None:
            say(state, _("{who} built nothing.", who=name(state, seat)))
        next_actor(state)
    elif kind == "play" and move.get("card") == "housebuilding":
        player = state["players"][seat]
        turn = state["act"]["turn"]
        if "housebuilding" not in player["hand"]:
            raise IllegalMove(_("You do not hold House Building."))
        if turn.get("housebuilding"):
            raise IllegalMove(_("You already played House Building this turn."))
        player["hand"].remove("housebuilding")
        state["discard"].append("housebuilding")
        turn["housebuilding"] = True
        if state["news"] is not None:
            say(
                state,
                _(
                    "{who} played House Building: 2 g and 2 wood off a House or Manor house.",
                    who=name(state, seat),
                ),
            )
    else:
        raise IllegalMove(_("Build ('build house at D5 facing north'), propose, or pass."))


def farmer_move(state, seat: int, move: dict, checked: bool = True) -> None:
    if move.get("type") != "farm":
        raise IllegalMove(_("Say 'farm' (the chooser may add 'extra grain', 'extra fish'...)."))
    farm(state, seat, move, checked)


def bailiff_move(state, seat: int, move: dict, checked: bool = True) -> None:
    kind = move.get("type")
    if state["act"]["part"] == "buy":
        if kind != "buy":
            raise IllegalMove(_("Buy 0, 1 or 2 cards: 'buy 1 card' or 'buy 0'."))
        buy_cards(state, seat, move.get("count"))
    elif kind == "done" or kind == "pass" and ruleset(state) >= 2:
        if state["news"] is not None:
            say(state, _("{who} played no more cards.", who=name(state, seat)))
        next_actor(state)
    elif kind == "play":
        play_card(state, seat, move, checked)
    else:
        raise IllegalMove(_("Play a wish card ('play gatherer') or say 'done'."))


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
                _("Answer the proposal: 'accept', 'decline' or a counter-offer ('counter: ...').")
                if ruleset(state) >= 2
                else _("Answer the proposal: 'accept', 'decline'.")
            )
        if checked and answer == "accept":
            split = pending["split"][str(seat)]
            if not can_afford(state["players"][seat], split["guilders"], split["wood"]):
                raise IllegalMove(_("You cannot pay your share any more."))
        pending["answers"][str(seat)] = answer
        # Worded wrongly ("acceptd"), but narration is part of the hashed position: the
        # history puts it right (text.worded), so stored logs keep their digests.
        if state["news"] is not None:
            if answer == "accept":
                say(state, _("{who} acceptd the proposal.", who=name(state, seat)))
            else:
                say(state, _("{who} declined the proposal.", who=name(state, seat)))
        if answer == "decline" and ruleset(state) >= 2:  # one decline ends it: ask no more
            resolve_proposal(state)
            return
    elif kind in ("watch", "tax"):
        allowed = ("watch", "nowatch") if kind == "watch" else ("tax", "notax")
        if answer not in allowed:
            raise IllegalMove(
                _("Answer 'watch' (play Citizens' Watch if you hold it) or 'no watch'.")
                if kind == "watch"
                else _("Answer 'tax' (play Income Tax if you hold it) or 'no tax'.")
            )
        pending["answers"][str(seat)] = answer
        if state["news"] is not None:  # the answer stays secret until the window closes
            say(state, _("{who} answered.", who=name(state, seat)))
    elif kind == "festival":
        if answer == "skip":
            pending["answers"][str(seat)] = "skip"
            if state["news"] is not None:
                say(state, _("{who} stayed away from the festival.", who=name(state, seat)))
        elif answer == "join" and move.get("food") in PRODUCTS:
            if not state["players"][seat][move["food"]]:
                raise IllegalMove(_("You have no {good}.", good=GOOD_NAMES[move["food"]]))
            pending["answers"][str(seat)] = move["food"]
            if state["news"] is not None:
                say(
                    state,
                    _(
                        "{who} joined the festival with 1 {food}.",
                        who=name(state, seat),
                        food=GOOD_NAMES[move["food"]],
                    ),
                )
        else:
            raise IllegalMove(_("Answer 'join with fish' (or grain, livestock, game) or 'skip'."))
    elif kind == "pledge":
        if answer != "pledge":
            raise IllegalMove(
                _("Pledge what you will pay: 'pay 2' or 'pay 1 and fish, grain', or 'pay 0'.")
            )
        g = move.get("guilders")
        food = move.get("food", [])
        player = state["players"][seat]
        g_cost, f_cost = pending["cost"]
        if not isinstance(g, int) or not 0 <= g <= min(g_cost, player["guilders"]):
            raise IllegalMove(
                _("Pledge 0 to {most} guilders.", most=min(g_cost, player["guilders"]))
            )
        if (
            not isinstance(food, list)
            or len(food) > f_cost
            or any(p not in PRODUCTS or food.count(p) > player[p] for p in food)
        ):
            raise IllegalMove(
                _("Pledge up to {most} food you hold (fish, grain, livestock, game).", most=f_cost)
            )
        pending["answers"][str(seat)] = {"guilders": g, "food": sorted(food)}
        if state["news"] is not None:
            if food:
                said = _(
                    "{who} pledged {guilders} guilder(s) and {food}.",
                    who=name(state, seat),
                    guilders=g,
                    food=joined([GOOD_NAMES[f] for f in food], ", "),
                )
            else:
                said = _("{who} pledged {guilders} guilder(s).", who=name(state, seat), guilders=g)
            say(state, said)
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
