"""The rulebook's worked examples, with the numbers the text gives."""

from games.engine import IllegalMove
from games.rules.blankenburg import GAME, rules

from .helpers import (
    ScriptedRng,
    clear_hands,
    give_hand,
    new_game,
    play,
    put,
    set_communal,
    set_resources,
    set_track,
    set_wheel,
    structures_of,
    top_event,
    top_visitor,
)

ANDY, BETH, CHRIS, DIANE = 0, 1, 2, 3


def four_player_game():
    state = new_game()
    state["first"] = ANDY
    return state


def test_setup_example_four_players():
    """Four starred citizens on the track, one starred basic plan each plus one communal, a
    grand communal plan, three of each resource in the marketplace."""
    state = new_game()
    assert len(state["track"]) == 4
    assert all(rules.CITIZENS[c].starred for c in state["track"])
    assert all(len(p["hand"]) == 1 and rules.PLANS[p["hand"][0]].starred for p in state["players"])
    basic, grand = state["communal"]
    assert rules.PLANS[basic].starred and rules.PLANS[grand].kind == "grand"
    assert state["market"] == {r: 3 for r in rules.RESOURCES}
    for p in state["players"]:
        if p["char"] == "noble":  # Beth's Noble: four more silver and a gold
            assert p["silver"] == 16 and p["gold"] == 1


def test_dice_example():
    """Andy picks wood, stone and glass, rolls stone, iron, iron, glass: 1 wood, 3 stone,
    2 iron, 2 glass on the wheel."""
    state = four_player_game()
    state["phase"], state["cur"] = "select", ANDY
    set_wheel(state)
    rng = ScriptedRng(["stone", "iron", "iron", "glass"])
    GAME.apply(state, ANDY, {"type": "select", "resources": ["wood", "stone", "glass"]}, rng)
    wheel = state["wheel"]
    assert (wheel["wood"], wheel["stone"], wheel["iron"], wheel["glass"], wheel["marble"]) == (
        1,
        3,
        2,
        2,
        0,
    )
    assert state["phase"] == "bid"
    assert GAME.to_act(state) == [ANDY, BETH, CHRIS, DIANE]


def test_bidding_example():
    """Andy 2, Beth 3, Chris 2, Diane 0: Beth takes the three stone, Andy wins the tie with
    Chris as first player and takes the two iron, Chris the wood, Diane gains three silver,
    the two glass stay on the wheel."""
    state = four_player_game()
    state["phase"] = "bid"
    set_wheel(state, wood=1, stone=3, iron=2, glass=2)
    for p in state["players"]:
        p["silver"] = 12
    before = {s: dict(state["players"][s]["res"]) for s in range(4)}
    for seat, bid in ((ANDY, 2), (BETH, 3), (CHRIS, 2)):
        play(state, seat, {"type": "bid", "silver": bid})
        assert DIANE in GAME.to_act(state)
    play(state, DIANE, {"type": "bid", "silver": 0})
    # Beth chooses first: she takes the stone.
    assert state["phase"] == "pick" and GAME.to_act(state) == [BETH]
    play(state, BETH, {"type": "take", "resource": "stone"})
    assert GAME.to_act(state) == [ANDY]
    play(state, ANDY, {"type": "take", "resource": "iron"})
    assert GAME.to_act(state) == [CHRIS]
    play(state, CHRIS, {"type": "take", "resource": "wood"})
    res = state["players"]
    assert res[BETH]["res"]["stone"] == before[BETH]["stone"] + 3
    assert res[ANDY]["res"]["iron"] == before[ANDY]["iron"] + 2
    assert res[CHRIS]["res"]["wood"] == before[CHRIS]["wood"] + 1
    assert [p["silver"] for p in res] == [10, 9, 10, 15]
    assert state["wheel"]["glass"] == 2
    assert sum(state["wheel"][r] for r in rules.RESOURCES) == 2


def first_turn_position():
    state = four_player_game()
    clear_hands(state)
    give_hand(state, ANDY, "Tower")
    give_hand(state, BETH, "Chapel")
    give_hand(state, CHRIS, "Shop")
    give_hand(state, DIANE, "Parish")
    set_communal(state, basic="Cottage", grand="Castle")
    set_resources(state, ANDY, wood=1, stone=1)
    set_resources(state, BETH, wood=1, stone=4)
    set_resources(state, CHRIS, wood=2, stone=1)
    set_resources(state, DIANE, wood=1, stone=1)
    for p in state["players"]:
        p["silver"], p["gold"] = 12, 0
    state["supply"]["gold"] = 10
    set_track(state, "Chandler", "Baker", "Butcher", "Priest")
    top_event(state, "Blizzard")
    top_visitor(state, "Novice Architect")
    return state


def test_first_building_phase_example():
    """Andy cannot build and is not asked; Beth builds the chapel (1 wood, 2 stone) and the
    communal cottage with her last two stone; Chris builds the shop; Diane cannot build."""
    state = first_turn_position()
    rules.start_building(state)
    assert GAME.to_act(state) == [BETH]
    play(state, BETH, GAME.parse("build chapel", state, BETH))
    play(state, BETH, GAME.parse("build communal cottage", state, BETH))
    assert structures_of(state, BETH) == ["Chapel", "Cottage"]
    assert state["players"][BETH]["res"]["stone"] == 0
    assert GAME.to_act(state) == [CHRIS]
    play(state, CHRIS, GAME.parse("build shop", state, CHRIS))
    assert structures_of(state, CHRIS) == ["Shop"]
    assert [p["prestige"] for p in state["players"]] == [0, 2, 1, 0]
    # Diane could not build: the income phase began, the Blizzard found no residential...
    assert state["event"] is not None and rules.EVENTS[state["event"]].name == "Blizzard"
    # ...except Beth's new cottage, which costs her one silver.
    assert state["players"][BETH]["silver"] == 11
    assert state["phase"] == "offer"  # the Novice Architect offers a free plan to everyone


def test_first_income_example():
    """The architect stays at the board's inn for free, the priest at Beth's chapel (1), the
    butcher at Chris's shop (2), the baker at Beth's cottage (1), the chandler at the inn."""
    state = first_turn_position()
    rules.start_building(state)
    for text, seat in (
        ("build chapel", BETH),
        ("build communal cottage", BETH),
        ("build shop", CHRIS),
    ):
        play(state, seat, GAME.parse(text, state, seat))
    for seat in list(GAME.to_act(state)):
        play(state, seat, {"type": "decline"})
    stays = {person: (where, owner, pay) for person, where, owner, pay in state["lodging"]}
    assert stays["Novice Architect"] == (-1, -1, 0)
    assert stays["Priest"][1:] == (BETH, 1)
    assert stays["Butcher"][1:] == (CHRIS, 2)
    assert stays["Baker"][1:] == (BETH, 1)
    assert stays["Chandler"] == (-1, -1, 0)
    assert [p["silver"] for p in state["players"]][:3] == [12, 11 + 2, 12 + 2]


def test_income_example_tally():
    """The mid-game income example. The rulebook credits Green with 9 silver (4 + 5), but its
    own narration gives Green only the shop (2) and the tavern (1): 4 + 3 = 7. We follow the
    narration (the tavern pays 1, as the butcher's stay says) and so Green ends with 7."""
    green, red, yellow, white = 0, 1, 2, 3
    state = new_game(["Green", "Red", "Yellow", "White"])
    state["first"] = green
    for p in state["players"]:
        p["silver"] = 0
        p["char"] = "mason"  # no character touches income here
    put(state, "Shop", green)
    put(state, "Tavern", green)
    put(state, "Tower", red)
    put(state, "Manor", red)
    put(state, "Cottage", yellow)
    put(state, "Inn", yellow)
    put(state, "Parish", yellow)
    put(state, "Shop", white)
    set_track(
        state,
        "Guard",
        "Chandler",
        "Butcher",
        "Baker",
        "Scholar",
        "Spice Merchant",
        "Blacksmith",
        "Cooper",
    )
    top_event(state, "Prosperity Reigns")
    top_visitor(state, "Lumberjack")
    rules.start_income(state)
    assert [p["silver"] for p in state["players"]] == [4, 6, 6, 4]
    assert state["phase"] == "offer"  # the lumberjack sells wood for 1 silver
    for seat in list(GAME.to_act(state)):
        play(state, seat, {"type": "decline"})
    where = {person: (owner, pay) for person, _, owner, pay in state["lodging"]}
    assert where["Lumberjack"] == (yellow, 1)
    assert where["Cooper"] == (green, 2)  # Green's shop: Green is first player
    assert where["Blacksmith"] == (red, 1)
    assert where["Spice Merchant"] == (red, 3)
    assert where["Scholar"] == (yellow, 1)  # manor full: Yellow's inn
    assert where["Baker"] == (white, 2)
    assert where["Butcher"] == (green, 1)
    assert where["Chandler"] == (yellow, 2)
    assert where["Guard"] == (red, 1)  # the tower fits two
    assert [p["silver"] for p in state["players"]] == [7, 11, 10, 6]


def test_demolition_and_repair_example():
    """Chris demolishes his tower (one stone back, no prestige lost) and builds the castle in
    its place; Diane pays four silver to repair her monastery, damaged by an earthquake."""
    state = four_player_game()
    clear_hands(state)
    tower = put(state, "Tower", CHRIS)
    for name in ("Tower", "Guardhouse", "Library"):
        put(state, name, ANDY)
    monastery = put(state, "Monastery", DIANE, damaged=True)
    give_hand(state, CHRIS, "Castle")
    set_resources(state, CHRIS, stone=3, iron=2, marble=1)
    state["players"][CHRIS]["prestige"] = 5
    state["players"][DIANE]["silver"] = 10
    state["phase"], state["cur"] = "build", CHRIS
    assert GAME.parse("build castle", state, CHRIS)["space"] == -1  # the civic district is full
    play(state, CHRIS, GAME.parse("demolish tower", state, CHRIS))
    assert state["players"][CHRIS]["res"]["stone"] == 4
    assert state["players"][CHRIS]["prestige"] == 5
    play(state, CHRIS, GAME.parse("build castle", state, CHRIS))
    assert state["town"][tower]["card"] == next(p.id for p in rules.PLANS if p.name == "Castle")
    assert state["players"][CHRIS]["prestige"] == 11
    state["cur"] = DIANE
    state["built"] = state["demolished"] = False
    play(state, DIANE, GAME.parse("repair monastery", state, DIANE))
    assert state["players"][DIANE]["silver"] == 6
    assert not state["town"][monastery]["damaged"]


def test_scoring_example():
    """16/17/20/16 prestige become 17, 18, 22 and 24."""
    state = four_player_game()
    clear_hands(state)
    table = {ANDY: (16, 3, 9, 0), BETH: (17, 2, 8, 0), CHRIS: (20, 0, 4, 0), DIANE: (16, 4, 16, 1)}
    for seat, (prestige, resources, silver, gold) in table.items():
        p = state["players"][seat]
        p["char"] = "mason"
        p["prestige"], p["silver"] = prestige, silver
        set_resources(state, seat, wood=resources, gold=gold)
    # One residential each (no majority); Diane leads commercial and religious, Chris civic.
    for seat in range(4):
        put(state, "Cottage" if seat < 2 else ("Townhouse" if seat == 2 else "Tudor"), seat)
    put(state, "Shop", DIANE)
    put(state, "Chapel", DIANE)
    put(state, "Tower", CHRIS)
    rules.score(state)
    assert state["result"]["scores"] == [17, 18, 22, 24]
    assert state["result"]["ranking"][0] == DIANE


def test_illegal_build_message_names_the_cost():
    state = first_turn_position()
    state["phase"], state["cur"] = "build", DIANE
    try:
        play(state, DIANE, GAME.parse("build parish", state, DIANE))
    except IllegalMove as error:
        assert "Parish needs 2 wood, 2 stone" in error.message
    else:
        raise AssertionError("Diane cannot afford the parish")
