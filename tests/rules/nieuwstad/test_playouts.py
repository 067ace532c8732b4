"""Random bot games through the engine: contract checks at every step, replays, endings."""

import pytest

from games.engine import playout
from games.rules.nieuwstad import GAME


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_games_end_and_replay(players):
    for n in range(30):
        game = playout.play(GAME, players, seed=f"fast-{players}-{n}", check=n < 4)
        assert game.result is not None
        assert game.final["round"] <= 20, "a bot game should end in a sensible number of rounds"
        assert playout.replay(GAME, game) == game.final


@pytest.mark.parametrize("options", [{"joint": True}, {"blue_alone": True}])
def test_variants_play_out(options):
    players = 2 if "blue_alone" in options else 3
    for n in range(4):
        game = playout.play(GAME, players, seed=f"variant-{n}", options=options, check=True)
        assert game.result is not None


def _light_check(state):
    GAME.check_invariants(state)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_thousand_games_with_invariants_and_replays(players, monkeypatch):
    """1,000 games per player count: invariants after every move, each replayed by digest."""
    original = GAME.apply

    def checked_apply(state, seat, move, rng):
        state = original(state, seat, move, rng)
        GAME.check_invariants(state)
        return state

    monkeypatch.setattr(GAME, "apply", checked_apply)
    for n in range(1000):
        game = playout.play(GAME, players, seed=f"slow-{players}-{n}", check=n % 100 == 0)
        assert game.result is not None
        assert game.final["round"] <= 25
        assert playout.replay(GAME, game) == game.final
