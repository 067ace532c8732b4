"""The rules contract for every registered game: any JSON value as a move gets IllegalMove
and nothing else, and a refused move leaves the state as it was (issue 12, item 4)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove, available_games, check_move, places
from games.engine.contract import Result, score_line, shared_groups
from tests.engine_fuzz import check_refusal, check_round_trips, moves_for, positions

GAMES = {g.slug: g for g in available_games()}


@pytest.mark.parametrize("slug", sorted(GAMES))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_json_move_is_refused_cleanly_in_every_game(slug, data):
    game = GAMES[slug]
    pool = positions(game, game.min_players, f"fuzz-{slug}") + positions(
        game, game.max_players, f"fuzz-{slug}"
    )
    state, seat = data.draw(st.sampled_from(pool))
    move = data.draw(moves_for(state, seat, game))
    check_refusal(game, state, seat, move)


@pytest.mark.parametrize(
    "move, words",
    [
        (3, "JSON object"),
        ([{"type": "pass"}], "JSON object"),
        ({"kind": "pass"}, '"type"'),
        ({"type": 7}, '"type"'),
        ({"type": "pass", "count": 3.0}, "whole numbers"),
        ({"type": "pass", "count": 10**30}, "too large"),
        ({"type": "pass", "x": [[[[[[[[1]]]]]]]]}, "nested"),
        ({"type": "pass", "x": "a" * 1000}, "longer"),
    ],
)
def test_the_shape_of_a_move_is_checked_before_the_rules(move, words):
    game = GAMES["sealed-cards"]  # declares no move_fields: the generic checks
    with pytest.raises(IllegalMove, match=words):
        check_move(game, move)


def test_declared_fields_are_checked_by_kind():
    game = GAMES["blankenburg"]
    with pytest.raises(IllegalMove, match="whole number"):
        check_move(game, {"type": "bid", "silver": True})
    with pytest.raises(IllegalMove, match="no field"):
        check_move(game, {"type": "bid", "silver": 1, "gold": 2})
    with pytest.raises(IllegalMove, match="no 'fly' move"):
        check_move(game, {"type": "fly"})
    with pytest.raises(IllegalMove, match="whole number"):
        check_move(game, {"type": "bid", "silver": 3.0})
    with pytest.raises(IllegalMove, match="whole number"):
        check_move(game, {"type": "bid", "silver": 10**30})
    with pytest.raises(IllegalMove, match="list of words"):
        check_move(game, {"type": "select", "resources": ["wood", ["stone"]]})
    check_move(game, {"type": "bid", "silver": 1})


def test_places_are_shared_by_a_full_tie():
    result = Result(scores=[5, 7, 7, 2], ranking=[1, 2, 0, 3], shared=[[1, 2]]).as_json()
    assert places(result) == [(1, 1, True), (1, 2, True), (3, 0, False), (4, 3, False)]


def test_places_of_a_result_stored_before_sharing_are_all_apart():
    assert places({"ranking": [2, 0, 1], "scores": [1, 1, 1]}) == [
        (1, 2, False),
        (2, 0, False),
        (3, 1, False),
    ]


def test_shared_groups_are_runs_of_neighbours():
    scores = [3, 3, 1, 3]
    assert shared_groups([0, 1, 3, 2], lambda a, b: scores[a] == scores[b]) == [[0, 1, 3]]
    assert shared_groups([0, 2, 1], lambda a, b: scores[a] == scores[b]) == []


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_legal_move_reads_back_from_its_text(slug):
    """Issue 12, item 5: the text protocol round-trips every legal move at every position of
    a playout, not only the moves bots choose."""
    game = GAMES[slug]
    checked = 0
    for players in sorted({game.min_players, game.max_players}):
        checked += check_round_trips(game, players, f"round-trip-{slug}")
    assert checked > 20


def test_a_score_line_is_a_sum_a_player_can_check():
    parts = [("points in play", 21), ("Statue", 4), ("damaged", -2)]
    assert score_line("Cor", parts) == "Cor: 21 points in play + 4 Statue - 2 damaged = 23"
    assert score_line("Bram", [("points in play", 9)]) == "Bram: 9 points in play = 9"
