"""The text protocol: commands a person types, errors that explain, the board as text."""

import re

import pytest

from games.engine import ParseError, copy_state, event_rng, playout
from games.rules.nieuwstad import GAME

from .helpers import clear, game_at_choice, give, hand, new_game, send


def test_commands_people_type():
    state = game_at_choice(4)
    assert GAME.parse("Woodcutter", state, 0) == {"type": "choose", "character": "woodcutter"}
    assert GAME.parse("choose the Master Builder", state, 0)["character"] == "builder"
    assert GAME.parse("  PASS ", state, 0) == {"type": "pass"}
    assert GAME.parse("take forest c4", state, 0) == {"type": "forest", "cell": "C3"}
    assert GAME.parse("count repeating farmer", state, 0) == {
        "type": "choose",
        "character": "count",
        "repeat": "farmer",
    }
    assert GAME.parse("sell 2 bread at baker", state, 0) == {
        "type": "sell",
        "good": "bread",
        "count": 2,
        "at": "baker",
    }
    assert GAME.parse("sell 3 grain", state, 0)["at"] == "market"
    assert GAME.parse("buy 2 wood at the timber trade", state, 0)["count"] == 2
    assert GAME.parse("sell game pasty at inn", state, 0) == {"type": "pasty", "filling": "game"}
    assert GAME.parse("play crime in north-west taking wood", state, 0)["district"] == "NW"
    assert GAME.parse("pledge 2 with fish, 2 grain", state, 0) == {
        "type": "pledge",
        "guilders": 2,
        "food": ["fish", "grain", "grain"],
    }


def test_build_command_with_direction_and_discount():
    state = game_at_choice(4)
    clear(state, "D3")
    give(state, 0, guilders=5, wood=5)
    send(state, 0, "master builder")
    move = GAME.parse("Build a House at D3 facing South less 1 wood", state, 0)
    assert move == {
        "type": "build",
        "building": "house",
        "cells": ["D3"],
        "facing": "S",
        "discount": "w",
    }
    assert move in GAME.legal_moves(state, 0)


def test_errors_say_what_was_expected():
    state = game_at_choice(4)
    with pytest.raises(ParseError, match="Expected a command such as"):
        GAME.parse("dance", state, 0)
    with pytest.raises(ParseError, match="facing north"):
        GAME.parse("build house", state, 0)
    with pytest.raises(ParseError, match="count repeating"):
        GAME.parse("count", state, 0)
    with pytest.raises(ParseError, match="wish card"):
        GAME.parse("play lottery", state, 0)
    with pytest.raises(ParseError, match="Expected 'sell 2 bread at baker'"):
        GAME.parse("sell stuff", state, 0)


def test_illegal_moves_explain():
    state = game_at_choice(4)
    with pytest.raises(Exception, match="comes into play once the Office"):
        GAME.apply(state, 0, GAME.parse("rent master", state, 0), None)
    with pytest.raises(Exception, match="not your turn"):
        GAME.apply(state, 1, GAME.parse("farmer", state, 1), None)


def test_every_legal_move_round_trips_in_played_games():
    for seed in range(6):
        game = playout.play(GAME, 2 + seed % 3, seed=f"text-{seed}")
        names = playout.player_names(game.players)
        state = GAME.setup(names, game.options, event_rng(game.seed, 0))
        for seq, (seat, move, _source) in enumerate(game.log, start=1):
            for legal in GAME.legal_moves(state, seat)[::7]:
                text = GAME.format_move(state, seat, legal)
                assert GAME.parse(text, state, seat) == legal, text
            state = GAME.apply(state, seat, move, None)
            if seq > 60:
                break


def test_board_as_text_fits_a_mail_client_and_shows_only_the_own_hand():
    state = game_at_choice(3)
    hand(state, 0, "statue")
    hand(state, 1, "painting")
    text = GAME.render_text(GAME.view(state, 0))
    assert max(len(line) for line in text.splitlines()) <= 78
    assert "Your hand: Statue" in text and "Painting" not in text
    assert " A  " in text and " 8 |" in text and "Legend" in text
    spectator = GAME.render_text(GAME.view(state, None))
    assert "Statue" not in spectator and "Your hand" not in spectator


def test_secrets_never_reach_other_seats():
    game = playout.play(GAME, 3, seed="secrets")
    state = GAME.setup(playout.player_names(3), game.options, event_rng(game.seed, 0))
    for seq, (seat, move, _source) in enumerate(game.log, start=1):
        before = copy_state(state)
        state = GAME.apply(state, seat, move, event_rng(game.seed, seq))
        secrets = GAME.secrets(state)
        for viewer in [None, 0, 1, 2]:
            page = GAME.render_text(GAME.view(state, viewer)) + str(GAME.view(state, viewer))
            page += GAME.describe(before, state, seat, move, viewer)
            for owner, strings in secrets.items():
                if owner == viewer:
                    continue
                for secret in strings:
                    assert secret not in page, (viewer, secret)


def test_describe_hides_a_drawn_card_from_the_others():
    state = game_at_choice(3)
    wish = next(
        c
        for c in reversed(state["deck"])
        if c not in ("smallbirth", "greatbirth", "crusade", "vikings", "blackdeath")
    )
    state["deck"].remove(wish)
    state["deck"].append(wish)
    before = copy_state(state)
    give(state, 0, guilders=1)
    send(state, 0, "bailiff")
    send(state, 0, "buy 1 card")
    mine = GAME.describe(before, state, 0, {"type": "buy", "count": 1}, 0)
    theirs = GAME.describe(before, state, 0, {"type": "buy", "count": 1}, 1)
    name = state["names"][0]
    assert f"{name} drew " in mine and "drew a card" not in mine  # the card, named
    assert "You drew" not in mine and f"{name} drew a card" in theirs


def test_help_lists_the_commands():
    assert "build house at D5 facing north" in GAME.help_text()
    assert new_game(2)["board"] == "small"


def test_every_heading_of_the_players_table_is_spelled_out_below_it():
    """The email's players table is narrow, so its headings are codes ("Gld", "Pts"): the
    legend under it spells out each of them."""
    state = new_game(4)
    text = GAME.render_text(GAME.view(state, 0))
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  # Player"))
    legend = " ".join(lines[at + 5 : at + 10])
    for code in lines[at].split()[2:]:
        assert f" {code} " in f" {legend} ", code
        assert re.search(rf"\b{re.escape(code)} [a-z]", legend), code


def test_the_reference_spells_out_its_columns():
    """The building table's headings are short so that it fits a mail's line; the note under
    it spells out every one that is not a word."""
    buildings = {s.key: s for s in GAME.reference(GAME.view(new_game(4), 0))}["buildings"]
    notes = " ".join(buildings.notes)
    spelled = {"Gld": "guilders", "Pts": "points", "Burgh": "Burghers"}
    for code, word in spelled.items():
        assert code in buildings.columns
        assert re.search(rf"\b{code}\b[^.]*\b{word}\b", notes), (code, notes)
