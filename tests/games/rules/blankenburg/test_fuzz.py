"""Any JSON value as a move, in positions from random playouts, raises IllegalMove and
nothing else and leaves the state as it was; every legal move at every position reads back
from its text (issue 12, items 4 and 5)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.blankenburg import GAME, GAME_V1
from tests.engine_fuzz import check_refusal, check_round_trips, moves_for, positions

COUNTS = (2, 3, 4, 5, 6)


def _pool(game):
    return [p for n in COUNTS for seed in ("a", "b") for p in positions(game, n, f"fuzz-{seed}")]


@pytest.mark.parametrize("game", [GAME, GAME_V1], ids=["v2", "v1"])
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_json_move_is_refused_cleanly(game, data):
    state, seat = data.draw(st.sampled_from(_pool(game)))
    check_refusal(game, state, seat, data.draw(moves_for(state, seat, game)))


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("seed", ["r1", "r2"])
def test_every_legal_move_round_trips_through_its_text(players, seed):
    assert check_round_trips(GAME, players, seed) > 50
