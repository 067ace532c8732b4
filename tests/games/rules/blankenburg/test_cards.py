"""Designed characters and event/visitor effects, one check each."""

import pytest

from games.rules.blankenburg import GAME, rules
from games.rules.blankenburg.data import EVENTS, VISITORS

from .helpers import (
    clear_hands,
    give_hand,
    new_game,
    play,
    put,
    set_resources,
    set_track,
    top_event,
    top_visitor,
)


def game(n=3):
    state = new_game([f"P{i}" for i in range(n)])
    clear_hands(state)
    state["first"] = 0
    for p in state["players"]:
        p["char"], p["silver"], p["prestige"] = "mason", 10, 5
    return state


def income(state, event, visitor="Bard"):
    top_event(state, event)
    top_visitor(state, visitor)
    rules.start_income(state)


def test_mason_swaps_one_wood_for_stone():
    state = game()
    give_hand(state, 0, "Tower")
    set_resources(state, 0, stone=2, wood=1)
    assert rules.payment(state, 0, state["players"][0]["hand"][0]) == {"stone": 2, "wood": 1}
    state["players"][0]["char"] = "noble"
    assert rules.payment(state, 0, state["players"][0]["hand"][0]) is None


def test_banker_architect_guildmaster_foreman():
    state = game()
    state["players"][0]["char"] = "architect"
    assert rules.plan_price(state, 0, "basic") == 0 and rules.hand_limit(state, 0) == 4
    state["players"][1]["char"] = "guildmaster"
    state["round"] = 2
    assert rules.buy_price(state, 1) == 2 and rules.sell_price(state, 1) == 2
    state["players"][2]["char"] = "foreman"
    space = put(state, "Castle", 2, damaged=True)
    assert rules.repair_cost(state, 2, state["town"][space]["card"]) == 0
    state["phase"], state["cur"] = "build", 2
    play(state, 2, {"type": "demolish", "space": space})
    assert state["players"][2]["prestige"] == 5
    state["players"][0]["char"] = "banker"
    state["players"][0]["silver"] = 45
    rules.score(state)
    assert state["result"]["details"]["players"][0]["from_silver"] == 4


def test_innkeeper_and_abbess():
    state = game()
    state["players"][0]["char"] = "innkeeper"
    state["players"][1]["char"] = "abbess"
    put(state, "Chapel", 1)
    set_track(state, "Priest", "Guard", "Butcher", "Baker")
    income(state, "Royal Treasury", "Bard")
    # Bard, Guard, Butcher, Baker at the board's inn: 4 guests, the Innkeeper gains 1.
    assert state["players"][0]["silver"] == 11
    assert state["players"][1]["silver"] == 12  # chapel 1 + the Abbess's 1


@pytest.mark.parametrize("event", [e.name for e in EVENTS])
def test_every_event_resolves(event):
    state = game()
    put(state, "Cottage", 0)
    put(state, "Shop", 1)
    put(state, "Chapel", 2)
    set_track(state, "Priest", "Baker", "Butcher")
    income(state, event)
    while state["phase"] == "offer":
        seat = GAME.to_act(state)[0]
        play(state, seat, GAME.legal_moves(state, seat)[0])
    assert state["phase"] in ("plans", "resources")
    GAME.check_invariants(state)


@pytest.mark.parametrize("visitor", [v.name for v in VISITORS])
def test_every_visitor_resolves(visitor):
    state = game()
    put(state, "Cottage", 0, damaged=True)
    put(state, "Shop", 1)
    set_track(state, "Priest", "Baker")
    income(state, "Royal Treasury", visitor)
    while state["phase"] == "offer":
        seat = GAME.to_act(state)[0]
        play(state, seat, GAME.legal_moves(state, seat)[0])
    assert state["lodging"][0][0] == visitor
    GAME.check_invariants(state)


def test_specific_effects():
    state = game()
    put(state, "Shop", 0)
    a = put(state, "Inn", 1)
    put(state, "Cottage", 1)
    income(state, "Fire", "Saboteur")
    assert state["town"][a]["damaged"]  # Fire: P1's least prestigious commercial
    assert state["town"][rules.owned_spaces(state, 1)[-1]]["damaged"]  # the Saboteur: newest
    state = game()
    put(state, "Chapel", 0)
    income(state, "Pilgrimage", "Bard")
    assert state["players"][0]["silver"] == 10 + 2  # the priest pays double
    state = game()
    put(state, "Cottage", 0)
    set_track(state, "Baker")
    income(state, "Quarantine", "Bard")
    assert state["players"][0]["silver"] == 10
    state = game()
    state["players"][0]["silver"] = 12
    income(state, "Good Harvest", "Pickpocket")
    assert state["players"][0]["silver"] == 10 and state["players"][1]["silver"] == 8
    assert all(p["res"]["wood"] >= 1 for p in state["players"])
    state = game()
    income(state, "Coronation", "Bard")
    play(state, 0, GAME.parse("accept", state, 0))
    assert state["players"][0]["prestige"] == 6 and state["players"][0]["silver"] == 7
