"""`Game.only_move` answers exactly as listing `legal_moves` would, for every game that
answers it its own way, rules version and seat to act, at every position of bot games (the
driver asks it after every move: a wrong answer would play a choice for a person, or ask a
question with one answer); and the driver's `next_step` is the driver as it was written over
`legal_moves`, for every game."""

import pytest

import tests.sealed_cards  # noqa: F401  registers "sealed-cards"
from games.engine import Game, available_games, event_rng, get_game, next_step, playout
from games.engine.driver import FORCED, STANDING, AutomaticMove

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


# The default `only_move` lists `legal_moves` itself: only a game's own answer can differ.
OWN_ANSWER = [(game, n) for game, n in SIZES if type(game).only_move is not Game.only_move]


def name(value) -> str:
    return f"{value.slug}-v{value.version}" if hasattr(value, "slug") else str(value)


def listed_only_move(game, state, seat):
    legal = game.legal_moves(state, seat)
    return legal[0] if len(legal) == 1 else None


def test_a_game_answers_only_move_its_own_way():
    assert {game.slug for game, _n in OWN_ANSWER} == {"nieuwstad"}


@pytest.mark.parametrize(("game", "players"), OWN_ANSWER, ids=name)
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
    assert 0 < answers < positions  # positions with and without a choice


def listed_next_step(game, state, orders):
    """The driver as it was written over `legal_moves`: the reference for `next_step`."""
    if game.result(state) is not None:
        return None, []
    seats = game.to_act(state)
    forced = []
    for seat in seats:
        legal = game.legal_moves(state, seat)
        if len(legal) == 1 and not game.asks_when_forced(state, seat):
            forced.append(AutomaticMove(seat, legal[0], FORCED))
            continue
        if orders.get(seat):
            move = game.standing_move(state, seat, orders[seat])
            if move is not None:
                return AutomaticMove(seat, move, STANDING), []
    if forced and len(forced) == len(seats):
        return forced[0], []
    asked = [
        s for s in seats if len(game.legal_moves(state, s)) != 1 or game.asks_when_forced(state, s)
    ]
    return None, asked


@pytest.mark.parametrize(("game", "players"), SIZES, ids=name)
def test_the_drivers_next_step_is_the_one_written_over_legal_moves(game, players):
    """With every standing order on the last seat (so some positions resolve by them)."""
    orders = {players - 1: frozenset(o.key for o in game.standing_orders)}
    log = playout.play(game, players, seed=f"next-step-{players}")
    state = game.setup(playout.player_names(players), log.options, event_rng(log.seed, 0))
    sources = set()
    for seq, (seat, move, _source) in enumerate(log.log, start=1):
        expected = listed_next_step(game, state, orders)
        assert next_step(game, state, orders) == expected, (log.seed, seq)
        assert next_step(game, state) == listed_next_step(game, state, {}), (log.seed, seq)
        sources.add(expected[0].source if expected[0] else "asked")
        state = game.apply(state, seat, move, event_rng(log.seed, seq))
    assert len(sources) >= 2, sources  # of asked, forced and standing
