"""Setup, the opening, rounds, income and the end of the game."""

import pytest

from games.engine import IllegalMove, event_rng
from games.rules.nieuwstad import GAME
from games.rules.nieuwstad import rules as R
from games.rules.nieuwstad.data import BOARDS, deck_for

from .helpers import game_at_choice, give, hand, new_game, put, send


@pytest.mark.parametrize("players", [3, 4])
def test_setup_three_and_four_players(players):
    state = new_game(players)
    assert state["board"] == "large" and len(state["boats"]) == 2
    assert len(state["forest"]) == 2 * 27  # 30 tiles, 3 returned unseen
    for p in state["players"]:
        assert (p["light"], p["dark"], p["guilders"]) == (7, 4, 2)
    assert state["burghers"] == 5 and state["start"] == 0
    assert len(state["deck"]) == {3: 32, 4: 38}[players]
    assert state["supply"]["house"] == 8 and state["supply"]["manor"] == 5


def test_setup_two_players():
    state = new_game(2)
    assert state["board"] == "small" and len(state["boats"]) == 1
    assert len(state["forest"]) == 2 * 15
    kinds = [state["forest"][a] for a, _ in BOARDS["small"].tiles]
    # 18 tiles remain after the 2-player removals; 15 are laid out.
    assert kinds.count("w3") <= 10 and kinds.count("w4") <= 4 and kinds.count("w2g") <= 4
    assert all(p["light"] == 8 for p in state["players"])
    assert state["supply"]["house"] == 4 and state["supply"]["manor"] == 3
    assert len(state["deck"]) == 26
    assert sorted(deck_for(2)) == sorted(state["deck"])


def test_marked_cards_leave_smaller_games():
    assert len(deck_for(4)) == 38
    assert deck_for(4).count("crime") == 3 and deck_for(3).count("crime") == 2
    assert deck_for(2).count("watch") == 1


def test_two_players_choose_twice_in_turn():
    state = game_at_choice(2)
    assert state["picks"] == [0, 1, 0, 1]


def test_opening_tile_must_be_outside_or_reach_the_open_area():
    state = new_game(4)
    with pytest.raises(IllegalMove, match="cannot be reached"):
        GAME.apply(state, 0, {"type": "forest", "cell": "B2"}, event_rng("x", 1))
    send(state, 0, "take forest C3")  # borders the Market
    assert "C3" not in state["forest"] and "C4" not in state["forest"]


def test_opening_buildings_go_counter_clockwise_from_the_last_chooser():
    state = new_game(4)
    for seat, cell in enumerate(["A1", "C1", "E1", "G1"]):
        send(state, seat, f"take forest {cell}")
    assert state["phase"] == "opening_building"
    assert state["order"] == [3, 2, 1, 0]
    kinds = {m["building"] for m in GAME.legal_moves(state, 3)}
    assert kinds == {"house", "grainfield", "boat"}
    send(state, 3, "build house at A1")
    assert state["players"][3]["points"] == 0 and state["burghers"] == 5
    assert state["players"][3]["guilders"] == 2 and state["players"][3]["light"] == 6


def test_no_room_for_a_boat_when_both_are_taken():
    state = new_game(4)
    for seat, cell in enumerate(["A1", "C1", "E1", "G1"]):
        send(state, seat, f"take forest {cell}")
    send(state, 3, "build boat")
    send(state, 2, "build boat")
    assert not [m for m in GAME.legal_moves(state, 1) if m["building"] == "boat"]


def test_a_chosen_character_is_gone_for_the_round():
    state = game_at_choice(4)
    send(state, 0, "woodcutter")
    while state["phase"] != "choose":
        seat = GAME.to_act(state)[0]
        send(state, seat, "pass")
    with pytest.raises(IllegalMove, match="already chosen"):
        GAME.apply(state, 1, {"type": "choose", "character": "woodcutter"}, None)


def test_rent_master_and_count_arrive_with_their_buildings():
    state = game_at_choice(4)
    avail = R.available_characters(state)
    assert "rentmaster" not in avail and "count" not in avail
    put(state, 0, "office", ["B2"], "N")
    put(state, None, "townhall", ["F2", "G2"], "N")
    state["chosen"] = ["farmer"]
    avail = R.available_characters(state)
    assert "rentmaster" in avail and "count" in avail


def test_end_at_thirty_is_checked_before_income():
    """[rulebook End of a Round] "If someone has 30 or more points, the game ends. If this is
    not the case, play continues and a new round is prepared" - income is part of preparing
    the new round, so the last round pays none (and opens no Income Tax window)."""
    state = game_at_choice(4)
    put(state, 1, "house", ["A1"])
    put(state, 2, "manor", ["C1", "D1"])
    state["players"][0]["points"] = 29
    hand(state, 0, "painting")  # 3 points in hand: counted at the end of the round
    hand(state, 3, "incometax")
    state["pick"] = len(state["picks"])
    R.advance(state)
    assert state["phase"] == "over" and state["pending"] is None
    assert state["players"][1]["guilders"] == 2 and state["players"][2]["guilders"] == 2
    result = GAME.result(state)
    assert result.ranking[0] == 0 and result.scores[0] == 32


def test_income_is_paid_when_the_game_goes_on():
    """[rulebook Preparing a New Round] "Each player receives income for his Houses. A House
    yields 1 guilder and a Manor house 2 guilders." """
    state = game_at_choice(4)
    put(state, 1, "house", ["A1"])
    put(state, 2, "manor", ["C1", "D1"])
    state["players"][0]["points"] = 26
    for c in ("incometax", "incometax"):
        state["discard"].append(c)
        state["deck"].remove(c)
    state["pick"] = len(state["picks"])
    R.advance(state)
    assert state["players"][1]["guilders"] == 3 and state["players"][2]["guilders"] == 4
    assert state["phase"] == "choose" and state["round"] == 2


def test_no_end_below_thirty_and_the_pawn_moves_left():
    state = game_at_choice(3)
    state["pick"] = len(state["picks"])
    R.advance(state)
    assert state["phase"] == "choose" and state["start"] == 1 and state["round"] == 2


def test_players_level_on_points_share_the_place():
    """End of the Game: "The player with the most points wins." - and nothing more, so a tie
    on points is a shared place (version 2)."""
    state = game_at_choice(3)
    for p in state["players"]:
        p["points"] = 30
    state["players"][1]["points"] = 25
    give(state, 2, guilders=9)
    R.finish_game(state)
    result = GAME.result(state)
    assert result.shared == [[2, 0]] and result.ranking[-1] == 1
    assert any("share" in note for note in result.notes)


def test_the_result_gives_each_final_score_as_its_parts():
    """End of the Game: points "including any special points of buildings (such as the City
    Gate) and cards (such as the District Party)": the result shows each part, and they add
    up to the score."""
    state = game_at_choice(3)
    for seat, points in enumerate((21, 17, 9)):
        state["players"][seat]["points"] = points
    hand(state, 0, "statue", "painting")
    put(state, 1, "citygate", ["B3", "B4"], "W")
    put(state, 1, "pasture", ["A1"])
    put(state, 1, "grainfield", ["C1"])
    R.finish_game(state)
    result = GAME.result(state)
    breakdown = result.details["breakdown"]
    assert breakdown == [
        [("points in play", 21), ("Statue", 4), ("Painting", 3)],
        [("points in play", 17), ("City Gate", 2)],
        [("points in play", 9)],
    ]
    assert result.scores == [28, 19, 9]
    assert [sum(p for _what, p in parts) for parts in breakdown] == result.scores
    assert result.notes[:3] == [
        "Cor: 21 points in play + 4 Statue + 3 Painting = 28",
        "Emily: 17 points in play + 2 City Gate = 19",
        "Bram: 9 points in play = 9",
    ]


def test_version_1_ties_go_to_more_guilders_then_share():
    from games.rules.nieuwstad import GAME_V1

    state = game_at_choice(3)
    del state["ruleset"]
    for p in state["players"]:
        p["points"] = 30
    give(state, 2, guilders=9)
    R.finish_game(state)
    result = GAME_V1.result(state)
    assert result.ranking[0] == 2 and result.shared == [[0, 1]]
    assert result.notes


def test_income_tax_is_asked_of_every_card_holder_and_cancels_income():
    state = game_at_choice(3)
    put(state, 1, "house", ["A1"])
    hand(state, 0, "incometax")
    hand(state, 2, "painting")
    state["pick"] = len(state["picks"])
    R.advance(state)
    assert sorted(GAME.to_act(state)) == [0, 2]  # the holder is not singled out
    assert {m["type"] for m in GAME.legal_moves(state, 2)} == {"tax", "notax"}
    send(state, 2, "tax")  # not holding it: no effect
    send(state, 0, "tax")
    assert state["players"][1]["guilders"] == 2  # no income this round
    assert "incometax" in state["discard"]


def test_income_tax_answer_is_secret_until_the_window_closes():
    state = game_at_choice(3)
    hand(state, 0, "incometax")
    hand(state, 2, "painting")
    state["pick"] = len(state["picks"])
    R.advance(state)
    before = GAME.view(state, 1)
    send(state, 0, "tax")
    after = GAME.view(state, 1)
    assert "tax" not in str(after["pending"].get("answers", {}))
    assert before["pending"]["kind"] == "tax"
    assert GAME.describe(state, state, 0, {"type": "tax"}, 1) == "Cor answered."
