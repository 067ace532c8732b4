"""One test (or a few) per rule of the rulebook."""

import hashlib

import pytest

from games.engine import IllegalMove, event_rng
from games.rules.blankenburg import GAME, rules
from games.rules.blankenburg.data import CITIZENS, PLANS, RESOURCES

from .helpers import (
    ScriptedRng,
    clear_hands,
    give_hand,
    new_game,
    plan_id,
    play,
    put,
    set_communal,
    set_resources,
    set_track,
    set_wheel,
    top_event,
    top_visitor,
)

# --- setup --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup(n):
    for seed in range(5):
        state = new_game([f"P{i}" for i in range(n)], seed=f"setup{seed}")
        GAME.check_invariants(state)
        chars = [p["char"] for p in state["players"]]
        assert len(set(chars)) == n and "city_planner" not in chars  # front board
        for p in state["players"]:
            assert len(p["hand"]) == 1 and PLANS[p["hand"][0]].starred
            extra = {"noble": 4, "banker": 3}.get(p["char"], 0)
            assert p["silver"] == 12 + extra
            assert p["gold"] == (1 if p["char"] == "noble" else 0)
            wood = 1 + (1 if p["char"] == "merchant" else 0)  # helper picks wood
            assert (p["res"]["wood"], p["res"]["stone"]) == (wood, 1)
        basic, grand = state["communal"]
        assert PLANS[grand].kind == "grand"
        assert PLANS[basic].starred == (n < 6)  # six players: every starred plan is dealt
        starred_on_track = sum(CITIZENS[c].starred for c in state["track"])
        assert len(state["track"]) == n and starred_on_track == min(n, 5)
        assert all(state["market"][r] == n - 1 for r in RESOURCES)
        assert 0 <= state["first"] < n


def test_six_players_random_sixth_citizen_may_add_gold():
    golds = set()
    for seed in range(40):
        state = new_game([f"P{i}" for i in range(6)], seed=f"six{seed}")
        sixth = CITIZENS[state["track"][5]]
        golds.add(sixth.gold)
        assert state["wheel"]["gold"] >= (1 if sixth.gold else 0)
    assert golds == {True, False}


def test_merchant_chooses_an_extra_resource():
    for seed in range(60):
        state = GAME.setup(["A", "B", "C", "D"], {"board": "front"}, event_rng(f"m{seed}", 0))
        if state["phase"] == "merchant":
            seat = state["cur"]
            assert state["players"][seat]["char"] == "merchant"
            play(state, seat, GAME.parse("extra glass", state, seat))
            assert state["players"][seat]["res"]["glass"] == 1
            assert state["phase"] == "select"
            return
    raise AssertionError("no merchant dealt in 60 seeds")


def test_city_planner_only_on_the_back_board():
    seen = set()
    for seed in range(40):
        state = new_game([f"P{i}" for i in range(6)], {"board": "back"}, seed=f"cp{seed}")
        seen.update(p["char"] for p in state["players"])
    assert "city_planner" in seen


# --- bidding ------------------------------------------------------------------------------


def bidding_game(n=4):
    state = new_game([f"P{i}" for i in range(n)])
    state["first"] = 0
    if state["phase"] == "select":
        state["cur"] = 0
    for p in state["players"]:
        p["silver"] = 12
    return state


def test_first_player_selects_one_fewer_resources_than_players():
    state = bidding_game(3)
    assert state["phase"] == "select" and GAME.to_act(state) == [state["first"]]
    moves = GAME.legal_moves(state, state["first"])
    assert all(len(m["resources"]) == 2 for m in moves) and len(moves) == 10
    with pytest.raises(IllegalMove):
        play(state, state["first"], {"type": "select", "resources": ["wood", "wood"]})


def test_dice_wood_and_stone_give_two_blank_gives_nothing():
    state = bidding_game(4)
    state["turn"] = 2
    set_wheel(state)
    rng = ScriptedRng(["wood", "stone", None, "marble"])
    GAME.apply(state, 0, {"type": "select", "resources": ["glass", "iron", "marble"]}, rng)
    w = state["wheel"]
    assert (w["wood"], w["stone"], w["glass"], w["iron"], w["marble"]) == (2, 2, 1, 1, 2)


def test_first_turn_reroll_when_too_few_types():
    state = bidding_game(4)
    set_wheel(state)
    # First roll adds no new type (only wood, stone, glass chosen): rerolled.
    rng = ScriptedRng(["wood", "wood", None, "stone", "iron", None, None, None])
    GAME.apply(state, 0, {"type": "select", "resources": ["wood", "stone", "glass"]}, rng)
    assert state["dice"] == ["iron", None, None, None]
    assert state["wheel"]["wood"] == 1 and state["wheel"]["iron"] == 1


def test_bids_are_simultaneous_and_sealed():
    state = bidding_game(3)
    state["phase"] = "bid"
    set_wheel(state, stone=3, wood=2, gold=1)
    assert GAME.to_act(state) == [0, 1, 2]
    play(state, 1, {"type": "bid", "silver": 5})
    assert GAME.to_act(state) == [0, 2]
    own, other = GAME.view(state, 1), GAME.view(state, 0)
    salt = state["salts"][1]
    expected = hashlib.sha256(f"{salt}:{state['turn']}:5".encode()).hexdigest()
    assert own["you"]["bid"] == 5 and own["you"]["receipt"] == expected
    assert other["you"]["bid"] is None
    for viewer in (None, 0, 2):
        text = GAME.render_text(GAME.view(state, viewer))
        for secret in GAME.secrets(state)[1]:
            assert secret not in text
        assert "5 silver" not in GAME.describe(
            state, state, 1, {"type": "bid", "silver": 5}, viewer
        )
    assert "Your sealed bid: 5 silver" in GAME.render_text(own)
    name = state["names"][1]
    assert GAME.describe(state, state, 1, {"type": "bid", "silver": 5}, 1) == f"{name} bid 5 silver"
    with pytest.raises(IllegalMove):
        play(state, 1, {"type": "bid", "silver": 4})
    with pytest.raises(IllegalMove):
        play(state, 0, {"type": "bid", "silver": 13})
    play(state, 0, {"type": "bid", "silver": 2})
    play(state, 2, {"type": "bid", "silver": 0})
    # After the reveal everyone sees every bid and salt and can check the receipt.
    rows = GAME.view(state, 0)["reveal"]["rows"]
    assert rows[1]["bid"] == 5 and rows[1]["salt"] == salt and rows[1]["receipt"] == expected
    assert 1 not in GAME.secrets(state) or all(salt not in s for s in GAME.secrets(state)[1])


def test_highest_bidder_takes_a_category_and_the_gold_at_most_three():
    state = bidding_game(3)
    state["phase"] = "bid"
    set_wheel(state, stone=5, wood=2, gold=1)
    for seat, bid in ((0, 1), (1, 4), (2, 0)):
        play(state, seat, {"type": "bid", "silver": bid})
    play(state, 1, {"type": "take", "resource": "stone"})
    p1 = state["players"][1]
    assert p1["res"]["stone"] == 1 + 3 and p1["gold"] == 1 and p1["silver"] == 8
    # Seat 0 had one category left (wood + the 2 leftover stone: two), so it chose.
    assert GAME.to_act(state) == [0]
    play(state, 0, {"type": "take", "resource": "wood"})
    assert state["players"][2]["silver"] == 15  # zero bid: three silver
    assert state["wheel"]["stone"] == 2 and state["wheel"]["gold"] == 0


def test_ties_go_to_the_first_player_then_clockwise():
    state = bidding_game(4)
    state["first"] = 2
    state["phase"] = "bid"
    set_wheel(state, stone=1, wood=1, glass=1, iron=1)
    for seat in range(4):
        play(state, seat, {"type": "bid", "silver": 2})
    assert state["picks"] == [2, 3, 0, 1]


def test_leftovers_stay_on_the_wheel_at_most_three():
    state = bidding_game(2)
    state["phase"] = "bid"
    set_wheel(state, stone=6, wood=5)
    play(state, 0, {"type": "bid", "silver": 0})
    play(state, 1, {"type": "bid", "silver": 0})
    assert state["wheel"]["stone"] == 3 and state["wheel"]["wood"] == 3


def test_bidder_facing_an_empty_wheel_pays_nothing():
    state = bidding_game(3)
    state["phase"] = "bid"
    set_wheel(state, stone=2)
    for seat, bid in ((0, 3), (1, 2), (2, 0)):
        play(state, seat, {"type": "bid", "silver": bid})
    assert state["players"][0]["silver"] == 9 and state["players"][1]["silver"] == 12


def test_six_players_bidding():
    state = new_game([f"P{i}" for i in range(6)], seed="six-bid")
    assert state["phase"] == "bid" and GAME.to_act(state) == list(range(6))
    assert len(state["dice"]) == 5
    w = state["wheel"]
    # one of each resource plus five dice
    rolled = {r: 0 for r in RESOURCES}
    for face in state["dice"]:
        if face:
            rolled[face] += 2 if face in ("wood", "stone") else 1
    assert all(w[r] == 1 + rolled[r] for r in RESOURCES)
    silver = [p["silver"] for p in state["players"]]
    for seat in range(6):
        play(state, seat, {"type": "bid", "silver": 0})
    banker = [1 if p["char"] == "banker" else 0 for p in state["players"]]
    assert [p["silver"] for p in state["players"]] == [s + 4 + b for s, b in zip(silver, banker)]


# --- building -----------------------------------------------------------------------------


def build_game(n=4):
    state = new_game([f"P{i}" for i in range(n)])
    clear_hands(state)
    state["first"] = 0
    state["phase"], state["cur"] = "build", 0
    state["built"] = state["demolished"] = False
    return state


def test_gold_substitutes_for_any_resource():
    state = build_game()
    give_hand(state, 0, "Shop", "Tower")
    set_resources(state, 0, wood=1, stone=1, gold=1)
    play(state, 0, GAME.parse("build shop", state, 0))
    p = state["players"][0]
    assert p["gold"] == 0 and p["res"]["wood"] == 0 and p["res"]["stone"] == 0


def test_no_room_in_the_district():
    state = build_game()
    for name in ("Chapel", "Chapel", "Parish", "Shrine"):
        put(state, name, 1)
    give_hand(state, 0, "Cathedral")
    set_resources(state, 0, wood=1, stone=3, glass=2, marble=2)
    with pytest.raises(IllegalMove, match="no room"):
        play(state, 0, GAME.parse("build cathedral", state, 0))


def test_demolition_rules():
    state = build_game()
    castle_space = put(state, "Castle", 0)
    give_hand(state, 0, "Tower", "Town Hall")
    set_resources(state, 0, stone=5, wood=2, iron=1)
    state["players"][0]["prestige"] = 10
    play(state, 0, GAME.parse("demolish castle", state, 0))
    assert state["players"][0]["prestige"] == 9  # grand structure: one prestige
    assert state["players"][0]["res"]["stone"] == 6  # stone back, no wood in a castle
    with pytest.raises(IllegalMove, match="only one"):
        play(state, 0, {"type": "demolish", "space": castle_space})
    # The freed space only takes a structure of higher prestige this turn; the tower goes
    # to another civic space.
    play(state, 0, GAME.parse("build tower", state, 0))
    assert state["town"][castle_space] is None
    state["demolished"] = False
    with pytest.raises(IllegalMove, match="before building"):
        play(state, 0, GAME.parse("demolish tower", state, 0))


def test_freed_space_only_for_higher_prestige_this_turn():
    state = build_game()
    for name in ("Tower", "Guardhouse", "Library"):
        put(state, name, 1)
    mine = put(state, "Tower", 0)
    tower = state["town"][mine]["card"]
    give_hand(state, 0, "Castle")
    castle = state["players"][0]["hand"][0]
    play(state, 0, GAME.parse("demolish tower", state, 0))
    assert state["locks"] == {str(mine): 1}
    assert rules.build_spaces(state, 0, tower) == []  # prestige 1 is not more than 1
    assert rules.build_spaces(state, 0, castle) == [mine]
    state["locks"]["x"] = 0
    rules.end_turn(state)
    assert state["locks"] == {}  # the next turn the space is free for anything


def test_repair_costs():
    state = build_game()
    a = put(state, "Cottage", 0, damaged=True)
    b = put(state, "Estate", 0, damaged=True)
    state["players"][0]["silver"] = 6
    play(state, 0, {"type": "repair", "space": a})
    assert state["players"][0]["silver"] == 4
    play(state, 0, {"type": "repair", "space": b})
    assert state["players"][0]["silver"] == 0


def test_building_passes_clockwise_and_skips_who_cannot_act():
    state = build_game(3)
    state["first"] = 1
    give_hand(state, 0, "Shop")
    set_resources(state, 0, wood=2, stone=1)
    for seat in (1, 2):
        set_resources(state, seat)
    rules.start_building(state)
    assert GAME.to_act(state) == [0]


# --- income -------------------------------------------------------------------------------


def income_game(n=3):
    state = new_game([f"P{i}" for i in range(n)])
    state["first"] = 0
    for p in state["players"]:
        p["silver"] = 5
        p["char"] = "mason"
    top_event(state, "Feast Day")
    top_visitor(state, "Tax Collector")
    return state


def test_capacity_and_owner_ties_by_turn_order():
    state = income_game()
    state["first"] = 1
    put(state, "Tower", 0)
    put(state, "Tower", 2)
    set_track(state, "Guard", "Mason", "Blacksmith")  # all want the tower first
    top_visitor(state, "Stonecutter")  # wants the tower too
    rules.start_income(state)
    for seat in list(GAME.to_act(state)):
        play(state, seat, {"type": "decline"})
    owners = [owner for _, _, owner, _ in state["lodging"]]
    # Seat 2 is nearer clockwise to the first player (1) than seat 0: its tower fills first.
    assert owners == [2, 2, 0, 0]


def test_players_inn_then_board_inn():
    state = income_game()
    put(state, "Inn", 2)
    set_track(state, "Guard", "Mason", "Blacksmith")
    rules.start_income(state)
    where = [(w, o) for _, w, o, _ in state["lodging"]]
    assert [o for _, o in where] == [2, 2, -1, -1]  # the inn takes two, then the board's


def test_bankruptcy():
    state = income_game()
    put(state, "Cottage", 0)
    state["players"][0]["silver"] = 1
    state["players"][0]["prestige"] = 3
    top_event(state, "Royal Tax")
    top_visitor(state, "Bard")
    rules.start_income(state)
    assert state["players"][0]["prestige"] == 2
    assert state["players"][1]["silver"] >= 0


def test_visitor_stays_when_the_event_keeps_new_ones_out():
    state = income_game()
    state["visitor"] = next(v.id for v in rules.VISITORS if v.name == "Bard")
    state["visitor_deck"].remove(state["visitor"])
    top_event(state, "Washed-out Roads")
    rules.start_income(state)
    assert rules.VISITORS[state["visitor"]].name == "Bard"
    assert state["lodging"][0][0] == "Bard"


def test_damaged_structures_take_no_guests():
    state = income_game()
    put(state, "Tower", 0, damaged=True)
    set_track(state, "Guard")
    rules.start_income(state)
    assert state["lodging"][-1][1] == -1


# --- marketplace --------------------------------------------------------------------------


def market_game(n=3):
    state = new_game([f"P{i}" for i in range(n)])
    state["first"] = 0
    clear_hands(state)
    for p in state["players"]:
        p["silver"] = 10
        p["char"] = "mason"
    rules.start_market(state)
    return state


def test_basic_plan_draw_two_keep_one():
    state = market_game()
    top = state["basic_deck"][:2]
    play(state, 0, GAME.parse("buy basic plan, keep 1", state, 0))
    assert state["phase"] == "keep" and state["drawn"] == top
    play(state, 0, {"type": "keep", "card": top[1]})
    assert state["players"][0]["hand"] == [top[1]] and state["basic_deck"][-1] == top[0]
    assert state["players"][0]["silver"] == 9 and GAME.to_act(state) == [1]


def test_grand_plan_and_discards_buy_extra_draws():
    state = market_game()
    give_hand(state, 0, "Tower", "Chapel", "Shop")
    with pytest.raises(IllegalMove, match="at most 3"):
        play(state, 0, {"type": "buy_plan", "deck": "grand", "discard": []})
    top = state["grand_deck"][:3]
    play(state, 0, GAME.parse("buy grand plan discarding tower, chapel", state, 0))
    assert state["drawn"] == top and state["players"][0]["silver"] == 8
    play(state, 0, {"type": "keep", "card": top[2]})
    assert len(state["players"][0]["hand"]) == 2


def test_resource_rounds_two_then_three_silver_and_selling():
    state = market_game(3)
    for seat in range(3):
        play(state, seat, {"type": "pass"})
    assert state["phase"] == "resources" and state["round"] == 1
    play(state, 0, GAME.parse("buy stone", state, 0))
    assert state["players"][0]["silver"] == 8
    set_resources(state, 1, wood=3)
    state["market"]["wood"] = 1
    with pytest.raises(IllegalMove, match="at most 2"):
        play(state, 1, GAME.parse("sell 3 wood", state, 1))
    play(state, 1, GAME.parse("sell 2 wood", state, 1))
    assert state["players"][1]["silver"] == 12 and state["market"]["wood"] == 3
    play(state, 1, {"type": "pass"})
    play(state, 2, {"type": "pass"})
    assert state["round"] == 2
    play(state, 0, GAME.parse("buy glass", state, 0))
    assert state["players"][0]["silver"] == 5


# --- end of turn and game -----------------------------------------------------------------


def test_restock_communal_limits_citizen_key():
    state = new_game([f"P{i}" for i in range(3)])
    state["first"] = 0
    state["market"].update({"wood": 0, "stone": 1, "glass": 0, "marble": 2, "iron": 0})
    state["communal"][0] = None
    state["players"][0]["silver"] = 0
    set_resources(state, 1, wood=7, stone=5, glass=4, gold=3)
    set_wheel(state)
    gold_citizen = next(c.id for c in CITIZENS if c.name == "Mayor")
    state["citizen_deck"].remove(gold_citizen)
    state["citizen_deck"].insert(0, gold_citizen)
    rules.end_turn(state)
    assert state["market"] == {"wood": 2, "stone": 2, "glass": 1, "marble": 2, "iron": 1}
    assert state["communal"][0] is not None
    assert state["players"][1]["res"]["wood"] == 5 and state["players"][1]["res"]["glass"] == 3
    assert state["players"][1]["gold"] == 2
    assert state["wheel"]["wood"] == 2 and state["wheel"]["glass"] == 1
    assert state["wheel"]["gold"] == 2  # one over the limit, one from the Mayor
    assert state["track"][-1] == gold_citizen and state["first"] == 1 and state["turn"] == 2


def test_two_player_restock_to_one():
    state = new_game(["A", "B"])
    state["market"].update({"wood": 0, "stone": 0})
    rules.end_turn(state)
    assert state["market"]["wood"] == 1 and state["market"]["stone"] == 1


def test_game_ends_when_the_track_is_full():
    state = new_game(["A", "B"])
    state["track"] = state["track"] + state["citizen_deck"][:10]
    state["citizen_deck"] = state["citizen_deck"][10:]
    rules.end_turn(state)
    assert state["phase"] == "over" and GAME.result(state) is not None


def test_game_ends_when_the_town_is_full_with_last_repairs():
    state = new_game(["A", "B"])
    clear_hands(state)
    names = [p.name for p in PLANS]
    for i in range(len(state["town"])):
        card = next(
            c
            for c in range(len(PLANS))
            if rules.PLANS[c].district == rules.SPACES["front"][i][0]
            and not any(s and s["card"] == c for s in state["town"])
            and c not in state["players"][0]["hand"]
        )
        plan_name = names[card]
        assert plan_name
        from .helpers import take_card

        take_card(state, card)
        rules.place_structure(state, i % 2, card, i)
    state["town"][0]["damaged"] = True
    state["town"][0]["dmg_turn"] = state["turn"]
    state["town"][2]["damaged"] = True
    state["town"][2]["dmg_turn"] = state["turn"] - 1
    rules.end_turn(state)
    assert state["phase"] == "final_repair" and GAME.to_act(state) == [0]
    assert GAME.legal_moves(state, 0) == [{"type": "repair", "space": 0}, {"type": "done"}]
    play(state, 0, GAME.parse("repair cottage", state, 0))
    assert state["phase"] == "over"


def test_ties_structures_then_silver():
    state = new_game(["A", "B", "C"])
    clear_hands(state)
    for p in state["players"]:
        p["prestige"], p["silver"], p["char"] = 10, 5, "mason"
        p["res"] = {r: 0 for r in RESOURCES}
    state["supply"] = {r: 0 for r in state["supply"]}  # invariants are not checked here
    put(state, "Cottage", 1)
    put(state, "Cottage", 2)
    put(state, "Shop", 1)
    put(state, "Shop", 2)
    state["players"][2]["silver"] = 9
    rules.score(state)
    assert state["result"]["ranking"] == [2, 1, 0]


def test_damaged_structures_do_not_count_for_majority_and_cost_a_prestige():
    state = new_game(["A", "B"])
    for p in state["players"]:
        p["char"], p["silver"], p["prestige"] = "mason", 0, 5
        p["res"] = {r: 0 for r in RESOURCES}
    put(state, "Shop", 0, damaged=True)
    put(state, "Inn", 0, damaged=True)
    put(state, "Tavern", 1)
    rules.score(state)
    assert state["result"]["scores"] == [3, 8]


# --- variants -----------------------------------------------------------------------------


def test_master_builder():
    state = new_game(["A", "B"], {"master_builder": True})
    clear_hands(state)
    put(state, "Cottage", 0)
    put(state, "Cottage", 1)
    set_track(state, "Baker", "Chandler", "Cooper")  # a regular citizen: a basic plan
    card = state["basic_deck"][0]
    rules.master_builder_builds(state)
    assert any(s and s["owner"] == -1 and s["card"] == card for s in state["town"])
    # Starred latest citizen: nothing; not fewer structures than both: nothing.
    set_track(state, "Cooper", "Baker")
    rules.master_builder_builds(state)
    assert len(rules.owned_spaces(state, -1)) == 1
    # Damaged: removed from town.
    state["event"] = None
    top_event(state, "Earthquake")
    rules.start_income(state)
    assert rules.owned_spaces(state, -1) == []


def test_master_builder_loses_ties_and_pays_nobody():
    state = new_game(["A", "B"], {"master_builder": True})
    state["first"] = 0
    put(state, "Tower", -1)
    put(state, "Tower", 1)
    set_track(state, "Guard", "Mason", "Blacksmith")
    top_event(state, "Feast Day")
    top_visitor(state, "Bard")
    rules.start_income(state)
    assert [o for _, _, o, _ in state["lodging"][1:]] == [1, 1, -1]


def test_master_builder_grand_plan_demolishes_its_lowest():
    state = new_game(["A", "B"], {"master_builder": True})
    clear_hands(state)
    homes = rules.REGULAR["front"]["residential"]
    estate_space = put(state, "Estate", -1, space=homes[0])
    estate = state["town"][estate_space]["card"]
    for name, space in zip(("Cottage", "Cottage", "Townhouse", "Tudor"), homes[1:]):
        put(state, name, 0, space=space)
    rules.place_structure(state, 1, plan_id(state, "Shop"), homes[5])  # fills the district
    put(state, "Tower", 1)
    put(state, "Chapel", 1)
    set_track(state, "Baker", "Mayor")  # the Mayor has the gold coin: a grand plan
    palace = plan_id(state, "Palace")
    state["grand_deck"].insert(0, palace)
    rules.master_builder_builds(state)
    assert state["town"][estate_space]["card"] == palace
    assert state["town"][estate_space]["owner"] == -1
    assert state["grand_deck"][-1] == estate


def test_alternate_board_dual_spaces():
    state = new_game(["A", "B", "C", "D"], {"board": "back"})
    clear_hands(state)
    for p in state["players"]:
        p["char"] = "mason"
    for name in ("Tower", "Tower", "Guardhouse", "Library"):
        put(state, name, 1)
    give_hand(state, 0, "Town Hall", "Forge")
    town_hall, forge = state["players"][0]["hand"]
    duals = rules.DUALS["back"]
    assert rules.build_spaces(state, 0, town_hall) == [duals[0], duals[1]]
    assert len(rules.build_spaces(state, 0, forge)) == 1  # regular commercial space
    state["players"][0]["char"] = "city_planner"
    assert duals[2] in rules.build_spaces(state, 0, forge)
    rules.place_structure(state, 0, forge, duals[3])  # religious/residential: third district
    assert rules.space_district(state, duals[3]) == "religious"


def test_parse_round_trip_and_errors():
    state = build_game()
    give_hand(state, 0, "Shop")
    set_communal(state, basic="Cottage")
    set_resources(state, 0, wood=2, stone=3)
    for move in GAME.legal_moves(state, 0):
        assert GAME.parse(GAME.format_move(state, 0, move), state, 0) == move
    assert GAME.parse("  BUILD   Communal Cottage ", state, 0)["type"] == "build"
    with pytest.raises(IllegalMove, match="no plan called"):
        GAME.parse("build palaces", state, 0)
    with pytest.raises(IllegalMove, match="Expected"):
        GAME.parse("fly away", state, 0)
    state["phase"] = "bid"
    assert GAME.parse("I bid 4", state, 0) == {"type": "bid", "silver": 4}
    assert GAME.parse("three", state, 0) == {"type": "bid", "silver": 3}
    with pytest.raises(IllegalMove, match="bid N"):
        GAME.parse("lots", state, 0)


def test_keep_alone_while_buying_plans_is_refused_with_what_to_send():
    state = build_game()
    state["phase"] = "plans"
    with pytest.raises(IllegalMove, match="buy basic plan"):
        GAME.parse("keep 1", state, 0)  # once raised IndexError: nothing left after "keep 1"
