"""Nieuwstad's compact menu and reference: every build can be written from the email's text,
and the building table gives each building's cost, points, Burghers, size and sides."""

import pytest

from games.commands import choices_text, reference_text
from games.engine.menus import render_reference
from games.rules.nieuwstad import GAME
from games.rules.nieuwstad.data import ALL_BUILDINGS
from tests.games.rules.menus_check import check_compact_menu, check_numbered_menu, positions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_move_can_be_written_from_the_compact_text(players):
    checked = biggest = 0
    for n, (state, seat) in enumerate(positions(GAME, players, f"menu-{players}")):
        if n % 3 and len(GAME.legal_moves(state, seat)) < 40:
            continue  # every big menu, a third of the small ones
        biggest = max(biggest, check_compact_menu(GAME, state, seat))
        checked += 1
    assert checked > 20
    assert biggest > 60, "the playout should reach a long build menu"


def test_short_menus_stay_numbered():
    for n, (state, seat) in enumerate(positions(GAME, 3, "numbered")):
        if n % 5 == 0:
            check_numbered_menu(GAME, state, seat)


def build_position():
    for state, seat in positions(GAME, 3, "menu-3"):
        moves = GAME.legal_moves(state, seat)
        if sum(m["type"] == "build" for m in moves) > 60:
            return state, seat
    raise AssertionError("no long build menu in the playout")


def test_a_long_build_menu_prints_every_buildings_cost_and_places():
    state, seat = build_position()
    text = choices_text(GAME, state, seat)
    assert "example" not in text.lower()
    built = {m["building"] for m in GAME.legal_moves(state, seat) if m["type"] == "build"}
    for key in built - {"boat"}:
        b = ALL_BUILDINGS[key]
        line = next(
            line for line in text.splitlines() if line.startswith(f"  build {b.name.lower()} at")
        )
        following = text[text.index(line) :]
        assert f"{b.guilders} guilder" in following.split("\n", 2)[0] + following.split("\n")[1]
        assert f"{b.wood} wood" in following.split("\n", 2)[0] + following.split("\n")[1]


def test_the_building_table_lists_every_building_with_its_facts():
    state, seat = build_position()
    sections = GAME.reference(GAME.view(state, seat))
    table = next(s for s in sections if s.key == "buildings")
    assert len(table.rows) == len(ALL_BUILDINGS)
    house = next(r for r in table.rows if r[0] == "House")
    b = ALL_BUILDINGS["house"]
    assert house[1:6] == [str(b.guilders), str(b.wood), str(b.points), f"{b.burghers:+d}", "1"]
    assert house[7] == " ".join(b.edges)
    text = render_reference(sections)
    assert all(len(line) <= 78 for line in text.splitlines())
    assert "Sides: front, right, back, left" in text


def test_the_hand_is_in_the_brief_reference_only_for_its_owner():
    found = (
        (state, seat)
        for n in range(20)
        for state, seat in positions(GAME, 4, f"hand-{n}")
        if state["players"][seat]["hand"] and state["phase"] != "over"
    )
    state, seat = next(found)
    own = reference_text(GAME, GAME.view(state, seat), brief=True)
    assert "Your cards" in own
    spectator = reference_text(GAME, GAME.view(state, None), brief=True)
    assert "Your cards" not in spectator
