"""The rulings of rules version 2, each from the rulebook's words (rules/nieuwstad.txt), and
version 1 kept as it was for the matches created with it."""

from games.engine import event_rng
from games.rules.nieuwstad import GAME, GAME_V1
from games.rules.nieuwstad import geometry as B
from games.rules.nieuwstad import rules as R
from games.rules.nieuwstad.data import CARDS

from .helpers import NAMES, deck_top, game_at_choice, give, hand, put, send, skip_opening


def v1_game_at_choice(players: int = 3) -> dict:
    options = GAME_V1.validate_options(players, {})
    return skip_opening(GAME_V1.setup(NAMES[:players], options, event_rng("v1", 0)))


def end_the_round(state: dict) -> dict:
    state["pick"] = len(state["picks"])
    R.advance(state)
    return state


# --- End of a Round: the end check before income ---------------------------------------------


def test_a_neighbourhood_party_does_not_end_the_game_on_income():
    """End of a Round: "If someone has 30 or more points, the game ends. If this is not the
    case, play continues and a new round is prepared." Neighbourhood Party: "This card is
    also counted in the count at the end of a round. At that moment every 3 guilders count
    as 1 point." Cor has 28 points and 5 guilders (1 point) before income; his Manor house's
    2 guilders would make it 7 (2 points, 30) - but income comes after the check."""
    state = game_at_choice(3)
    put(state, 0, "manor", ["C1", "D1"])
    state["players"][0]["points"] = 28
    give(state, 0, guilders=5)
    hand(state, 0, "neighbourhood")
    for c in ("incometax", "incometax"):
        state["deck"].remove(c)
        state["discard"].append(c)
    end_the_round(state)
    assert state["phase"] == "choose" and state["round"] == 2
    assert state["players"][0]["guilders"] == 7
    assert R.total_points(state, 0) == 30  # the next round's check will end it


def test_the_last_round_opens_no_income_tax_window():
    """Preparing a New Round holds the income; End of a Round ends the game before it, so
    nobody is asked about Income Tax ("play this card in the income phase at the change of
    starting player") once someone has 30."""
    state = game_at_choice(3)
    hand(state, 1, "incometax")
    state["players"][2]["points"] = 30
    end_the_round(state)
    assert state["phase"] == "over" and GAME.to_act(state) == []


def test_version_1_still_pays_income_before_the_check():
    state = v1_game_at_choice(3)
    put(state, 0, "manor", ["C1", "D1"])
    state["players"][0]["points"] = 28
    give(state, 0, guilders=5)
    hand(state, 0, "neighbourhood")
    for c in ("incometax", "incometax"):
        state["deck"].remove(c)
        state["discard"].append(c)
    end_the_round(state)
    assert state["phase"] == "over" and GAME_V1.result(state).scores[0] == 30


# --- Farmer: sow the empty fields, harvest what was placed in an earlier turn ----------------


def test_farmer_in_the_rulebook_order():
    """Farmer: "He places 1 grain on each of his empty Grain fields and 1 livestock on each of
    his empty Pastures. Grain and livestock that he placed on his Grain fields and Pastures in
    an earlier turn he removes from the game board and puts into his stock." A field yields
    every other Farmer phase."""
    state = game_at_choice(3)
    put(state, 1, "grainfield", ["A1"])
    put(state, 1, "pasture", ["B1"])
    field = state["buildings"][state["cells"]["A1"]]
    pasture = state["buildings"][state["cells"]["B1"]]
    crops = []
    for _ in range(4):
        R.produce(state, 1, [])
        crops.append((field["crop"], pasture["crop"], state["players"][1]["grain"]))
    assert crops == [(1, 1, 0), (0, 0, 1), (1, 1, 1), (0, 0, 2)]


def test_farmer_extra_goes_onto_a_field_only_sown():
    """Farmer: "If he has only placed grain or livestock on the fields, the extra token is
    also placed on the fields" - and the next harvest takes both."""
    state = game_at_choice(3)
    put(state, 0, "grainfield", ["A1"])
    send(state, 0, "farmer")
    send(state, 0, "farm extra grain")
    field = state["buildings"][state["cells"]["A1"]]
    assert field["crop"] == 2
    R.produce(state, 0, [])
    assert field["crop"] == 0 and state["players"][0]["grain"] == 2


def test_resow_is_an_option_labelled_as_a_balance_variant_and_off_by_default():
    option = next(o for o in GAME.options if o.key == "resow")
    assert option.default is False and "Balance variant" in option.label
    assert "not the rulebook" in option.label
    assert GAME.validate_options(3, {})["resow"] is False
    state = game_at_choice(3, resow=True)
    put(state, 1, "grainfield", ["A1"])
    field = state["buildings"][state["cells"]["A1"]]
    R.produce(state, 1, [])
    R.produce(state, 1, [])
    assert field["crop"] == 1 and state["players"][1]["grain"] == 1


def test_version_1_harvests_and_resows():
    state = v1_game_at_choice(3)
    put(state, 1, "grainfield", ["A1"])
    field = state["buildings"][state["cells"]["A1"]]
    R.produce(state, 1, [])
    R.produce(state, 1, [])
    assert field["crop"] == 1 and state["players"][1]["grain"] == 1
    assert "resow" not in {o.key for o in GAME_V1.options}


# --- "In the city": the inner area, as the Building rules use the words ----------------------


def draw(state: dict, card: str, seat: int = 0) -> None:
    deck_top(state, card, next(c for c in state["deck"] if CARDS[c].kind == "wish"))
    state["picks"] = R.clockwise(state, seat)
    give(state, seat, guilders=max(1, state["players"][seat]["guilders"]))
    send(state, seat, "bailiff")
    send(state, seat, "buy 1 card")


def test_birth_waves_count_houses_in_the_city_only():
    """Small Birth Wave: "For each House and Manor house in the city, 1 Burgher comes onto
    the Burghers track." Building rules: "A building placed in the city must border the
    Market ... A player who places a building in the outer area does not need to ...": the
    outer area is not the city."""
    state = game_at_choice(3)
    put(state, 0, "house", ["B2"])
    put(state, 1, "house", ["A1"])  # outer area
    put(state, 2, "manor", ["C1", "D1"])  # outer area
    draw(state, "smallbirth")
    assert state["burghers"] == 6
    state = v1_game_at_choice(3)
    put(state, 0, "house", ["B2"])
    put(state, 1, "house", ["A1"])
    state["deck"].remove("smallbirth")
    state["deck"].append("smallbirth")
    state["picks"] = R.clockwise(state, 0)
    give(state, 0, guilders=1)
    GAME_V1.apply(state, 0, {"type": "choose", "character": "bailiff"}, None)
    GAME_V1.apply(state, 0, {"type": "buy", "count": 1}, None)
    assert state["burghers"] == 7  # version 1 counted the outer House too


def test_black_death_takes_points_for_city_buildings_only():
    """Black Death: "Per building in the city, the owner loses 1 point." """
    state = game_at_choice(3)
    put(state, 1, "house", ["B2"])
    put(state, 1, "house", ["A1"])  # outer area
    put(state, 1, "pasture", ["A2"])  # outer area
    state["players"][1]["points"] = 5
    for p in state["players"]:
        p["guilders"] = 0
    draw(state, "blackdeath")
    assert state["players"][1]["points"] == 4


def test_vikings_count_city_buildings_by_the_water_only():
    """Vikings: "For each building in the city that borders the water, the number of
    Burghers drops by 3." The lake borders only city spaces on this board (docs section 1),
    so the count is the same under either reading; the code asks for the city anyway."""
    state = game_at_choice(3)
    put(state, 2, "house", ["G4"], "W")  # city, by the lake
    put(state, 2, "house", ["G3"], "W")  # city, by the lake
    put(state, 2, "house", ["A1"])  # outer area
    state["burghers"] = 20
    for p in state["players"]:
        p["guilders"] = 0
    draw(state, "vikings")
    assert state["burghers"] == 14
    geo = B.geometry("large")
    assert all(geo.area[c] == "city" for c in geo.by_water)


# --- Bailiff: a hand of end-game cards is asked like any other [issue 15] --------------------


def test_a_hand_of_end_game_cards_is_asked_like_a_playable_one():
    """Bailiff: "the player may play 0, 1 or 2 wish cards from his hand ... Then the other
    players follow, going clockwise." Everyone who holds cards (hand sizes are public) is
    asked, with the same two ways to finish, so nobody learns from the timing that a hand
    holds no playable wish card."""
    from games.engine import next_automatic, seats_to_ask

    for cards in (("painting",), ("gatherer",)):
        state = game_at_choice(3)
        hand(state, 1, *cards)
        for p in state["players"]:
            p["guilders"] = 0
        send(state, 0, "bailiff")  # the privilege guilder; Cor buys nothing
        send(state, 0, "buy 0 cards")
        assert GAME.to_act(state) == [1]
        assert next_automatic(GAME, state) is None and seats_to_ask(GAME, state) == [1]
        assert {"type": "done"} in GAME.legal_moves(state, 1)
        assert {"type": "pass"} in GAME.legal_moves(state, 1)
        send(state, 1, "pass")
        assert state["phase"] == "choose"  # the Bailiff phase is over


def test_after_one_card_the_player_is_asked_again_while_he_holds_cards():
    state = game_at_choice(3)
    hand(state, 1, "gatherer", "statue")
    for p in state["players"]:
        p["guilders"] = 0
    send(state, 0, "bailiff")
    send(state, 0, "buy 0 cards")
    send(state, 1, "play gatherer")
    assert GAME.to_act(state) == [1]  # version 1 moved on: only a Statue was left
    send(state, 1, "done")


def test_version_1_plays_the_lone_done_for_a_hand_of_end_game_cards():
    from games.engine import next_automatic

    state = v1_game_at_choice(3)
    hand(state, 1, "painting")
    for p in state["players"]:
        p["guilders"] = 0
    state["picks"] = R.clockwise(state, 0)
    GAME_V1.apply(state, 0, {"type": "choose", "character": "bailiff"}, None)
    GAME_V1.apply(state, 0, {"type": "buy", "count": 0}, None)
    assert GAME_V1.legal_moves(state, 1) == [{"type": "done"}]
    assert next_automatic(GAME_V1, state).source == "forced"
