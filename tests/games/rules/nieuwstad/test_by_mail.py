"""By-mail adaptations: simultaneous proposals, standing orders, deadline defaults."""

from games.engine import next_automatic
from games.rules.nieuwstad import GAME
from games.rules.nieuwstad import rules as R

from .helpers import clear, game_at_choice, give, hand, send


def test_a_proposal_asks_all_partners_at_once_and_waits_for_each():
    state = game_at_choice(4)
    clear(state, "D3")
    for seat in range(4):
        give(state, seat, guilders=4, wood=4)
    send(state, 0, "master builder")
    send(state, 0, "propose hospice at D3 facing south with Emily, Bram, Wouter")
    assert sorted(GAME.to_act(state)) == [1, 2, 3]
    send(state, 3, "accept")
    assert sorted(GAME.to_act(state)) == [1, 2]
    assert GAME.default_move(state, 1) == {"type": "decline"}
    send(state, 1, "accept")
    send(state, 2, "accept")
    assert state["buildings"][state["cells"]["D3"]]["owner"] is None
    assert sum(p["points"] for p in state["players"]) == 4


def test_standing_orders_answer_windows_and_proposals():
    state = game_at_choice(3)
    hand(state, 1, "painting")
    hand(state, 2, "statue")
    state["pick"] = len(state["picks"])
    R.advance(state)  # the Income Tax window
    orders = {1: frozenset({"no-tax"}), 2: frozenset({"no-tax"})}
    auto = next_automatic(GAME, state, orders)
    assert auto.move == {"type": "notax"} and auto.source == "standing"
    assert GAME.standing_move(state, 1, frozenset()) is None
    assert GAME.standing_move(state, 1, frozenset({"no-pledge"})) is None


def test_standing_order_skips_the_bailiff():
    state = game_at_choice(3)
    give(state, 0, guilders=5)
    send(state, 0, "bailiff")
    assert GAME.standing_move(state, 0, frozenset({"no-cards"})) == {"type": "buy", "count": 0}


def test_deadline_defaults_are_cautious_and_legal():
    state = game_at_choice(3)
    assert GAME.default_move(state, 0) in GAME.legal_moves(state, 0)
    send(state, 0, "woodcutter")
    assert GAME.default_move(state, 0) == {"type": "pass"}
