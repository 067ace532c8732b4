"""The text protocol reads back every command it writes: parse(format_move(m)) == m for every
legal move of every seat to act, at every position of random games (not only the moves the
bots choose) [issue 12]; and the parser adds nothing the player did not type."""

import pytest

from games.engine import ParseError, copy_state
from games.rules.nieuwstad import GAME

from .helpers import clear, game_at_choice, give, walk


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_move_round_trips_at_every_position(players):
    checked = 0
    for n in range(2):
        for state in walk(players, f"round-trip-{players}-{n}"):
            for seat in GAME.to_act(state):
                before = copy_state(state)
                for move in GAME.legal_moves(state, seat):
                    text = GAME.format_move(state, seat, move)
                    assert GAME.parse(text, state, seat) == move, f"{text!r} -> not {move}"
                    checked += 1
                assert state == before, "parsing changed the position"
    assert checked > 1000


def test_pledge_round_trips_with_mixed_food():
    """The menu lists food fish, grain, livestock, game; a typed pledge reads back so."""
    state = game_at_choice(3)
    give(state, 1, guilders=2, fish=1, grain=1, livestock=1, game=1)
    state["pending"] = {
        "kind": "pledge",
        "card": "blackdeath",
        "by": 0,
        "cost": [5, 3],
        "waiting": [1],
        "answers": {},
    }
    for move in GAME.legal_moves(state, 1):
        assert GAME.parse(GAME.format_move(state, 1, move), state, 1) == move
    assert GAME.parse("pledge 1 with game, fish, grain", state, 1) == {
        "type": "pledge",
        "guilders": 1,
        "food": ["fish", "grain", "game"],
    }


def test_the_parser_never_applies_a_discount_the_player_did_not_type():
    state = game_at_choice(3)
    clear(state, "A1")
    give(state, 0, guilders=9, wood=9)
    GAME.apply(state, 0, {"type": "choose", "character": "builder"}, None)
    with pytest.raises(ParseError, match="less 1 guilder.*less 1 wood"):
        GAME.parse("build house at A1", state, 0)
    move = GAME.parse("build house at A1 less 1 wood", state, 0)
    assert move["discount"] == "w"
    # the others have no discount: nothing is added, and a typed one is refused with a reason
    GAME.apply(state, 0, {"type": "pass"}, None)
    give(state, 1, guilders=9, wood=9)
    assert GAME.parse("build house at A1", state, 1)["discount"] == ""
    with pytest.raises(Exception, match="Only the player who chose the Master Builder"):
        GAME.apply(state, 1, GAME.parse("build house at A1 less 1 wood", state, 1), None)
