"""Blankenburg's reference spells out the board's codes, and every menu can be written from
the email's text."""

import pytest

from games.commands import reference_text
from games.rules.blankenburg import GAME
from games.rules.blankenburg.data import CHARACTERS, EVENTS, VISITORS
from tests.games.rules.menus_check import check_compact_menu, check_numbered_menu, positions


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_legal_move_can_be_written_from_the_compact_text(players):
    checked = 0
    for n, (state, seat) in enumerate(positions(GAME, players, f"menu-{players}")):
        if n % 2:
            continue
        check_compact_menu(GAME, state, seat)
        check_numbered_menu(GAME, state, seat)
        checked += 1
    assert checked > 20


def test_the_brief_reference_spells_out_plans_codes_and_characters():
    for state, seat in positions(GAME, 4, "codes"):
        if state["players"][seat]["hand"] and state["phase"] == "build":
            break
    view = GAME.view(state, seat)
    text = reference_text(GAME, view, brief=True)
    assert "P prestige" in text and "I income" in text and "C capacity" in text
    assert "W wood, S stone, G glass, M marble, I iron" in text
    for plan in view["you"]["hand"]:
        assert plan["name"] in text
    flat = " ".join(text.split())
    for player in view["players"]:
        assert f"{player['name']} {player['character']} {player['character_text']}" in flat
    assert all(len(line) <= 78 for line in text.splitlines())


def test_the_full_reference_lists_every_character_visitor_and_event():
    state, seat = next(positions(GAME, 3, "full"))
    sections = {s.key: s for s in GAME.reference(GAME.view(state, seat))}
    assert len(sections["all_characters"].rows) == len(CHARACTERS)
    assert len(sections["visitors"].rows) == len(VISITORS)
    assert len(sections["events"].rows) == len(EVENTS)


def test_a_spectator_sees_no_hand():
    state, seat = next(positions(GAME, 3, "spectator"))
    sections = {s.key: s for s in GAME.reference(GAME.view(state, None))}
    assert all("(communal)" in row[0] for row in sections["plans"].rows)
