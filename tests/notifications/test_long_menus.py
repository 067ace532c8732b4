"""A long menu in the turn email: every legal move can be written from its plain text alone,
and the facts that decide it (a building's cost) are printed beside it; no 'examples'."""

import pytest

from games import services
from games.engine import canonical_json, event_rng
from games.selectors import load_state
from tests.games.rules.menus_check import commands_from_text

from .conftest import seat_of, start_match, turn_email

pytestmark = pytest.mark.django_db


def _play_until_long_menu(match, user, wanted: int = 31):
    """Anna plays her bots' choices until she faces more than `wanted` legal moves."""
    seat = seat_of(match, user)
    game = match.game
    for step in range(400):
        match.refresh_from_db()
        assert match.status == "active", "the match ended before a long menu"
        state = load_state(match)
        if seat not in match.to_act:
            raise AssertionError("the bots should play on at once")
        legal = game.legal_moves(state, seat)
        if len(legal) >= wanted:
            return state, seat
        move = game.bot_move(state, seat, event_rng("anna", step))
        result = services.submit_move(match_id=match.pk, seat=seat, move=move, source="web")
        assert result.ok, result
    raise AssertionError("no long menu in 400 moves")


def _choices_section(body: str) -> str:
    section = body.split("Your choices\n------------\n", 1)[1]
    return section.split("\n\n", 1)[0]


def test_a_long_nieuwstad_menu_is_complete_in_the_text_part(anna):
    match = start_match(anna, bots=2, game_slug="nieuwstad")
    state, seat = _play_until_long_menu(match, anna)
    body = turn_email(match, anna).body
    assert "possible moves" not in body and "like:" not in body
    section = _choices_section(body)
    game = match.game
    legal = {canonical_json(m) for m in game.legal_moves(state, seat)}
    read = {canonical_json(game.parse(c, state, seat)) for c in commands_from_text(section)}
    assert read == legal
    long = [line for line in section.splitlines() if len(line) > 78]
    assert not long, long
    html = turn_email(match, anna).alternatives[0][0]
    assert "possible moves" not in html


def test_a_nieuwstad_build_prints_each_buildings_cost(anna):
    match = start_match(anna, bots=2, game_slug="nieuwstad")
    state, seat = _play_until_long_menu(match, anna)
    body = turn_email(match, anna).body
    game = match.game
    for move in game.legal_moves(state, seat):
        if move["type"] == "build" and move["building"] == "house":
            assert "build house at ... (2 guilders + 3 wood; 2 points; +5 Burghers" in body
            break
