"""Any JSON value as a move, in positions of random games: the rules raise IllegalMove with a
sentence and nothing else, and a refused move leaves the state as it was [issue 12]. The
contract's guard (games/engine/contract.py) would turn a stray TypeError into IllegalMove;
these tests call the rules below the guard, so Nieuwstad's own checks must give the reason."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove, check_move, copy_state
from games.rules.nieuwstad import GAME, GAME_V1
from games.rules.nieuwstad import moves as M
from games.rules.nieuwstad.data import BOARDS, BUILDINGS, CARDS, CHARACTERS, GOODS, STALL_SLOTS
from tests.engine_fuzz import json_values, moves_for, positions

from .helpers import clear, game_at_choice, give

JUNK = st.sampled_from(["", "x", "Z9", "a1", "boat", "N", "0"])
CELLS = st.sampled_from(sorted(set(BOARDS["large"].city + BOARDS["large"].countryside))) | JUNK
WORDS = {
    "cell": CELLS,
    "target": CELLS,
    "facing": st.sampled_from(["N", "E", "S", "W", None]) | JUNK,
    "building": st.sampled_from([*BUILDINGS, "boat"]) | JUNK,
    "character": st.sampled_from(CHARACTERS) | JUNK,
    "repeat": st.sampled_from(CHARACTERS) | JUNK,
    "discount": st.sampled_from(["", "g", "w", "gg", "gw", "ww", "wg"]) | JUNK,
    "good": st.sampled_from([*GOODS, "guilders"]) | JUNK,
    "food": st.sampled_from(GOODS) | JUNK,
    "at": st.sampled_from(["market", "timbertrade", *STALL_SLOTS]) | JUNK,
    "card": st.sampled_from(sorted(CARDS)) | JUNK,
    "district": st.sampled_from(["NW", "NE", "SE", "SW"]) | JUNK,
    "take": st.sampled_from(["guilders", "wood"]) | JUNK,
    "filling": st.sampled_from(["meat", "game", "fish"]) | JUNK,
}
SMALL = st.integers(min_value=-2, max_value=8)


@st.composite
def typed_moves(draw, game):
    """A move of a known type whose fields are drawn from the game's own words and numbers,
    so the rules' checks are reached past the contract's shape check."""
    kind = draw(st.sampled_from(sorted(game.move_fields)))
    move = {"type": kind}
    for key, spec in game.move_fields[kind].items():
        if not draw(st.booleans()):
            continue
        if spec == "int":
            move[key] = draw(SMALL)
        elif spec == "ints":
            move[key] = draw(st.lists(SMALL, max_size=5))
        elif spec == "strs":
            move[key] = draw(st.lists(WORDS.get(key[:-1], WORDS["food"]), max_size=4))
        elif key == "cells":
            move[key] = draw(st.lists(CELLS, max_size=3))
        else:
            move[key] = draw(WORDS.get(key, json_values))
    return move


def pool(game):
    return (
        positions(game, 2, "nieuwstad-fuzz", every=2)
        + positions(game, 3, "nieuwstad-fuzz", every=2)
        + positions(game, 4, "nieuwstad-fuzz", every=2)
    )


@pytest.mark.parametrize("game", [GAME, GAME_V1], ids=["v2", "v1"])
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_json_move_gets_a_sentence_and_changes_nothing(game, data):
    state, seat = data.draw(st.sampled_from(pool(game)))
    move = data.draw(moves_for(state, seat, game) | typed_moves(game))
    before = copy_state(state)
    working = copy_state(state)
    try:
        check_move(game, move)
        M.apply(working, seat, move)
    except IllegalMove as error:
        assert error.message.strip(), f"no sentence for {move!r}"
        assert working == before, f"state changed by the refused move {move!r}"


@pytest.mark.parametrize(
    "move, words",
    [
        ({"type": "build", "building": "house", "cells": [""], "facing": "N"}, "not a space"),
        ({"type": "build", "building": "house", "cells": ["D3"], "facing": "X"}, "faces north"),
        ({"type": "build", "building": "boat", "cells": ["D3"], "facing": "N"}, "on the lake"),
        ({"type": "build", "building": "house", "cells": ["D3"], "count": 1}, "no field"),
        # the contract's shape check names the field's kind (a float is never a facing)
        ({"type": "build", "building": "house", "cells": ["D3"], "facing": 1.0}, "word or null"),
        ({"type": "buy", "count": True}, "whole number"),
    ],
)
def test_bad_places_and_values_are_refused_with_a_reason(move, words):
    state = game_at_choice(3)
    clear(state, "D3")
    give(state, 0, guilders=9, wood=9)
    GAME.apply(state, 0, {"type": "choose", "character": "builder"}, None)
    before = copy_state(state)
    with pytest.raises(IllegalMove, match=words):
        GAME.apply(state, 0, move, None)
    assert state == before
