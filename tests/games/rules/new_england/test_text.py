"""The text protocol: commands a person types, errors that say what was expected."""

import pytest

from games.engine import ParseError, copy_state
from games.rules.new_england import GAME

from .helpers import buying, card_named, figure, fresh, lay

ANNA = 0


def parse(text, state, seat=ANNA):
    return GAME.parse(text, state, seat)


def test_selection_and_chips():
    state = fresh()
    assert parse("3 cards", state) == {"type": "select", "cards": 3}
    assert parse("  6 Development Cards ", state) == {"type": "select", "cards": 6}
    assert parse("choose 4", state) == {"type": "select", "cards": 4}
    with pytest.raises(ParseError, match="3, 4, 5 or 6"):
        parse("8 cards", state)
    assert parse("chip 7", state) == {"type": "chip", "chip": 7}
    assert parse("Take chip 10", state) == {"type": "chip", "chip": 10}
    assert parse("bid 2", state) == {"type": "chip", "chip": 2}


def test_buying_commands():
    state = fresh()
    lay(state, ANNA, "F", "E5")
    figure(state, ANNA, "pilgrim", "E5")
    corner = card_named(state, "land", "F", "corner")
    pilgrim = card_named(state, "pilgrim")
    buying(state, ANNA, [{"tile": "S"}, {"card": corner}, {"card": pilgrim}])
    assert parse("buy tile 1, place at D2", state) == {"type": "buy_tile", "slot": 1, "at": "D2"}
    assert parse("BUY TILE 1 AT d2", state) == {"type": "buy_tile", "slot": 1, "at": "D2"}
    assert parse("tile 1 d 2", state) == {"type": "buy_tile", "slot": 1, "at": "D2"}
    assert parse("buy card 2, develop F5 E4 F4", state) == {
        "type": "buy_card",
        "slot": 2,
        "cells": ["E4", "F4", "F5"],
    }
    # a starter tile is named by either half; the move names its first parcel
    assert parse("buy card 3, place at C2", state) == {"type": "buy_card", "slot": 3, "at": "B2"}
    assert parse("move pilgrim E5 to G9", state) == {
        "type": "move",
        "figure": "pilgrim",
        "from": "E5",
        "to": "G8",
    }
    assert parse("pass", state) == {"type": "pass"}
    assert parse("Done.", state) == {"type": "pass"}


def test_store_and_play_stored():
    state = fresh()
    figure(state, ANNA, "barn", "B2")
    square = card_named(state, "land", "F", "square")
    buying(state, ANNA, [{"card": square}])
    assert parse("buy card 1, store", state) == {"type": "buy_card", "slot": 1, "store": True}
    assert parse("buy card 1 store in barn", state)["store"] is True
    state["players"][ANNA]["stored"].append(state["selection"].pop()["card"])
    lay(state, ANNA, "F", "E5")
    lay(state, ANNA, "F", "F5")
    assert parse("play stored 1, develop E4 F4 E5 F5", state) == {
        "type": "play_stored",
        "stored": 1,
        "cells": ["E4", "F4", "E5", "F5"],
    }
    with pytest.raises(ParseError, match="1 stored card"):
        parse("play stored 2, develop E4 F4 E5 F5", state)


def test_reveal():
    state = fresh()
    assert parse("reveal tile", state) == {"type": "reveal", "what": "tile"}
    assert parse("use ship card", state) == {"type": "reveal", "what": "card"}


def test_a_development_without_parcels_lists_the_legal_placements():
    state = fresh()
    lay(state, ANNA, "F", "E5")
    pair = card_named(state, "land", "F", "pair")
    buying(state, ANNA, [{"card": pair}])
    with pytest.raises(ParseError) as error:
        parse("buy card 1", state)
    assert "Legal placements now: E4 F4; E4 E5" in error.value.message
    with pytest.raises(ParseError, match="not a legal place.*E4 F4"):
        parse("buy card 1, develop E5 F5", state)


def test_a_figure_without_a_place_lists_the_free_tiles():
    state = fresh()
    pilgrim = card_named(state, "pilgrim")
    buying(state, ANNA, [{"card": pilgrim}])
    with pytest.raises(ParseError, match="Your free tiles for it: B2, E4, G8"):
        parse("buy card 1", state)


def test_nonsense_says_what_was_expected():
    state = buying(fresh(), ANNA, [{"tile": "F"}])
    with pytest.raises(ParseError, match="buy tile 2, place at E5"):
        parse("gimme everything", state)
    with pytest.raises(ParseError, match="Say where the tile goes"):
        parse("buy tile 1", state)
    with pytest.raises(ParseError, match="land tile"):
        parse("buy card 1, develop E4 F4", state)
    with pytest.raises(ParseError, match="not a parcel"):
        parse("move pilgrim K1 to E4", state)


def test_setup_placement_command():
    state = fresh(3, setup="placed")
    seat = GAME.to_act(state)[0]
    move = GAME.parse("place pasture C3 B3", state, seat)
    assert move == {"type": "start_tile", "land": "P", "cells": ["B3", "C3"]}
    assert GAME.format_move(state, seat, move) == "place pasture B3 C3"


def test_round_trip_of_every_legal_move_in_a_busy_position():
    state = fresh()
    lay(state, ANNA, "F", "E5")
    lay(state, ANNA, "F", "F5")
    figure(state, ANNA, "barn", "G8")
    figure(state, ANNA, "pilgrim", "E5")
    cards = [card_named(state, "land", "F", s) for s in ("corner", "pair", "square")]
    buying(state, ANNA, [{"card": c} for c in cards] + [{"tile": "S"}, {"tile": "P"}])
    moves = GAME.legal_moves(state, ANNA)
    assert len(moves) > 15
    for move in moves:
        assert GAME.parse(GAME.format_move(state, ANNA, move), state, ANNA) == move


def test_render_text_fits_a_mail_client_and_has_a_legend():
    state = fresh()
    GAME.apply(state, 0, {"type": "select", "cards": 4}, None)
    text = GAME.render_text(GAME.view(state, 0))
    assert max(len(line) for line in text.splitlines()) <= 78
    assert "Legend" in text and "Selection" in text and "Bidding chips" in text
    assert "You are Anna, family Annable" in text
    assert " 2  .   As  As " in text  # Annable's settlement B2-C2


def test_describe_narrates_in_the_past_tense():
    state = fresh()
    before = copy_state(state)
    GAME.apply(state, 0, {"type": "select", "cards": 3}, None)
    line = GAME.describe(before, state, 0, {"type": "select", "cards": 3}, None)
    assert line.startswith("Anna chose 3 development cards for the selection: 1. ")


def test_one_shilling_is_singular_everywhere_money_is_named():
    state = buying(fresh(), ANNA, [{"tile": "S"}, {"tile": "F"}], chip=1, money=1)
    assert "at 1 shilling each" in GAME.prompt(state, ANNA)
    assert "buys at 1 shilling (" in GAME.view(state, ANNA)["status"]
