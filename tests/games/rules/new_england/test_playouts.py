"""Bot games from setup to the end, through the platform's playout driver."""

import json

import pytest

from games.engine import GENESIS, chain_digest, event_rng, playout
from games.rules.new_england import GAME


@pytest.mark.parametrize("players", [3, 4])
def test_bot_games_end_and_replay(players):
    for n in range(10):
        options = {"setup": "placed"} if n % 5 == 0 else {}
        game = playout.play(GAME, players, seed=f"ne{players}-{n}", options=options, check=True)
        assert game.result is not None
        assert 8 <= game.final["round"] <= 20
        assert playout.replay(GAME, game) == game.final


def replay_checking_every_move(game: playout.Playout) -> dict:
    """Replay a playout, checking the invariants after every move and every digest.

    Lighter than `playout.play(check=True)`, which also renders every seat's view at every
    position: hundreds of games per player count must fit in the slow suite's budget.
    """
    names = playout.player_names(game.players)
    state = GAME.setup(names, game.options, event_rng(game.seed, 0))
    GAME.check_invariants(state)
    previous = GENESIS
    for seq, ((seat, move, _source), expected) in enumerate(
        zip(game.log, game.digests, strict=True), start=1
    ):
        assert seat in GAME.to_act(state)
        state = GAME.apply(state, seat, move, event_rng(game.seed, seq))
        GAME.check_invariants(state)
        previous = chain_digest(previous, state)
        assert previous == expected, f"replay differs at seq {seq}"
    assert json.loads(json.dumps(state)) == state
    return state


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_hundreds_of_bot_games_per_player_count(players):
    """200 games per player count (1,000, then 400, until CI had to fit in 30 minutes on a
    slower box)."""
    rounds = []
    for n in range(200):
        options = {"setup": "placed"} if n % 10 == 0 else {}
        # every 50th game also runs the platform's full per-position contract check
        check = n % 50 == 0
        game = playout.play(GAME, players, seed=f"slow{players}-{n}", options=options, check=check)
        assert game.result is not None
        final = replay_checking_every_move(game)
        assert final == game.final
        rounds.append(final["round"])
    assert 8 <= sum(rounds) / len(rounds) <= 16
