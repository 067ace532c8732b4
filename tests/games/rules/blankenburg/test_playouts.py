"""Random bot playouts: games end, invariants hold after every move, replays match."""

import pytest

from games.engine import GENESIS, chain_digest, event_rng, playout
from games.rules.blankenburg import GAME


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_fast_playouts_with_full_contract_checks(players):
    for n in range(4):
        options = {"board": "back"} if n % 2 else {}
        if players == 2 and n % 3 == 2:
            options["master_builder"] = True
        game = playout.play(GAME, players, seed=f"fast-{players}-{n}", options=options, check=True)
        assert game.result is not None
        assert playout.replay(GAME, game) == game.final


def bot_game(players: int, seed: str, options: dict) -> playout.Playout:
    """A bot game with the invariants checked after every move. Lighter than
    `playout.play(check=True)` (which also enumerates legal moves and views every seat at
    every step): it records only the final digest, so the slow test fits its time budget."""
    options = GAME.validate_options(players, options)
    state = GAME.setup(playout.player_names(players), options, event_rng(seed, 0))
    game = playout.Playout(seed=seed, players=players, options=options)
    while GAME.result(state) is None:
        assert len(game.log) < 2000, f"no end after 2000 moves (seed {seed})"
        seats = GAME.to_act(state)
        bot_rng = event_rng(seed + ":bot", len(game.log) + 1)
        seat = seats[0] if len(seats) == 1 else bot_rng.choice(seats)
        move = GAME.bot_move(state, seat, bot_rng)
        state = GAME.apply(state, seat, move, event_rng(seed, len(game.log) + 1))
        GAME.check_invariants(state)
        game.log.append((seat, move, "bot"))
    game.final = state
    return game


def replay_final(game: playout.Playout) -> dict:
    options = game.options
    state = GAME.setup(playout.player_names(game.players), options, event_rng(game.seed, 0))
    for seq, (seat, move, _source) in enumerate(game.log, start=1):
        state = GAME.apply(state, seat, move, event_rng(game.seed, seq))
    return state


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_hundreds_of_games_per_player_count(players):
    """250 games per player count (1,000, then 500, until CI had to fit in 30 minutes on a
    slower box), both board
    sides, the master builder in a third of the two-player games. Every game is replayed to
    the same final digest; every 25th seed is also played through the platform's
    `playout.play` (forced moves resolved by the driver) and replayed with `playout.replay`,
    which checks the chained digest after every move."""
    for n in range(250):
        options = {"board": "back"} if n % 2 else {}
        if players == 2 and n % 3 == 2:
            options["master_builder"] = True
        seed = f"slow-{players}-{n}"
        game = bot_game(players, seed, options)
        assert GAME.result(game.final) is not None
        final_digest = chain_digest(GENESIS, game.final)
        assert chain_digest(GENESIS, replay_final(game)) == final_digest
        if n % 25 == 0:
            full = playout.play(GAME, players, seed, options=options)
            assert playout.replay(GAME, full) == full.final
