"""Random bot games through the engine: contract checks at every step, replays, endings."""

import pytest

from games.engine import GENESIS, chain_digest, event_rng, playout
from games.rules.nieuwstad import GAME
from games.rules.nieuwstad.bots import bot_choice


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_games_end_and_replay(players):
    for n in range(12):
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


def checked_game(players: int, seed: str) -> playout.Playout:
    """A bot game like playout.play, enumerating each decision's moves once, with the
    invariants checked after every move and the digests chained for the replay."""
    options = GAME.validate_options(players, {})
    state = GAME.setup(playout.player_names(players), options, event_rng(seed, 0))
    game = playout.Playout(seed=seed, players=players, options=options)
    digest = GENESIS
    GAME.check_invariants(state)
    while GAME.result(state) is None:
        assert len(game.log) < 5000, f"no end (seed {seed})"
        seats = GAME.to_act(state)
        menus = {}
        forced = None
        for seat in seats:
            menus[seat] = GAME.legal_moves(state, seat)
            assert menus[seat], f"seat {seat} must act but has no legal move"
            if len(menus[seat]) == 1:
                forced = seat
                break
        bot_rng = event_rng(seed + ":bot", len(game.log) + 1)
        if forced is not None:
            seat, move = forced, menus[forced][0]
        else:
            seat = seats[0] if len(seats) == 1 else bot_rng.choice(seats)
            move = bot_choice(state, seat, menus[seat], bot_rng)
        state = GAME.apply(state, seat, move, event_rng(seed, len(game.log) + 1))
        GAME.check_invariants(state)
        game.log.append((seat, move, "bot"))
        digest = chain_digest(digest, state)
        game.digests.append(digest)
    game.final = state
    return game


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_hundreds_of_games_with_invariants_and_replays(players):
    """150 games per player count (1,000, then 300, until CI had to fit in 30 minutes on a
    slower box): invariants after every move, each replayed by digest; every 50th game also
    runs the engine's full contract check."""
    for n in range(150):
        if n % 50 == 0:
            game = playout.play(GAME, players, seed=f"slow-{players}-{n}", check=True)
        else:
            game = checked_game(players, f"slow-{players}-{n}")
        assert GAME.result(game.final) is not None
        assert game.final["round"] <= 25
        assert playout.replay(GAME, game) == game.final


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_final_score_is_the_sum_of_its_parts(players):
    for n in range(5):
        result = playout.play(GAME, players, seed=f"parts-{players}-{n}").result
        sums = [sum(points for _what, points in parts) for parts in result["details"]["breakdown"]]
        assert sums == result["scores"]
        assert [note.rsplit(" = ", 1)[1] for note in result["notes"][:players]] == [
            str(score) for score in result["scores"]
        ]
