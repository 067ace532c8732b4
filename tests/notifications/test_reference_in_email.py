"""Nieuwstad's turn email carries the page's reference (the building table, the forest tiles,
the sales at the stalls) from the same source, readable in a plain-text mail client: each
building's choices under its own heading, and the board's legend never split inside a term."""

import re

import pytest

from games import services
from games.commands import reference_text
from games.engine import event_rng
from games.rules.nieuwstad.data import BUILDINGS
from games.rules.nieuwstad.reference import building_note
from games.rules.nieuwstad.view import CODES
from games.selectors import load_state

from .conftest import seat_of, start_match, turn_email

pytestmark = pytest.mark.django_db


def _same_cost_builds(game, state, seat) -> set[str]:
    """Buildings Anna may build now whose menu note (cost, points, size) another shares."""
    built = {m["building"] for m in game.legal_moves(state, seat) if m["type"] == "build"}
    notes = [building_note(b) for b in built]
    return {b for b in built if notes.count(building_note(b)) > 1}


def _play_until_numbered_twin_builds(match, user):
    """Anna plays her bot's choices until her numbered menu offers two buildings that cost
    the same (as a baker and a butcher do)."""
    seat = seat_of(match, user)
    game = match.game
    for step in range(400):
        match.refresh_from_db()
        assert match.status == "active", "the match ended first"
        state = load_state(match)
        assert seat in match.to_act, "the bots should play on at once"
        if len(game.legal_moves(state, seat)) <= 30 and _same_cost_builds(game, state, seat):
            return state, seat
        move = game.bot_move(state, seat, event_rng("anna", step))
        assert services.submit_move(match_id=match.pk, seat=seat, move=move, source="web").ok
    raise AssertionError("no numbered menu with two same-cost buildings in 400 moves")


@pytest.fixture
def nieuwstad_turn(anna):
    # a seed whose playout offers Anna a numbered menu with two same-cost buildings
    match = start_match(anna, bots=2, game_slug="nieuwstad", seed="twin-builds-1")
    state, seat = _play_until_numbered_twin_builds(match, anna)
    message = turn_email(match, anna)
    return match, state, seat, message.body, message.alternatives[0][0]


def test_the_text_part_has_the_pages_building_table_forest_and_sales(nieuwstad_turn):
    match, state, seat, body, html = nieuwstad_turn
    game = match.game
    view = game.view(state, seat)
    sections = {s.key: s for s in game.reference(view)}  # what the match page shows
    for key in ("buildings", "forest", "sales"):
        assert f"\n{sections[key].title}\n" in body
    reference = reference_text(game, view, brief=True)
    assert reference in body
    table = ("\n" + reference).split("\nBuildings\n", 1)[1].split("\n\n", 1)[0]
    rows = {
        cells[0]: cells for cells in (re.split(r"\s{2,}", s.strip()) for s in table.split("\n"))
    }
    for row in sections["buildings"].rows:
        # name, guilders, wood, points, Burghers, size, left, sides, kind: one line, as on
        # the page
        assert rows[row[0]] == row, (rows[row[0]], row)
    long = [line for line in reference.splitlines() if len(line) > 78]
    assert not long, long
    assert table.splitlines()[1] in html  # the HTML part shows the same table


def test_each_buildings_choices_sit_under_its_own_heading(nieuwstad_turn):
    match, state, seat, body, html = nieuwstad_turn
    twins = _same_cost_builds(match.game, state, seat)
    assert len(twins) >= 2
    choices = body.split("Your choices\n------------\n", 1)[1].split("\n\n", 1)[0]
    heading = ""
    seen = set()
    for line in choices.splitlines():
        if not re.match(r"\s*\d+\. ", line):
            heading = line.strip()
            continue
        move = line.split(". ", 1)[1]
        for key in twins:
            name = BUILDINGS[key].name.lower()
            if move.startswith(f"build {name} "):
                assert heading.startswith(f"build {name}: {building_note(key)}"), (line, heading)
                seen.add(key)
    assert seen == twins


def _wrapped(lines: list[str], lead: str) -> list[str]:
    """The line starting with `lead` and the lines indented under it."""
    start = next(i for i, line in enumerate(lines) if line.startswith(lead))
    out = [lines[start]]
    for line in lines[start + 1 :]:
        if not line.startswith(" " * len(lead)):
            break
        out.append(line)
    return out


def test_no_legend_entry_is_split_across_lines(nieuwstad_turn):
    match, state, seat, body, html = nieuwstad_turn
    lines = body.splitlines()
    legend = _wrapped(lines, "  Codes: ")
    for key, code in CODES.items():
        entry = f"{code}={BUILDINGS[key].name}"
        assert any(entry in line for line in legend), (entry, legend)
    supply = _wrapped(lines, "Buildings left: ")
    for left in match.game.view(state, seat)["supply"]:
        entry = f"{left['name']} {left['count']}"
        assert any(entry in line for line in supply), (entry, supply)
    assert all(len(line) <= 78 for line in legend + supply)


def test_a_long_heading_wraps_between_terms(anna):
    match = start_match(anna, bots=2, game_slug="nieuwstad", seed="twin-builds-1")
    body = turn_email(match, anna).body  # the opening: each player clears a forest tile
    choices = body.split("Your choices\n------------\n", 1)[1].split("\n\n", 1)[0]
    assert "take forest:" in choices
    assert any("2 wood and 1 game" in line for line in choices.splitlines())
    long = [line for line in choices.splitlines() if len(line) > 78]
    assert not long, long
