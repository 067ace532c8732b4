"""All 17 wish cards and the 5 events, with their timing rules and protections."""

import pytest

from games.engine import IllegalMove
from games.rules.nieuwstad import GAME
from games.rules.nieuwstad import rules as R
from games.rules.nieuwstad.data import CARDS

from .helpers import clear, deck_top, game_at_choice, give, hand, put, send


def bailiff_play(state, seat=0):
    """Open the Bailiff phase and get to `seat`'s card play."""
    for p in state["players"]:
        p["guilders"] = 0
    state["picks"] = R.clockwise(state, seat)
    send(state, seat, "bailiff")
    send(state, seat, "buy 0 cards")
    assert state["act"]["part"] == "play" and GAME.to_act(state) == [seat]
    return state


# --- wish cards played in the Bailiff phase --------------------------------------------------


def test_boatbuilding():
    state = game_at_choice(3)
    hand(state, 0, "boatbuilding")
    bailiff_play(state)
    send(state, 0, "play boatbuilding")
    assert state["loose_boats"] == [0] and state["players"][0]["light"] == 6
    assert state["players"][0]["points"] == 0 and state["burghers"] == 5


def test_boatbuilding_needs_a_seal():
    state = game_at_choice(3)
    hand(state, 0, "boatbuilding", "gatherer")
    for cell in ("A1", "C1", "E1", "G1", "A2", "A4", "A6"):
        put(state, 0, "house", [cell])
    assert state["players"][0]["light"] == 0
    bailiff_play(state)
    assert {"type": "play", "card": "boatbuilding"} not in GAME.legal_moves(state, 0)


def test_fire_burns_a_house_and_returns_the_seal():
    state = game_at_choice(3)
    put(state, 1, "house", ["A1"])
    state["burghers"] = 12
    hand(state, 0, "fire")
    bailiff_play(state)
    send(state, 0, "play fire on A1")
    assert "A1" not in state["cells"] and state["players"][1]["light"] == 7
    assert state["burghers"] == 10 and state["supply"]["house"] == 8


def test_fire_not_on_a_manor_and_not_once_the_watchtower_stands():
    state = game_at_choice(3)
    put(state, 1, "manor", ["A1", "B1"])
    hand(state, 0, "fire", "gatherer")
    bailiff_play(state)
    assert not [m for m in GAME.legal_moves(state, 0) if m.get("card") == "fire"]
    put(state, 1, "house", ["C1"])
    put(state, None, "watchtower", ["D3"], "S")
    with pytest.raises(IllegalMove, match="Watchtower"):
        GAME.apply(state, 0, GAME.parse("play fire on C1", state, 0), None)


def test_fire_on_own_house_gives_the_seal_back_and_burghers_floor():
    state = game_at_choice(3)
    put(state, 0, "house", ["A1"])
    hand(state, 0, "fire")
    bailiff_play(state)
    send(state, 0, "play fire on A1")
    assert state["players"][0]["light"] == 7 and state["burghers"] == 5


def crime_scene():
    state = game_at_choice(4)
    put(state, 1, "house", ["D3"], "S")  # NW
    put(state, 2, "house", ["C3"], "N")  # NW
    put(state, 3, "house", ["E3"], "S")  # NE
    give(state, 1, guilders=0, wood=3)
    give(state, 2, guilders=0, wood=0)
    return state


def test_crime_steals_one_from_each_resident():
    state = crime_scene()
    hand(state, 0, "crime")
    bailiff_play(state)
    give(state, 1, guilders=2, wood=3)
    give(state, 2, guilders=0, wood=2)
    send(state, 0, "play crime in NW taking guilders")
    # no other player holds a card: nobody can answer, so no window
    p = state["players"]
    assert (p[1]["guilders"], p[1]["wood"]) == (1, 3)
    assert (p[2]["guilders"], p[2]["wood"]) == (0, 1)
    assert (p[0]["guilders"], p[0]["wood"]) == (2, 1)  # 1 privilege guilder + 1 stolen


def test_crime_window_asks_every_card_holder_and_watch_protects():
    state = crime_scene()
    hand(state, 0, "crime")
    hand(state, 2, "watch")
    hand(state, 3, "painting")
    bailiff_play(state)
    give(state, 1, guilders=2)
    send(state, 0, "play crime in NW taking guilders")
    assert sorted(GAME.to_act(state)) == [2, 3]  # the holder is not singled out
    assert GAME.legal_moves(state, 3) == GAME.legal_moves(state, 2)
    send(state, 3, "watch")  # holds no watch: no effect, and nobody learns it
    assert "answers" not in GAME.view(state, 1)["pending"]
    assert GAME.describe(state, state, 3, {"type": "watch"}, 1) == "Wouter answered."
    send(state, 2, "watch")
    assert state["players"][1]["guilders"] == 2
    assert "watch" in state["discard"]


def test_crime_goes_ahead_when_nobody_watches():
    state = crime_scene()
    hand(state, 0, "crime")
    hand(state, 2, "watch")
    bailiff_play(state)
    give(state, 1, guilders=2)
    send(state, 0, "play crime in NW taking wood")
    send(state, 2, "no watch")
    assert state["players"][1]["wood"] == 2 and "watch" in state["players"][2]["hand"]


def test_crime_not_in_the_prison_district():
    state = crime_scene()
    put(state, 3, "prison", ["B4"], "E")  # NW district
    hand(state, 0, "crime")
    bailiff_play(state)
    with pytest.raises(IllegalMove, match="Prison"):
        GAME.apply(state, 0, GAME.parse("play crime in NW", state, 0), None)
    assert {m["district"] for m in GAME.legal_moves(state, 0) if m.get("card") == "crime"} == {
        "NE",
        "SE",
        "SW",
    }


def test_knowledge_is_power_doubles_privileges_and_the_second_is_dead():
    state = game_at_choice(3)
    hand(state, 0, "knowledge", "knowledge")
    bailiff_play(state)
    send(state, 0, "play knowledge is power")
    assert {"type": "play", "card": "knowledge"} not in GAME.legal_moves(state, 0)
    state["act"] = None
    state["phase"] = "choose"
    state["picks"], state["pick"], state["chosen"] = [0, 1, 2], 0, []
    give(state, 0, guilders=0)
    send(state, 0, "merchant")
    assert state["players"][0]["guilders"] == 2


def test_knowledge_doubles_the_builder_discount():
    state = game_at_choice(3)
    state["players"][0]["knowledge"] = True
    clear(state, "A1")
    give(state, 0, guilders=2, wood=1)
    send(state, 0, "master builder")
    assert {m["discount"] for m in GAME.legal_moves(state, 0) if m.get("building") == "house"} == {
        "ww"
    }


def test_midsummer_night_festival():
    state = crime_scene()
    hand(state, 0, "midsummer")
    bailiff_play(state)
    give(state, 0, fish=1)
    give(state, 1, grain=1)
    give(state, 2, game=0, grain=0, fish=0, livestock=0)
    state["players"][2]["points"] = 3
    send(state, 0, "play midsummer night festival in NW")
    assert sorted(GAME.to_act(state)) == [0, 1]  # those with food
    send(state, 1, "join with grain")
    send(state, 0, "join with fish")
    p = state["players"]
    assert (p[0]["points"], p[1]["points"], p[2]["points"]) == (2, 2, 2)
    assert p[1]["grain"] == 0


def test_rotten_fish_locusts_wolves_gatherer():
    state = game_at_choice(3)
    put(state, 1, "grainfield", ["A1"])
    put(state, 2, "pasture", ["C1"])
    for b in state["buildings"].values():
        b["crop"] = 1
    give(state, 1, fish=3, smoked=2)
    hand(state, 0, "rottenfish", "locusts")
    bailiff_play(state)
    send(state, 0, "play rotten fish")
    assert state["players"][1]["fish"] == 0 and state["players"][1]["smoked"] == 2
    send(state, 0, "play locust plague")
    assert state["buildings"][state["cells"]["A1"]]["crop"] == 0
    assert state["buildings"][state["cells"]["C1"]]["crop"] == 1
    state2 = game_at_choice(3)
    put(state2, 2, "pasture", ["C1"])
    state2["buildings"][state2["cells"]["C1"]]["crop"] = 1
    hand(state2, 0, "wolves", "gatherer")
    bailiff_play(state2)
    send(state2, 0, "play wolf terror")
    send(state2, 0, "play gatherer")
    assert state2["buildings"][state2["cells"]["C1"]]["crop"] == 0
    assert state2["players"][0]["wood"] == 2


def test_house_building_only_in_the_master_builder_phase():
    state = game_at_choice(3)
    hand(state, 0, "housebuilding")
    bailiff_play(state)
    with pytest.raises(IllegalMove, match="Master Builder phase"):
        GAME.apply(state, 0, {"type": "play", "card": "housebuilding"}, None)
    state2 = game_at_choice(3)
    hand(state2, 0, "housebuilding")
    clear(state2, "A1")
    give(state2, 0, guilders=0, wood=1)
    send(state2, 0, "master builder")
    send(state2, 0, "play house building")
    send(state2, 0, "build house at A1 less 1 wood")
    assert state2["players"][0]["points"] == 2 and state2["players"][0]["wood"] == 1 - 0


def test_end_cards_count_in_hand():
    state = game_at_choice(3)
    hand(state, 0, "neighbourhood", "woodfestival", "painting", "statue")
    give(state, 0, guilders=7, wood=2, plank=2)
    points = R.card_points(state, 0)
    assert points == {"neighbourhood": 2, "woodfestival": 2, "painting": 3, "statue": 4}
    with pytest.raises(IllegalMove, match="end of the game"):
        bailiff_play(state)
        GAME.apply(state, 0, {"type": "play", "card": "statue"}, None)


def test_district_party_and_full_district_bonus():
    state = game_at_choice(2)
    hand(state, 0, "districtparty")
    put(state, 0, "house", ["B1"], "S")
    put(state, 0, "house", ["C1"], "S")
    put(state, 0, "manor", ["D1", "E1"], "S")  # partly in NW
    assert R.card_points(state, 0) == {"districtparty": 3}
    put(state, None, "well", ["B2"], "N")
    put(state, 1, "house", ["C2"], "E")
    assert R.card_points(state, 0) == {"districtparty": 6}  # full: +3


def test_city_gate_special_points():
    state = game_at_choice(3)
    put(state, 0, "citygate", ["B3", "B4"], "W")
    put(state, 0, "pasture", ["A1"])
    put(state, 0, "grainfield", ["C1"])
    assert R.card_points(state, 0) == {"citygate": 2}


# --- events --------------------------------------------------------------------------------


def draw(state, event, seat=0):
    """`seat` buys a card and draws `event` first (then a wish card)."""
    for p in state["players"]:
        p["guilders"] = max(p["guilders"], 0)
    give(state, seat, guilders=max(1, state["players"][seat]["guilders"]))
    wish = next(c for c in state["deck"] if CARDS[c].kind == "wish")
    deck_top(state, event, wish)
    state["picks"] = R.clockwise(state, seat)
    send(state, seat, "bailiff")
    send(state, seat, "buy 1 card")


def test_birth_waves_and_crusade():
    state = game_at_choice(3)
    put(state, 0, "house", ["B2"])
    put(state, 1, "manor", ["F2", "G2"])
    put(state, 2, "house", ["A1"])  # outer area: not "in the city" (test_rulings.py)
    draw(state, "smallbirth")
    assert state["burghers"] == 7 and len(state["players"][0]["hand"]) == 1
    state = game_at_choice(3)
    put(state, 0, "house", ["B2"])
    state["burghers"] = 9
    draw(state, "greatbirth")
    assert state["burghers"] == 11
    state = game_at_choice(3)
    state["burghers"] = 12
    draw(state, "crusade")
    assert state["burghers"] == 5


def test_vikings_strike_boats_and_the_shore():
    state = game_at_choice(3)
    put(state, 1, "boat", [])
    put(state, 2, "house", ["G4"], "W")  # by the lake
    state["burghers"] = 20
    for p in state["players"]:
        p["guilders"] = 0
    draw(state, "vikings")  # nobody else can pay: the cost is 2
    assert state["boats"] == [None, None] and state["players"][1]["light"] == 7
    assert state["burghers"] == 17


def test_vikings_prevented_by_paying_together():
    state = game_at_choice(3)
    put(state, 1, "boat", [])
    put(state, 2, "house", ["G4"], "W")
    give(state, 1, guilders=1)
    give(state, 2, guilders=3)
    give(state, 0, guilders=1)
    draw(state, "vikings")
    assert sorted(GAME.to_act(state)) == [0, 1, 2]
    send(state, 0, "pledge 0")
    send(state, 1, "pledge 1")
    send(state, 2, "pledge 1")
    assert state["boats"][0] == 1
    assert state["players"][1]["guilders"] == 0 and state["players"][2]["guilders"] == 2


def test_vikings_have_no_effect_with_the_watchtower():
    state = game_at_choice(3)
    put(state, 1, "boat", [])
    put(state, None, "watchtower", ["D3"], "S")
    draw(state, "vikings")
    assert state["boats"][0] == 1 and state["pending"] is None


def test_black_death_strikes_or_is_prevented_and_hospice():
    state = game_at_choice(3)
    put(state, 1, "house", ["D3"], "S")
    put(state, 1, "pasture", ["A1"])
    state["players"][1]["points"] = 4
    state["burghers"] = 25
    for p in state["players"]:
        p["guilders"] = 0
    draw(state, "blackdeath")
    assert state["players"][1]["points"] == 3 and state["burghers"] == 12
    # prevented: 5 guilders and 3 food
    state = game_at_choice(3)
    put(state, 1, "house", ["D3"], "S")
    state["burghers"] = 25
    give(state, 1, guilders=4, fish=2)
    give(state, 2, guilders=1, grain=1)
    draw(state, "blackdeath")
    send(state, 1, "pledge 4 with 2 fish")
    send(state, 2, "pledge 1 with grain")
    send(state, 0, "pledge 0")
    assert state["burghers"] == 25 and state["players"][1]["guilders"] == 0
    # the Hospice
    state = game_at_choice(3)
    put(state, None, "hospice", ["D3"], "S")
    state["burghers"] = 25
    draw(state, "blackdeath")
    assert state["burghers"] == 25
