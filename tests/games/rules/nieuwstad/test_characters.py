"""Every character's action and privilege, with the corner cases the rulebook names."""

import pytest

from games.engine import IllegalMove
from games.rules.nieuwstad import GAME
from games.rules.nieuwstad import geometry as B
from games.rules.nieuwstad import rules as R
from games.rules.nieuwstad.data import BUILDINGS, CARDS

from .helpers import clear, game_at_choice, give, hand, put, send


def run_to(state, seat):
    """Let the others pass until `seat` acts."""
    while GAME.to_act(state) != [seat]:
        other = GAME.to_act(state)[0]
        send(state, other, "pass")


# --- Woodcutter --------------------------------------------------------------------------


def test_woodcutter_privilege_is_one_extra_wood():
    state = game_at_choice(3)
    state["forest"]["A1"] = state["forest"]["B1"] = "w3"
    state["forest"]["C1"] = state["forest"]["D1"] = "w4"
    send(state, 0, "woodcutter")
    send(state, 0, "take forest A1")
    send(state, 1, "take forest C1")
    assert state["players"][0]["wood"] == 4 and state["players"][1]["wood"] == 4


def test_woodcutter_may_not_take_deep_city_forest():
    state = game_at_choice(3)
    send(state, 0, "woodcutter")
    with pytest.raises(IllegalMove, match="cannot be reached"):
        GAME.apply(state, 0, {"type": "forest", "cell": "B2"}, None)


def test_game_animal_tile():
    state = game_at_choice(3)
    state["forest"]["A1"] = state["forest"]["B1"] = "w2g"
    send(state, 0, "woodcutter")
    send(state, 0, "take forest B1")  # either space of the tile names it
    assert state["players"][0]["wood"] == 3 and state["players"][0]["game"] == 1


# --- Master Builder ----------------------------------------------------------------------


def test_builder_discount_planks_points_and_burghers():
    state = game_at_choice(3)
    clear(state, "A1")
    give(state, 0, guilders=2, wood=0, plank=1)
    send(state, 0, "master builder")
    assert R.discount_options(state, 0, BUILDINGS["house"]) == ["g", "w"]
    options = {m["discount"] for m in GAME.legal_moves(state, 0) if m.get("building") == "house"}
    assert options == {"w"}  # 1 guilder off would leave 3 wood to pay: too much
    send(state, 0, "build house at A1 less 1 wood")  # 3 wood - 1 = 2: one plank
    p = state["players"][0]
    assert (p["guilders"], p["plank"], p["points"], p["light"]) == (0, 0, 2, 6)
    assert state["burghers"] == 10


def test_others_build_without_the_discount():
    state = game_at_choice(3)
    clear(state, "A1", "C1")
    give(state, 1, guilders=2, wood=2)
    send(state, 0, "master builder")
    send(state, 0, "pass")
    assert not [m for m in GAME.legal_moves(state, 1) if m.get("building") == "house"]
    with pytest.raises(IllegalMove, match="costs 2 guilders and 3 wood"):
        GAME.apply(state, 1, GAME.parse("build house at C1", state, 1), None)


def test_burghers_never_below_five():
    state = game_at_choice(3)
    clear(state, "A1")
    give(state, 0, guilders=5, wood=5)
    send(state, 0, "master builder")
    send(state, 0, "build grain field at A1 less 1 guilder")
    assert state["burghers"] == 5


def test_no_light_seals_no_building():
    state = game_at_choice(3)
    clear(state, "A1")
    give(state, 0, guilders=9, wood=9, light=0)
    send(state, 0, "master builder")
    kinds = {m["type"] for m in GAME.legal_moves(state, 0)}
    assert kinds == {"propose", "pass"}  # only a community building, which needs no seal


def test_city_building_must_touch_market_or_building_and_match_roads():
    state = game_at_choice(3)
    clear(state, "B2", "C3", "D2")
    give(state, 0, guilders=9, wood=9)
    send(state, 0, "master builder")
    with pytest.raises(IllegalMove, match="border the Market or another building"):
        GAME.apply(
            state, 0, GAME.parse("build house at B2 facing north less 1 wood", state, 0), None
        )
    with pytest.raises(IllegalMove, match="Market has stone roads"):
        GAME.apply(
            state, 0, GAME.parse("build house at D3 facing north less 1 wood", state, 0), None
        )
    send(state, 0, "build house at D3 facing south less 1 wood")
    # A sand edge (the House's west side) next to a stone edge is refused.
    give(state, 1, guilders=9, wood=9)
    with pytest.raises(IllegalMove, match="Roads must match"):
        GAME.apply(state, 1, GAME.parse("build house at C3 facing east", state, 1), None)
    send(state, 1, "build house at C3 facing north")


def test_outer_area_ignores_roads_and_green_stays_outside():
    state = game_at_choice(3)
    clear(state, "A1", "C3")
    give(state, 0, guilders=9, wood=9)
    send(state, 0, "master builder")
    with pytest.raises(IllegalMove, match="green"):
        GAME.apply(state, 0, GAME.parse("build pasture at C4 less 1 wood", state, 0), None)
    send(state, 0, "build pasture at A1 less 1 wood")


def test_two_space_building_over_two_districts():
    state = game_at_choice(3)
    clear(state, "D2", "E2")
    give(state, 0, guilders=9, wood=9)
    send(state, 0, "master builder")
    send(state, 0, "build manor house at D3+E3 facing south less 1 wood")
    b = state["buildings"][state["cells"]["D3"]]
    assert B.district_of(state, b["cells"]) == {"NW", "NE"}
    assert state["cells"]["E3"] == state["cells"]["D3"]


def test_city_gate_on_the_edge_of_the_city():
    state = game_at_choice(3)
    clear(state, "B3", "C3")
    put(state, 2, "office", ["C4"], "E")
    give(state, 0, guilders=9, wood=9)
    send(state, 0, "master builder")
    gates = [m for m in GAME.legal_moves(state, 0) if m.get("building") == "citygate"]
    assert gates and all(m["facing"] == "W" for m in gates)
    assert all("B3" in m["cells"] or "B4" in m["cells"] for m in gates)


def test_red_starting_buildings_can_be_bought_later_and_boats_only_on_printed_spots():
    state = game_at_choice(3)
    give(state, 0, guilders=9, wood=9)
    send(state, 0, "master builder")
    send(state, 0, "build boat less 1 guilder")
    assert state["boats"][0] == 0 and state["players"][0]["points"] == 1


def test_blue_buildings_are_proposed_and_belong_to_the_city():
    state = game_at_choice(3)
    clear(state, "D3")
    give(state, 0, guilders=4, wood=4)
    give(state, 1, guilders=4, wood=4)
    send(state, 0, "master builder")
    with pytest.raises(IllegalMove, match="community building"):
        GAME.apply(
            state, 0, GAME.parse("build hospice at D3 facing south less 1 wood", state, 0), None
        )
    send(state, 0, "propose hospice at D3 facing south with Emily")
    assert GAME.to_act(state) == [1]
    send(state, 1, "accept")
    hospice = state["buildings"][state["cells"]["D3"]]
    assert hospice["owner"] is None
    p0, p1 = state["players"][0], state["players"][1]
    # 4 g 4 wood less the privilege's guilder: 3 g split 2/1, 4 wood 2/2, 4 points 2/2.
    assert (p0["guilders"], p0["wood"], p0["points"], p0["light"]) == (2, 2, 2, 7)
    assert (p1["guilders"], p1["wood"], p1["points"]) == (3, 2, 2)
    assert GAME.to_act(state) == [1]  # it cost Cor his build; Emily may still build


def test_declined_proposal_leaves_the_turn_and_allows_no_second():
    state = game_at_choice(3)
    clear(state, "D3")
    give(state, 0, guilders=4, wood=4)
    give(state, 2, guilders=4, wood=4)
    send(state, 0, "master builder")
    send(state, 0, "propose well at D3 facing south with Bram")
    send(state, 2, "decline")
    assert GAME.to_act(state) == [0]
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "propose"]


def test_blue_alone_variant_for_two_players():
    state = game_at_choice(2, blue_alone=True)
    clear(state, "D1")
    give(state, 0, guilders=9, wood=9)
    send(state, 0, "master builder")
    send(state, 0, "build well at D1 facing south less 1 guilder")
    assert state["buildings"][state["cells"]["D1"]]["owner"] is None
    assert state["players"][0]["points"] == 2 and state["players"][0]["light"] == 8


def test_everything_together_variant():
    state = game_at_choice(3, joint=True)
    clear(state, "A1")
    give(state, 0, guilders=2, wood=2)
    give(state, 1, guilders=2, wood=2)
    send(state, 0, "master builder")
    send(state, 0, "propose house at A1 with Emily")
    send(state, 1, "accept")
    house = state["buildings"][state["cells"]["A1"]]
    assert house["owner"] == 0 and state["players"][0]["light"] == 6
    assert state["players"][0]["points"] + state["players"][1]["points"] == 2


def test_stall_appears_with_its_owner_dark_seal():
    state = game_at_choice(3)
    clear(state, "D3")
    give(state, 0, guilders=9, wood=9)
    send(state, 0, "master builder")
    send(state, 0, "build baker at D3 facing south less 1 wood")
    assert state["stalls"] == {"baker": 0} and state["players"][0]["dark"] == 3


# --- Farmer --------------------------------------------------------------------------------


def test_farmer_sows_then_harvests_and_boats_fish():
    state = game_at_choice(3)
    put(state, 1, "grainfield", ["A1"])
    put(state, 1, "pasture", ["B1"])
    put(state, 1, "boat", [])
    send(state, 0, "farmer")  # Cor has nothing: skipped
    field = state["buildings"][state["cells"]["A1"]]
    assert field["crop"] == 1 and state["players"][1]["fish"] == 1
    R.produce(state, 1, [])
    assert state["players"][1]["grain"] == 1 and state["players"][1]["livestock"] == 1
    assert field["crop"] == 0  # harvested; sown again in the next Farmer phase
    R.produce(state, 1, [])
    assert field["crop"] == 1 and state["players"][1]["grain"] == 1


def test_farmer_extra_only_of_what_he_produces_and_onto_the_fields():
    state = game_at_choice(3)
    put(state, 0, "grainfield", ["A1"])
    send(state, 0, "farmer")
    assert GAME.legal_moves(state, 0) == [{"type": "farm", "extra": ["grain"]}]
    send(state, 0, "farm extra grain")
    field = state["buildings"][state["cells"]["A1"]]
    assert field["crop"] == 2 and state["players"][0]["grain"] == 0


def test_farmer_extra_goes_to_stock_when_he_harvested():
    state = game_at_choice(3)
    put(state, 0, "grainfield", ["A1"])
    state["buildings"][state["cells"]["A1"]]["crop"] = 1
    send(state, 0, "farmer")
    send(state, 0, "farm extra grain")
    assert state["players"][0]["grain"] == 2


# --- Bailiff -------------------------------------------------------------------------------


def test_bailiff_prices_privilege_and_hand():
    state = game_at_choice(3)
    give(state, 0, guilders=2)
    give(state, 1, guilders=3)
    top = [c for c in state["deck"] if CARDS[c].kind == "wish"][:3]
    for c in top:
        state["deck"].remove(c)
    state["deck"] += list(reversed(top))
    send(state, 0, "bailiff")
    assert state["players"][0]["guilders"] == 3
    send(state, 0, "buy 2 cards")
    assert state["players"][0]["guilders"] == 0 and len(state["players"][0]["hand"]) == 2
    send(state, 1, "buy 1 card")
    assert state["players"][1]["guilders"] == 2


def test_bailiff_plays_at_most_two_cards():
    state = game_at_choice(3)
    hand(state, 0, "gatherer", "rottenfish", "knowledge")
    give(state, 0, guilders=0)
    for p in state["players"]:
        p["guilders"] = 0
    send(state, 0, "bailiff")  # privilege guilder: buys nothing
    send(state, 0, "buy 0 cards")
    send(state, 0, "play gatherer")
    send(state, 0, "play knowledge is power")
    assert state["players"][0]["wood"] == 2 and state["players"][0]["knowledge"]
    assert GAME.to_act(state) != [0]


# --- Merchant -------------------------------------------------------------------------------


def merchant_ready(players=3):
    state = game_at_choice(players)
    put(state, 1, "baker", ["D3"], "S")
    put(state, 2, "timbertrade", ["A1"])
    put(state, 2, "sawmill", ["C1"])
    return state


def test_market_sale_and_privilege():
    state = merchant_ready()
    give(state, 0, guilders=0, grain=2, game=1)
    send(state, 0, "merchant")
    assert state["players"][0]["guilders"] == 1
    send(state, 0, "sell 2 grain at market")
    send(state, 0, "sell 1 game at market")
    assert state["players"][0]["guilders"] == 4


def test_other_players_stall_costs_one_guilder_once():
    state = merchant_ready()
    state["burghers"] = 20
    give(state, 0, guilders=0, grain=3)
    send(state, 0, "merchant")  # +1 privilege
    send(state, 0, "sell 2 bread at baker")  # converts grain; pays Emily 1 first
    p = state["players"][0]
    assert (p["guilders"], p["points"], p["grain"]) == (2, 4, 1)
    assert state["players"][1]["guilders"] == 3
    send(state, 0, "sell 1 bread at baker")
    assert state["players"][0]["guilders"] == 3  # no second fee
    assert state["slots"]["baker"] == 3


def test_sale_slots_depend_on_burghers_and_are_shared_then_cleared():
    state = merchant_ready()
    state["burghers"] = 10  # the Baker has one spot at 10 Burghers
    give(state, 0, grain=2, guilders=2)
    give(state, 2, grain=2, guilders=2)
    send(state, 0, "merchant")
    with pytest.raises(IllegalMove, match="demand for 1 more"):
        GAME.apply(state, 0, GAME.parse("sell 2 bread at baker", state, 0), None)
    send(state, 0, "sell 1 bread at baker")
    send(state, 0, "done")
    assert not [m for m in GAME.legal_moves(state, 1) if m.get("at") == "baker"]
    while state["phase"] == "act":
        send(state, GAME.to_act(state)[0], "done")
    assert state["slots"] == {}


def test_timber_trade_and_sawmill():
    state = merchant_ready()
    give(state, 2, wood=5, guilders=0)
    for s in (0, 1):
        give(state, s, guilders=0)
    state["picks"] = [2, 0, 1]
    state["pick"] = 0
    send(state, 2, "merchant")
    send(state, 2, "use sawmill")
    assert state["players"][2]["plank"] == 2 and state["players"][2]["wood"] == 3
    assert not [m for m in GAME.legal_moves(state, 2) if m["type"] == "sawmill"]
    send(state, 2, "sell 2 wood at timber trade")
    assert state["players"][2]["guilders"] == 3
    with pytest.raises(IllegalMove, match="cannot also buy"):
        GAME.apply(state, 2, GAME.parse("buy 1 wood at timber trade", state, 2), None)


def test_inn_pasties_and_butcher():
    state = merchant_ready()
    put(state, 1, "inn", ["F3", "G3"], "S")
    put(state, 1, "butcher", ["C3"], "N")
    clear(state, "F2")
    state["burghers"] = 30
    give(state, 0, guilders=3, bread=1, meat=1, livestock=2)
    send(state, 0, "merchant")
    send(state, 0, "sell meat pasty at inn")
    p = state["players"][0]
    assert (p["guilders"], p["points"]) == (4 - 1 + 6, 5)
    send(state, 0, "sell 2 meat at butcher")
    assert p["points"] == 9 and p["livestock"] == 0


# --- Rent Master and Count ---------------------------------------------------------------


def test_rent_master():
    state = game_at_choice(3)
    put(state, 0, "office", ["D3"], "S")
    put(state, 0, "house", ["A1"])
    put(state, 1, "manor", ["C1", "D1"])
    send(state, 0, "rent master")
    assert state["players"][0]["points"] == 2 and state["players"][1]["points"] == 2
    assert GAME.to_act(state) == [1] and state["phase"] == "choose"


def test_count_repeats_without_privilege():
    state = game_at_choice(3)
    put(state, None, "townhall", ["D3", "E3"], "S")
    state["forest"]["A1"] = state["forest"]["B1"] = "w3"
    state["forest"]["C1"] = state["forest"]["D1"] = "w3"
    state["forest"]["E1"] = state["forest"]["F1"] = "w3"
    state["forest"]["G1"] = state["forest"]["H1"] = "w3"
    send(state, 0, "woodcutter")
    for seat, cell in ((0, "A1"), (1, "C1"), (2, "E1")):
        send(state, seat, f"take forest {cell}")
    assert state["players"][0]["wood"] == 4
    send(state, 1, "count repeating woodcutter")
    assert state["act"]["privilege"] is False
    send(state, 1, "take forest G1")
    assert state["players"][1]["wood"] == 6  # 3 + 3, no extra wood


def test_count_cannot_be_first():
    state = game_at_choice(3)
    put(state, None, "townhall", ["D3", "E3"], "S")
    assert "count" not in R.available_characters(state)
