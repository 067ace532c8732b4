"""Blankenburg's `replay_move` (the log's moves, whose-turn and game-over checks not asked
again) gives the positions `apply` gives, move by move, on both boards, with the master
builder, at every player count and in both rules versions; unnarrated, the same but for
the news it does not write."""

import json

import pytest

from games.engine import GENESIS, canonical_json, chain_digest, copy_state, get_game, playout
from games.engine.rng import event_rng
from games.replay import initial_state, replay_rows

CASES = [
    (version, players, options)
    for version in (1, 2)
    for players in range(2, 7)
    for options in ({"board": "front"}, {"board": "back"})
] + [(version, 2, {"master_builder": True}) for version in (1, 2)]


def case_id(case) -> str:
    version, players, options = case
    return f"v{version}-{players}p-" + "-".join(f"{k}={v}" for k, v in options.items())


def played(case):
    """The case's game, seed, bot match, its log as stored rows, and its first position."""
    version, players, options = case
    game = get_game("blankenburg", version)
    seed = f"fast-path-{case_id(case)}"
    game_log = playout.play(game, players, seed=seed, options=options)
    names = playout.player_names(players)
    rows = [
        (seq, seat, "move", json.loads(json.dumps(move)))
        for seq, (seat, move, _source) in enumerate(game_log.log, start=1)
    ]
    setup = initial_state(game, names, game_log.options, seed)
    return game, seed, game_log, rows, setup


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_replay_move_gives_apply_s_positions(case):
    game, seed, game_log, rows, setup = played(case)

    checked, trusted = copy_state(setup), copy_state(setup)
    checked_chain, trusted_chain = GENESIS, GENESIS
    for row in rows:
        seq, seat, _kind, move = row
        checked = game.apply(checked, seat, move, event_rng(seed, seq))
        trusted = replay_rows(game, trusted, [row], seed)
        checked_chain = chain_digest(checked_chain, checked)
        trusted_chain = chain_digest(trusted_chain, trusted)
        assert trusted_chain == checked_chain, f"positions differ after move {seq}"
    assert trusted_chain == game_log.digests[-1]
    assert trusted == game_log.final


def all_but_news(state) -> str:
    return canonical_json({key: value for key, value in state.items() if key != "news"})


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_an_unnarrated_replay_move_changes_all_but_the_news_as_apply_does(case):
    game, seed, game_log, rows, setup = played(case)

    checked, quiet = copy_state(setup), copy_state(setup)
    for seq, seat, _kind, move in rows:
        checked = game.apply(checked, seat, move, event_rng(seed, seq))
        quiet = game.replay_move(quiet, seat, move, event_rng(seed, seq), narrate=False)
        assert all_but_news(quiet) == all_but_news(checked), f"positions differ after move {seq}"
        assert list(quiet) == list(checked)  # the same keys in the same order
    # A whole replay narrates only its last move: its position is exactly the match's.
    replayed = replay_rows(game, copy_state(setup), rows, seed)
    assert canonical_json(replayed) == canonical_json(game_log.final)
    assert replayed == game_log.final
    assert chain_digest(game_log.digests[-2], replayed) == game_log.digests[-1]
