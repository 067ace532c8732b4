"""Issue 12's Blankenburg rulings, from the rulebook's words (shared/rules/blankenburg.txt,
line numbers cited), in rules version 2; version 1 stays for its stored logs."""

import pytest

from games.engine import ParseError, event_rng, next_automatic, seats_to_ask
from games.rules.blankenburg import GAME, GAME_V1, rules
from games.rules.blankenburg.data import CHARACTER_BY_KEY

from .helpers import (
    NAMES4,
    new_game,
    plan_id,
    play,
    put,
    set_resources,
    top_event,
    top_visitor,
)


def _silver(state, *amounts):
    for player, amount in zip(state["players"], amounts):
        player["silver"] = amount


def test_an_offer_asks_every_player_it_could_serve_whatever_their_purse():
    # Line 16: each player has "a player screen to conceal all their silver pieces", so whom
    # the game asks, and who is "still to answer", must not tell who is short of silver.
    # Line 25: "Certain events will allow players to pay for some form of benefit ... Any
    # benefits offered are always optional." Coronation: 3 silver for one prestige.
    state = new_game()
    _silver(state, 10, 1, 10, 0)
    top_event(state, "Coronation")
    rules.start_income(state)
    assert state["phase"] == "offer"
    assert GAME.to_act(state) == [0, 1, 2, 3]  # the short purses are not left out
    assert GAME.legal_moves(state, 1) == [{"type": "decline"}]
    view = GAME.view(state, 0)
    assert view["offer"]["waiting"] == NAMES4
    assert next_automatic(GAME, state) is None
    # The short purses are asked too: declined for them once the others had answered, the
    # last to answer would see the offer close on their answer and know why.
    assert seats_to_ask(GAME, state) == [0, 1, 2, 3]
    play(state, 0, {"type": "decline"})
    play(state, 2, {"type": "accept"})
    assert next_automatic(GAME, state) is None
    assert seats_to_ask(GAME, state) == [1, 3]


def test_version_1_asked_only_the_players_who_could_pay():
    state = new_game()
    del state["ruleset"]
    _silver(state, 10, 1, 10, 0)
    top_event(state, "Coronation")
    rules.start_income(state)
    assert GAME_V1.to_act(state) == [0, 2]


def _market(state, *silver):
    _silver(state, *silver)
    for seat in range(4):
        set_resources(state, seat)
    rules.start_market(state)
    return state


def test_the_plan_step_asks_a_player_who_cannot_pay():
    # Line 59-60: plans are bought in turn order, then "Again in turn order, each player may
    # purchase a resource"; nothing says a player short of silver is skipped.
    state = new_game()
    first = state["first"]
    _market(state, *[0 if s == first else 9 for s in range(4)])
    assert state["phase"] == "plans" and GAME.to_act(state) == [first]
    assert GAME.legal_moves(state, first) == [{"type": "pass"}]
    assert next_automatic(GAME, state) is None  # not played at once: that would tell
    assert seats_to_ask(GAME, state) == [first]


def test_the_second_resource_round_asks_a_player_who_cannot_pay():
    # Line 60: "A second round follows the first, but this time resources cost three silver."
    state = new_game()
    first = state["first"]
    _silver(state, *[2 if s == first else 9 for s in range(4)])
    for seat in range(4):
        set_resources(state, seat)
    rules.start_resources(state, 2)
    assert GAME.to_act(state) == [first]
    assert GAME.legal_moves(state, first) == [{"type": "pass"}]
    assert seats_to_ask(GAME, state) == [first]


def _bidding(state):
    while state["phase"] != "bid":
        seat = GAME.to_act(state)[0]
        play(state, seat, GAME.legal_moves(state, seat)[0])
    return state


def test_a_bidder_with_no_silver_is_asked_like_every_bidder():
    # Line 16: the screen hides each purse. Were the broke bidder's zero played for them,
    # even once the others had bid, the last bidder would see the bids revealed on their own
    # bid while that bidder's receipt was still missing, and know the purse was empty.
    state = _bidding(new_game())
    _silver(state, 5, 0, 5, 5)
    assert GAME.legal_moves(state, 1) == [{"type": "bid", "silver": 0}]
    assert next_automatic(GAME, state) is None
    assert seats_to_ask(GAME, state) == [0, 1, 2, 3]
    for seat in (0, 2, 3):
        play(state, seat, {"type": "bid", "silver": 1})
    assert next_automatic(GAME, state) is None and seats_to_ask(GAME, state) == [1]
    v1 = _bidding(new_game())
    del v1["ruleset"]
    _silver(v1, 5, 0, 5, 5)
    assert 1 not in seats_to_ask(GAME_V1, v1)  # version 1 played it once the others had bid


def test_the_zero_bid_line_names_the_bankers_four_silver():
    # Line 37: a zero bid gains three silver; the Banker's card: "a zero bid gains 1 more".
    state = _bidding(new_game())
    state["players"][1]["char"] = "banker"
    before = [p["silver"] for p in state["players"]]
    for seat in range(4):
        play(state, seat, {"type": "bid", "silver": 0 if seat in (1, 2) else 1})
    assert state["players"][1]["silver"] == before[1] + 4
    assert state["players"][2]["silver"] == before[2] + 3
    assert "Beth bid zero and gained 4 silver" in state["news"]
    assert "Chris bid zero and gained 3 silver" in state["news"]


def test_every_bidders_receipt_is_public_before_the_reveal_and_the_bid_is_not():
    state = _bidding(new_game())
    play(state, 0, {"type": "bid", "silver": 2})
    receipt = rules.receipt(state["salts"][0], state["turn"], 2)
    for viewer in (1, None):
        view = GAME.view(state, viewer)
        assert view["receipts"] == [{"name": "Andy", "receipt": receipt}]
        text = GAME.render_text(view)
        assert receipt in text and "Your sealed bid" not in text
        assert state["salts"][0] not in text
    for seat in (1, 2, 3):
        play(state, seat, {"type": "bid", "silver": 0})
    row = GAME.view(state, 1)["reveal"]["rows"][0]
    assert row["bid"] == 2 and row["receipt"] == receipt


def test_identical_plans_drawn_read_back_as_the_same_move():
    state = new_game()
    state["phase"] = "keep"
    cur = state["cur"] = state["first"]
    cottages = [plan_id(state, "Cottage"), plan_id(state, "Cottage")]
    state["drawn"], state["drawn_deck"] = sorted(cottages, reverse=True), "basic"
    moves = GAME.legal_moves(state, cur)
    assert moves == [{"type": "keep", "card": 0}]
    text = GAME.format_move(state, cur, moves[0])
    assert GAME.parse(text, state, cur) == moves[0]


def test_the_text_shows_the_other_players_abilities():
    state = new_game()
    text = GAME.render_text(GAME.view(state, 0))
    for seat in (1, 2, 3):
        char = CHARACTER_BY_KEY[state["players"][seat]["char"]]
        assert f"{NAMES4[seat]}, {char.name}: {char.text[:30]}" in " ".join(text.split())


def test_demolish_the_tower_reads_like_build_the_chapel():
    state = new_game()
    seat = state["first"]
    state["phase"], state["cur"] = "build", seat
    space = put(state, "Tower", seat)
    assert GAME.parse("demolish the tower", state, seat) == {"type": "demolish", "space": space}
    assert GAME.parse("Demolish my Tower", state, seat) == {"type": "demolish", "space": space}


@pytest.mark.parametrize(
    "words, silver",
    [("bid eleven", 11), ("bid twenty one", 21), ("bid twenty-one", 21), ("bid thirty", 30)],
)
def test_number_words_past_ten(words, silver):
    state = _bidding(new_game())
    state["players"][0]["silver"] = 40
    assert GAME.parse(words, state, 0) == {"type": "bid", "silver": silver}


def test_buy_and_sell_in_one_line_is_refused_with_the_way_to_do_both():
    state = new_game()
    seat = state["first"]
    state["players"][seat]["silver"] = 9
    set_resources(state, seat, wood=2)
    rules.start_resources(state, 1)
    with pytest.raises(ParseError, match="two commands"):
        GAME.parse("buy stone and sell wood", state, seat)
    assert GAME.parse("sell 1 wood", state, seat) == {
        "type": "sell",
        "resource": "wood",
        "count": 1,
    }


def test_new_matches_are_version_2_and_version_1_is_still_loadable():
    assert GAME.version == 2 and GAME_V1.version == 1
    state = GAME.setup(NAMES4, GAME.validate_options(4, {}), event_rng("s", 0))
    assert state["ruleset"] == 2
    assert "ruleset" not in GAME_V1.setup(NAMES4, GAME.validate_options(4, {}), event_rng("s", 0))


def test_an_offer_open_to_one_player_who_cannot_pay_still_asks_them():
    # The Pilgrim: "Each player may pay 1 silver for the top basic plan." Three hands are
    # full (public), so only Andy could take it; his empty purse must not show by his
    # decline being played at once.
    state = new_game()
    for seat in (1, 2, 3):
        hand = state["players"][seat]["hand"]
        while len(hand) < rules.hand_limit(state, seat):
            hand.append(state["basic_deck"].pop())
    state["players"][0]["silver"] = 0
    state["no_visitor"] = False
    top_visitor(state, "Pilgrim")
    rules.income_visitor(state)
    assert state["phase"] == "offer" and GAME.to_act(state) == [0]
    assert GAME.legal_moves(state, 0) == [{"type": "decline"}]
    assert next_automatic(GAME, state) is None
    assert seats_to_ask(GAME, state) == [0]
