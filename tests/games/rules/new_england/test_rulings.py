"""Issue 12's New England rulings, each from the rulebook's words (shared/rules/new-england.txt,
line numbers cited), in rules version 2; version 1 stays for its stored logs."""

import pytest

from games.commands import interpret, menu
from games.engine import IllegalMove, copy_state, event_rng, places
from games.rules.new_england import GAME, GAME_V1, rules

from .helpers import apply, buying, card_named, figure, fresh, lay

ANNA, BEN, CLEO = 0, 1, 2


def _stored_square(state):
    figure(state, ANNA, "barn", "B2")
    square = card_named(state, "land", "F", "square")
    buying(state, ANNA, [{"card": square}, {"tile": "F"}, {"tile": "F"}], money=30)
    apply(state, ANNA, {"type": "buy_card", "slot": 1, "store": True})
    return square


def test_a_card_stored_this_turn_is_played_only_at_a_later_turn():
    # Line 21: "Stored development cards can be played at later turns during the
    # Buying-Settling Phase"; line 11: cards may be bought only "that they are able to use
    # immediately unless they own an empty barn which can store the card for future use".
    state = fresh()
    square = _stored_square(state)
    lay(state, ANNA, "F", "F5")  # the square would now fit E4 F4 E5 F5
    assert not any(m["type"] == "play_stored" for m in GAME.legal_moves(state, ANNA))
    with pytest.raises(IllegalMove, match="later turn"):
        apply(state, ANNA, {"type": "play_stored", "stored": 1, "cells": ["E4", "F4", "E5", "F5"]})
    apply(state, ANNA, {"type": "buy_tile", "slot": 2, "at": "E5"})
    assert state["turn"] != ANNA  # two purchases and nothing playable: the turn is over

    buying(state, ANNA, [{"tile": "S"}])  # Anna's next buying turn
    move = {"type": "play_stored", "stored": 1, "cells": ["E4", "F4", "E5", "F5"]}
    assert move in GAME.legal_moves(state, ANNA)
    apply(state, ANNA, move)
    assert square in state["players"][ANNA]["cards"] and state["players"][ANNA]["stored"] == []


def test_version_1_still_replays_a_same_turn_play():
    state = GAME_V1.setup(["Anna", "Ben", "Cleo", "Dan"], {"setup": "fixed"}, event_rng("t", 0))
    assert "ruleset" not in state
    square = _stored_square(state)
    lay(state, ANNA, "F", "F5")
    GAME_V1.apply(state, ANNA, {"type": "buy_tile", "slot": 2, "at": "E5"}, None)
    assert state["turn"] == ANNA  # version 1 kept the turn open for the stored card
    move = {"type": "play_stored", "stored": 1, "cells": ["E4", "F4", "E5", "F5"]}
    assert move in GAME_V1.legal_moves(state, ANNA)
    GAME_V1.apply(state, ANNA, move, event_rng("t", 1))
    assert square in state["players"][ANNA]["cards"]


def test_figure_moves_are_not_capped():
    # Line 19: "Pilgrim and ship figures can be moved to any other legal tile during the
    # buying and settling phase" - no number is given; 8 moves must not be refused.
    state = fresh()
    figure(state, ANNA, "pilgrim", "E4")
    buying(state, ANNA, [{"tile": "F"}])
    here, there = "E4", "B2"
    for _ in range(8):
        move = {"type": "move", "figure": "pilgrim", "from": here, "to": there}
        assert move in GAME.legal_moves(state, ANNA)
        apply(state, ANNA, move)
        here, there = there, here
    assert state["figure_moves"] == 8


def test_version_1_kept_its_cap_of_six():
    state = GAME_V1.setup(["Anna", "Ben", "Cleo", "Dan"], {"setup": "fixed"}, event_rng("t", 0))
    figure(state, ANNA, "pilgrim", "E4")
    buying(state, ANNA, [{"tile": "F"}])
    here, there = "E4", "B2"
    for _ in range(6):
        GAME_V1.apply(
            state, ANNA, {"type": "move", "figure": "pilgrim", "from": here, "to": there}, None
        )
        here, there = there, here
    with pytest.raises(IllegalMove):
        GAME_V1.apply(
            state, ANNA, {"type": "move", "figure": "pilgrim", "from": here, "to": there}, None
        )


def _over(money):
    state = fresh(len(money))
    state["phase"] = "over"
    state["ended_by"] = "cards"
    for player, amount in zip(state["players"], money):
        player["money"] = amount
    return state


def test_a_full_tie_on_points_and_money_is_a_shared_place():
    # Line 26: "Victory point ties are won by the player with the most money." Nothing
    # separates players tied on both: they share the place, whatever their seats.
    state = _over([28, 28, 30])
    result = GAME.result(state)
    assert result.ranking == [CLEO, ANNA, BEN]
    assert result.shared == [[ANNA, BEN]]
    assert places(result.as_json()) == [(1, CLEO, False), (2, ANNA, True), (2, BEN, True)]
    notes = " ".join(result.notes)
    assert "money decides (30 to 28 shillings)" in notes
    assert "28 to 28" not in notes
    assert "Anna and Ben tie on 0 points and 28 shillings: they share a place." in notes
    lines = GAME.view(state, None)["result"]
    assert lines[1].startswith("2.= Anna") and lines[2].startswith("2.= Ben")


def test_a_tie_on_points_with_more_money_is_not_shared():
    result = GAME.result(_over([20, 25, 22]))
    assert result.ranking == [BEN, CLEO, ANNA] and result.shared == []


@pytest.mark.parametrize(
    "move", [{"type": "select", "cards": 3.0}, {"type": "select", "cards": True}]
)
def test_a_number_of_cards_must_be_a_whole_number(move):
    state = fresh()
    before = copy_state(state)
    with pytest.raises(IllegalMove):
        GAME.apply(state, ANNA, move, None)
    assert state == before


@pytest.mark.parametrize("chip", [True, 1.0, "1", [1], None])
def test_a_chip_must_be_a_whole_number(chip):
    state = fresh()
    GAME.apply(state, ANNA, {"type": "select", "cards": 3}, None)
    before = copy_state(state)
    with pytest.raises(IllegalMove):
        GAME.apply(state, ANNA, {"type": "chip", "chip": chip}, None)
    assert state == before and state["chips"] == [None] * 4


def test_starter_tiles_are_shown_on_the_text_board():
    text = GAME.render_text(GAME.view(fresh(), ANNA))
    assert "Starter tiles" in text and "A settlement B2+C2" in text


def test_a_bare_number_is_a_chip_and_the_chip_menu_is_not_numbered():
    state = fresh()
    GAME.apply(state, ANNA, {"type": "select", "cards": 3}, None)
    GAME.apply(state, ANNA, {"type": "chip", "chip": 1}, None)
    assert menu(GAME, state, BEN) == []  # "7. chip 8" would make 7 mean two things
    assert interpret(GAME, state, BEN, "8") == {"type": "chip", "chip": 8}
    assert interpret(GAME, state, BEN, "chip 8") == {"type": "chip", "chip": 8}
    assert GAME.parse("2", state, BEN) == {"type": "chip", "chip": 2}


def test_a_bare_number_chooses_the_selection():
    state = fresh()
    assert interpret(GAME, state, ANNA, "5") == {"type": "select", "cards": 5}


def test_the_prompt_after_two_purchases_does_not_offer_zero_items():
    state = fresh()
    _stored_square(state)
    state["purchases"] = 2
    state["stored_now"] = 0  # as in a later turn: the stored card may be played
    prompt = GAME.prompt(state, ANNA)
    assert "0 more" not in prompt and "stored card" in prompt
    state["purchases"] = 1
    assert GAME.prompt(state, ANNA) == "buy up to 1 more item at 3 shillings each, or pass"


def test_an_error_example_names_as_many_parcels_as_the_card():
    state = fresh()
    corner = card_named(state, "land", "S", "corner")  # three parcels
    with pytest.raises(IllegalMove) as error:
        rules.development_cells(state, ANNA, corner, [])
    example = error.value.message.split("'develop ")[1].rstrip("'.")
    assert len(example.split()) == 3
