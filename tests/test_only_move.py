"""`Game.only_move` answers exactly as listing `legal_moves` would, for every game, rules
version and seat to act, at every position of bot games (the driver asks it after every
move: a wrong answer would play a choice for a person, or ask a question with one answer)."""

import pytest

import tests.sealed_cards  # noqa: F401  registers "sealed-cards"
from games.engine import Game, available_games, event_rng, get_game, playout

VERSIONS = [
    get_game(game.slug, version)
    for game in available_games()
    for version in range(1, game.version + 1)
]
SIZES = [
    (game, n)
    for game in VERSIONS
    for n in sorted(
        {game.min_players, (game.min_players + game.max_players) // 2, game.max_players}
    )
]


def name(value) -> str:
    return f"{value.slug}-v{value.version}" if hasattr(value, "slug") else str(value)


def listed_only_move(game, state, seat):
    legal = game.legal_moves(state, seat)
    return legal[0] if len(legal) == 1 else None


@pytest.mark.parametrize(("game", "players"), SIZES, ids=name)
def test_only_move_is_the_one_legal_move_or_none(game, players):
    positions = answers = 0
    for n in range(3):
        log = playout.play(game, players, seed=f"only-{players}-{n}")
        state = game.setup(playout.player_names(players), log.options, event_rng(log.seed, 0))
        for seq, (seat, move, _source) in enumerate(log.log, start=1):
            for to_act in game.to_act(state):
                expected = listed_only_move(game, state, to_act)
                assert game.only_move(state, to_act) == expected, (log.seed, seq, to_act)
                answers += expected is not None
                positions += 1
            state = game.apply(state, seat, move, event_rng(log.seed, seq))
    assert positions > 0
    if type(game).only_move is not Game.only_move:
        # A game with its own answer is checked on positions with and without a choice.
        assert 0 < answers < positions
