"""Bot games from setup to the end, through the platform's playout driver."""

import pytest

from games.engine import playout
from games.rules.new_england import GAME


@pytest.mark.parametrize("players", [3, 4])
def test_bot_games_end_and_replay(players):
    for n in range(30):
        options = {"setup": "placed"} if n % 5 == 0 else {}
        game = playout.play(GAME, players, seed=f"ne{players}-{n}", options=options, check=True)
        assert game.result is not None
        assert 8 <= game.final["round"] <= 20
        assert playout.replay(GAME, game) == game.final


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_a_thousand_bot_games_per_player_count(players):
    for n in range(1000):
        options = {"setup": "placed"} if n % 10 == 0 else {}
        game = playout.play(GAME, players, seed=f"slow{players}-{n}", options=options, check=True)
        assert game.result is not None
        playout.replay(GAME, game)
