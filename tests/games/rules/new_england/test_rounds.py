"""A round's phases: selection, bidding, buying order, ships, barns, income, the end, scores."""

import pytest

from games.engine import IllegalMove
from games.rules.new_england import GAME, rules
from games.rules.new_england.data import CARDS, CELL_INDEX

from .helpers import apply, buying, card_named, figure, fresh, lay

ANNA, BEN, CLEO, DAN = 0, 1, 2, 3


def test_start_player_is_annable_and_chooses_three_to_six_cards():
    state = fresh()
    assert state["phase"] == "select" and GAME.to_act(state) == [0]
    assert [m["cards"] for m in GAME.legal_moves(state, 0)] == [3, 4, 5, 6]
    with pytest.raises(IllegalMove):
        apply(state, 0, {"type": "select", "cards": 7})
    deck, bag = len(state["deck"]), len(state["bag"])
    apply(state, 0, {"type": "select", "cards": 4})
    kinds = ["card" if "card" in i else "tile" for i in state["selection"]]
    assert kinds == ["card"] * 4 + ["tile"] * 5
    assert len(state["deck"]) == deck - 4 and len(state["bag"]) == bag - 5


def test_chips_are_taken_clockwise_from_the_start_player_and_buying_goes_high_to_low():
    state = fresh()
    state["start"] = 2
    state["turn"] = 2
    apply(state, 2, {"type": "select", "cards": 3})
    assert GAME.to_act(state) == [2]
    apply(state, 2, {"type": "chip", "chip": 5})
    assert GAME.to_act(state) == [3]
    with pytest.raises(IllegalMove, match="free bidding chips"):
        apply(state, 3, {"type": "chip", "chip": 5})
    apply(state, 3, {"type": "chip", "chip": 2})
    apply(state, 0, {"type": "chip", "chip": 9})
    apply(state, 1, {"type": "chip", "chip": 7})
    assert state["phase"] == "buy"
    assert state["order"] == [0, 1, 2, 3]
    assert GAME.to_act(state) == [0]
    for seat in (0, 1, 2, 3):
        apply(state, seat, {"type": "pass"})
    # the highest bidder starts the next round
    assert state["phase"] == "select" and state["start"] == 0 and state["round"] == 2


def test_price_is_the_chip_and_at_most_two_purchases():
    state = fresh()
    buying(state, ANNA, [{"tile": "F"}, {"tile": "F"}, {"tile": "F"}], chip=6, money=20)
    state["players"][ANNA]["stored"] = []
    apply(state, ANNA, {"type": "buy_tile", "slot": 1, "at": "E5"})
    assert state["players"][ANNA]["money"] == 14
    apply(state, ANNA, {"type": "buy_tile", "slot": 2, "at": "F5"})
    assert state["players"][ANNA]["money"] == 8
    # no stored card: the turn ended by itself after the second purchase
    assert state["turn"] != ANNA


def test_cannot_buy_without_the_money():
    state = buying(fresh(), ANNA, [{"tile": "F"}], chip=8, money=7)
    assert not any(m["type"] == "buy_tile" for m in GAME.legal_moves(state, ANNA))
    with pytest.raises(IllegalMove, match="You have 7 shillings"):
        apply(state, ANNA, {"type": "buy_tile", "slot": 1, "at": "E5"})


def test_income_is_four_plus_one_per_pilgrim():
    state = fresh()
    figure(state, ANNA, "pilgrim", "B2")
    figure(state, ANNA, "pilgrim", "E4")
    figure(state, BEN, "pilgrim", "J4")
    buying(state, DAN, [], chip=1, money=0)
    money = [p["money"] for p in state["players"]]
    money[DAN] = 0
    state["order"] = [DAN]
    apply(state, DAN, {"type": "pass"})
    assert [p["money"] for p in state["players"]] == [
        money[0] + 6,
        money[1] + 5,
        money[2] + 4,
        4,
    ]
    assert rules.income(state, ANNA) == 6


def test_unsold_items_leave_the_game_at_the_end_of_the_round():
    state = buying(fresh(), ANNA, [{"tile": "F"}, {"tile": "S"}])
    state["order"] = [ANNA]
    apply(state, ANNA, {"type": "pass"})
    assert state["selection"] == [] and state["discarded_tiles"] == 2
    GAME.check_invariants(state)


def test_game_ends_at_once_when_the_deck_runs_short():
    state = fresh()
    state["discarded_cards"] += state["deck"][2:]
    state["deck"] = state["deck"][:2]
    apply(state, 0, {"type": "select", "cards": 3})
    assert state["phase"] == "over" and state["ended_by"] == "cards"
    assert GAME.result(state) is not None and GAME.to_act(state) == []
    GAME.check_invariants(state)


def test_game_ends_at_once_when_the_bag_runs_short():
    state = fresh()
    state["discarded_tiles"] += len(state["bag"]) - 5
    state["bag"] = state["bag"][:5]
    apply(state, 0, {"type": "select", "cards": 3})  # needs 6 tiles
    assert state["phase"] == "over" and state["ended_by"] == "tiles"


def test_a_short_supply_need_not_end_the_game_if_the_choice_fits():
    state = fresh()
    state["discarded_tiles"] += len(state["bag"]) - 5
    state["bag"] = state["bag"][:5]
    apply(state, 0, {"type": "select", "cards": 4})  # 5 tiles: exactly enough
    assert state["phase"] == "bid" and state["bag"] == []


def test_deck_and_bag_counts_are_not_in_any_view():
    state = fresh()
    apply(state, 0, {"type": "select", "cards": 4})
    for seat in (None, 0, 1, 2, 3):
        text = GAME.render_text(GAME.view(state, seat))
        for secret in GAME.secrets(state)[None]:
            assert secret not in text
            assert secret not in str(GAME.view(state, seat))
    assert "deck" not in str(GAME.view(state, 0))
    assert "bag" not in str(GAME.view(state, 0))


# --- ships ------------------------------------------------------------------------------


def _ships(state, *seats):
    coast = {ANNA: "B1", BEN: "J3", CLEO: "K6", DAN: "K8"}
    for seat in seats:
        if seat == ANNA:
            lay(state, ANNA, "S", "B1")
        if seat == BEN:
            lay(state, BEN, "F", "J3")
        if seat == DAN:
            lay(state, DAN, "S", "K8")
        figure(state, seat, "ship", coast[seat])


def test_most_ships_may_reveal_one_extra_item_before_the_first_purchase():
    state = fresh()
    _ships(state, ANNA)
    buying(state, ANNA, [{"tile": "F"}])
    reveals = [m for m in GAME.legal_moves(state, ANNA) if m["type"] == "reveal"]
    assert reveals == [{"type": "reveal", "what": "tile"}, {"type": "reveal", "what": "card"}]
    top = state["deck"][-1]
    apply(state, ANNA, {"type": "reveal", "what": "card"})
    assert state["selection"][-1] == {"card": top} and len(state["selection"]) == 2
    with pytest.raises(IllegalMove, match="already used"):
        apply(state, ANNA, {"type": "reveal", "what": "tile"})
    GAME.check_invariants(state)


def test_no_reveal_after_a_purchase():
    state = fresh()
    _ships(state, ANNA)
    buying(state, ANNA, [{"tile": "F"}, {"tile": "F"}])
    state["players"][ANNA]["stored"] = []
    apply(state, ANNA, {"type": "buy_tile", "slot": 1, "at": "E5"})
    assert not any(m["type"] == "reveal" for m in GAME.legal_moves(state, ANNA))
    with pytest.raises(IllegalMove, match="before your first purchase"):
        apply(state, ANNA, {"type": "reveal", "what": "tile"})


def test_players_tied_for_most_ships_each_may_reveal_others_may_not():
    state = fresh()
    _ships(state, ANNA, BEN)
    assert rules.ship_leaders(state) == [ANNA, BEN]
    buying(state, ANNA, [], chip=9)
    state["chips"] = [9, 3, 5, 1]
    state["order"] = [ANNA, CLEO, BEN, DAN]
    apply(state, ANNA, {"type": "reveal", "what": "tile"})
    revealed = state["selection"][-1]
    apply(state, ANNA, {"type": "pass"})  # Anna leaves the revealed tile for the others
    assert state["turn"] == CLEO
    assert not rules.can_reveal(state, CLEO)  # no ship
    with pytest.raises(IllegalMove, match="most ships"):
        apply(state, CLEO, {"type": "reveal", "what": "tile"})
    apply(state, CLEO, {"type": "pass"})
    assert state["turn"] == BEN and rules.can_reveal(state, BEN)  # tied for most ships
    assert state["selection"][-1] == revealed  # still there for Ben
    apply(state, BEN, {"type": "reveal", "what": "card"})
    assert len(state["selection"]) == 2


def test_nobody_reveals_when_nobody_has_a_ship():
    state = buying(fresh(), ANNA, [])
    assert rules.ship_leaders(state) == []
    assert not rules.can_reveal(state, ANNA)


def test_an_empty_deck_cannot_be_revealed_from():
    state = fresh()
    _ships(state, ANNA)
    buying(state, ANNA, [])
    state["discarded_cards"] += state["deck"]
    state["deck"] = []
    moves = GAME.legal_moves(state, ANNA)
    assert {"type": "reveal", "what": "card"} not in moves
    assert {"type": "reveal", "what": "tile"} in moves


# --- barns -----------------------------------------------------------------------------------


def test_version_1_let_a_card_stored_this_turn_be_played_at_once():
    """The rules of version 1, kept for its stored logs; version 2 follows the rulebook
    (tests/games/rules/new_england/test_rulings.py)."""
    state = fresh()
    del state["ruleset"], state["stored_now"]
    figure(state, ANNA, "barn", "B2")
    square = card_named(state, "land", "F", "square")
    buying(state, ANNA, [{"card": square}, {"tile": "F"}, {"tile": "F"}], money=30)
    moves = [m for m in GAME.legal_moves(state, ANNA) if m.get("slot") == 1]
    assert moves == [{"type": "buy_card", "slot": 1, "store": True}]
    apply(state, ANNA, moves[0])
    assert state["players"][ANNA]["stored"] == [square]
    assert not rules.can_store(state, ANNA)  # the one barn is full
    apply(state, ANNA, {"type": "buy_tile", "slot": 2, "at": "E5"})
    assert state["turn"] == ANNA  # a stored card keeps the turn open
    lay(state, ANNA, "F", "F5")
    apply(state, ANNA, {"type": "play_stored", "stored": 1, "cells": ["E4", "F4", "E5", "F5"]})
    assert state["players"][ANNA]["stored"] == [] and square in state["players"][ANNA]["cards"]
    assert state["turn"] != ANNA  # two purchases made, barn empty: the turn is over
    GAME.check_invariants(state)


def test_no_barn_no_storing():
    state = fresh()
    square = card_named(state, "land", "F", "square")
    buying(state, ANNA, [{"card": square}])
    with pytest.raises(IllegalMove, match="no empty barn"):
        apply(state, ANNA, {"type": "buy_card", "slot": 1, "store": True})


def test_stored_cards_score_nothing():
    state = fresh()
    figure(state, ANNA, "barn", "B2")
    square = card_named(state, "land", "S", "square")
    state["deck"].remove(square)
    state["players"][ANNA]["stored"].append(square)
    state["phase"] = "over"
    state["ended_by"] = "cards"
    total, details = rules.scores(state)
    assert details["cards"][ANNA] == CARDS[state["players"][ANNA]["cards"][0]].points


# --- scoring -----------------------------------------------------------------------------------


def _finish(state):
    state["phase"] = "over"
    state["ended_by"] = "cards"
    return GAME.result(state)


def test_majorities_give_the_full_bonus_to_every_tied_player():
    state = fresh()
    figure(state, ANNA, "pilgrim", "B2")
    figure(state, BEN, "pilgrim", "J4")
    figure(state, CLEO, "barn", "H2")
    _ships(state, DAN)
    result = _finish(state)
    assert result.details["majorities"] == {"pilgrim": [0, 1], "barn": [2], "ship": [3]}
    assert result.details["bonus"] == [4, 4, 3, 2]
    # every figure card here is worth 1 point
    assert result.scores == [5, 5, 4, 3]


def test_ties_on_points_are_broken_by_money():
    state = fresh()
    for player, money in zip(state["players"], (5, 9, 7, 1), strict=True):
        player["money"] = money
    result = _finish(state)
    assert result.scores == [0, 0, 0, 0]
    assert result.ranking == [1, 2, 0, 3]
    assert result.notes


def test_scores_add_card_points():
    state = fresh()
    square = card_named(state, "land", "S", "square")
    state["deck"].remove(square)
    state["players"][CLEO]["cards"].append(square)
    result = _finish(state)
    assert result.scores[CLEO] == 10 and result.ranking[0] == CLEO


# --- the placement setup (option) ---------------------------------------------------------


def test_placed_setup_goes_counter_clockwise_from_the_start_players_right_three_times():
    state = fresh(4, setup="placed")
    assert state["phase"] == "setup"
    assert state["setup_order"] == [3, 2, 1, 0] * 3
    seen = []
    while state["phase"] == "setup":
        seat = GAME.to_act(state)[0]
        seen.append(seat)
        move = GAME.legal_moves(state, seat)[0]
        apply(state, seat, move)
        GAME.check_invariants(state)
    assert seen == [3, 2, 1, 0] * 3
    assert state["phase"] == "select" and GAME.to_act(state) == [0]
    assert len(state["tiles"]) == 12


def test_starter_tiles_may_touch_diagonally_not_orthogonally():
    state = fresh(3, setup="placed")
    seat = GAME.to_act(state)[0]
    apply(state, seat, {"type": "start_tile", "land": "S", "cells": ["E5", "F5"]})
    seat = GAME.to_act(state)[0]
    with pytest.raises(IllegalMove, match="touch no other starter"):
        apply(state, seat, {"type": "start_tile", "land": "F", "cells": ["E6", "E7"]})
    apply(state, seat, {"type": "start_tile", "land": "F", "cells": ["G6", "G7"]})  # corner
    seat = GAME.to_act(state)[0]
    with pytest.raises(IllegalMove, match="starter tiles left"):
        apply(state, seat, {"type": "start_tile", "land": "X", "cells": ["A1", "A2"]})
    assert rules.tile_at(state, CELL_INDEX["G6"])["owner"] == 1


def test_a_figure_card_with_no_figure_left_can_only_be_stored():
    state = fresh()
    figure(state, ANNA, "barn", "B2")
    pilgrim = card_named(state, "pilgrim")
    buying(state, ANNA, [{"card": pilgrim}])
    state["supply"]["pilgrim"] = 0  # as if the other 13 stood on the board
    moves = [m for m in GAME.legal_moves(state, ANNA) if m.get("slot") == 1]
    assert moves == [{"type": "buy_card", "slot": 1, "store": True}]
    with pytest.raises(IllegalMove, match="No pilgrim figures"):
        apply(state, ANNA, {"type": "buy_card", "slot": 1, "at": "E4"})


def test_default_moves_are_cautious_and_legal():
    state = fresh()
    assert GAME.default_move(state, 0) == {"type": "select", "cards": 3}
    apply(state, 0, {"type": "select", "cards": 3})
    assert GAME.default_move(state, 0) == {"type": "chip", "chip": 1}
    buying(state, ANNA, [{"tile": "F"}])
    assert GAME.default_move(state, ANNA) == {"type": "pass"}


def test_standing_order_passes_only_when_nothing_can_be_bought():
    state = fresh()
    figure(state, ANNA, "pilgrim", "B2")  # a movable figure: the turn is not forced
    buying(state, ANNA, [{"tile": "F"}], chip=5, money=4)
    assert len(GAME.legal_moves(state, ANNA)) > 1
    assert GAME.standing_move(state, ANNA, frozenset({"pass-when-broke"})) == {"type": "pass"}
    state["players"][ANNA]["money"] = 5
    assert GAME.standing_move(state, ANNA, frozenset({"pass-when-broke"})) is None
    assert GAME.standing_move(state, ANNA, frozenset()) is None
