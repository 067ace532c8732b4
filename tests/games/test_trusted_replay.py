"""Loading a position replays the log through `game.replay_move` (`games.replay.replay_rows`),
which skips the shape check every move passed when it was appended. It must give the same
positions, and so the same chained digests, as the checked replay `verify_match` uses
(`apply_logged`, through `apply`), for every game, including across a takeback."""

import json

import pytest

import tests.sealed_cards  # noqa: F401  registers "sealed-cards"
from games.engine import available_games, chain_digest, copy_state, get_game, playout
from games.replay import (
    TAKEBACK,
    LoggedMove,
    NeedsEarlierPosition,
    apply_logged,
    initial_digest,
    initial_state,
    positions,
    replay_rows,
    states_after,
)

# Every rules version still loadable (old matches replay with theirs), both ends of each
# game's player counts.
VERSIONS = [
    get_game(game.slug, version)
    for game in available_games()
    for version in range(1, game.version + 1)
]
SIZES = [(game, n) for game in VERSIONS for n in (game.min_players, game.max_players)]


def name(value) -> str:
    return f"{value.slug}-v{value.version}" if hasattr(value, "slug") else str(value)


def stored_rows(game_log) -> list[tuple]:
    """The log as `load_state` reads it: payloads decoded from stored JSON."""
    return [
        (seq, seat, "move", json.loads(json.dumps(move)))
        for seq, (seat, move, _source) in enumerate(game_log.log, start=1)
    ]


def checked_digests(game, state, rows, seed) -> tuple[object, list[str]]:
    digests, previous, prior = [], initial_digest(state), None
    for seq, seat, kind, payload in rows:
        before = copy_state(state)
        state = apply_logged(game, state, LoggedMove(seq, seat, kind, payload), seed, prior)
        prior = before
        previous = chain_digest(previous, state)
        digests.append(previous)
    return state, digests


def trusted_digests(game, state, rows, seed) -> tuple[object, list[str]]:
    """Row by row through replay_rows; a takeback is replayed with the row it cancels, from
    the position before that row."""
    digests, previous, before = [], initial_digest(state), {}
    for index, row in enumerate(rows):
        if row[2] == TAKEBACK:
            state = replay_rows(
                game, copy_state(before[index - 1]), rows[index - 1 : index + 1], seed
            )
        else:
            before[index] = copy_state(state)
            state = replay_rows(game, state, [row], seed)
        previous = chain_digest(previous, state)
        digests.append(previous)
    return state, digests


@pytest.mark.parametrize(("game", "players"), SIZES, ids=name)
def test_trusted_replay_gives_the_checked_positions_and_digests(game, players):
    names = playout.player_names(players)
    game_log = playout.play(game, players, seed=f"trusted-{players}")
    rows = stored_rows(game_log)
    setup = initial_state(game, names, game_log.options, game_log.seed)

    whole = replay_rows(game, copy_state(setup), rows, game_log.seed)
    checked, checked_chain = checked_digests(game, copy_state(setup), rows, game_log.seed)
    trusted, trusted_chain = trusted_digests(game, copy_state(setup), rows, game_log.seed)

    assert whole == checked == trusted == game_log.final
    assert trusted_chain == checked_chain


def twelve_moves_and_a_takeback(game, seed: str):
    """A bot game's first 12 moves, a takeback of the 12th, and the 12th made again (under a
    new seq): the game's log, its setup, the rows and the seq taken back."""
    players = game.min_players
    game_log = playout.play(game, players, seed=seed)
    rows = stored_rows(game_log)[:12]
    k = len(rows)
    seat, move = rows[-1][1], rows[-1][3]
    rows += [(k + 1, seat, TAKEBACK, {"cancels": k}), (k + 2, seat, "move", move)]
    setup = initial_state(game, playout.player_names(players), game_log.options, game_log.seed)
    return game_log, setup, rows, k


@pytest.mark.parametrize("game", VERSIONS, ids=name)
def test_trusted_replay_follows_a_takeback_like_the_checked_one(game):
    """A takeback after move k returns to the position before it; the move is then made again
    (under a new seq, so with its own rng). Both replays agree, and a replay that starts on the
    takeback (no earlier position) asks for one."""
    game_log, setup, rows, k = twelve_moves_and_a_takeback(game, "trusted-takeback")

    checked, checked_chain = checked_digests(game, copy_state(setup), rows, game_log.seed)
    trusted = replay_rows(game, copy_state(setup), rows, game_log.seed)
    _, trusted_chain = trusted_digests(game, copy_state(setup), rows, game_log.seed)

    assert trusted == checked
    assert trusted_chain == checked_chain
    with pytest.raises(NeedsEarlierPosition):
        replay_rows(game, copy_state(setup), rows[k:], game_log.seed)


@pytest.mark.parametrize("game", VERSIONS, ids=name)
def test_the_history_and_the_timeline_see_the_checked_positions_across_a_takeback(game):
    """`positions` (the history) and `states_after` (the replay's timeline) replay through
    the trusted `replay_move`; each position after an entry is the checked replay's, and so
    is each position before one, with a takeback in the log."""
    game_log, setup, rows, _k = twelve_moves_and_a_takeback(game, "history-takeback")
    entries = [LoggedMove(*row) for row in rows]

    checked, state, prior = [], copy_state(setup), None
    for entry in entries:
        before = copy_state(state)
        state = apply_logged(game, state, entry, game_log.seed, prior)
        prior = before
        checked.append((before, copy_state(state)))

    seen = [
        (before, copy_state(after))
        for _entry, before, after in positions(game, copy_state(setup), entries, game_log.seed)
    ]
    timeline = [
        copy_state(after)
        for _entry, after in states_after(game, copy_state(setup), entries, game_log.seed)
    ]
    assert seen == checked
    assert timeline == [after for _before, after in checked]


class NewsOfEachMove:
    """A game whose every move starts fresh news, and writes it only when narrated: a
    replay that leaves unnarrated a move whose news a position shows gives "(not told)"."""

    def replay_move(self, state, seat, move, rng, narrate=True):
        state["moves"] += 1
        state["news"] = [f"move {move['n']}" if narrate else "(not told)"]
        return state


def narrating_everything(rows) -> dict:
    """The reference: every move narrated, a takeback restoring the position before the
    entry it cancels."""
    state, history = {"moves": 0, "news": []}, []
    for _seq, _seat, kind, payload in rows:
        history.append(copy_state(state))
        if kind == "move":
            state["moves"] += 1
            state["news"] = [f"move {payload['n']}"]
        elif kind == TAKEBACK:
            state = copy_state(history[-2])
    return state


def rows_of(kinds: str) -> list[tuple]:
    """m a move, t a takeback, r a resignation (leaves the position as it was)."""
    kind = {"m": "move", "t": TAKEBACK, "r": "resign"}
    return [(seq, 0, kind[k], {"n": seq}) for seq, k in enumerate(kinds, start=1)]


@pytest.mark.parametrize(
    "kinds", ["m", "mmm", "mmr", "mmrr", "r", "", "mmt", "mmtm", "mmmtt", "mtmtm", "mmtr", "mrmt"]
)
def test_a_replay_narrates_every_move_whose_news_a_position_shows(kinds):
    rows = rows_of(kinds)
    assert replay_rows(NewsOfEachMove(), {"moves": 0, "news": []}, rows, "seed") == (
        narrating_everything(rows)
    )


def test_a_replay_without_takebacks_narrates_only_the_last_move():
    told = []

    class Recording(NewsOfEachMove):
        def replay_move(self, state, seat, move, rng, narrate=True):
            told.append(narrate)
            return super().replay_move(state, seat, move, rng, narrate)

    replay_rows(Recording(), {"moves": 0, "news": []}, rows_of("mmmmr"), "seed")
    assert told == [False, False, False, True]


@pytest.mark.parametrize("game", VERSIONS, ids=name)
@pytest.mark.parametrize("ending", ["takeback", "resign"])
def test_a_replay_that_ends_on_a_takeback_or_resignation_shows_the_right_news(game, ending):
    """The position after a takeback (or a resignation) shows an earlier move's news: the
    replay must narrate that move although later ones follow it."""
    players = game.min_players
    names = playout.player_names(players)
    game_log = playout.play(game, players, seed="trusted-news")
    rows = stored_rows(game_log)[:12]
    k = len(rows)
    rows.append((k + 1, rows[-1][1], ending, {"cancels": k} if ending == TAKEBACK else {}))
    setup = initial_state(game, names, game_log.options, game_log.seed)

    checked, _ = checked_digests(game, copy_state(setup), rows, game_log.seed)
    assert replay_rows(game, copy_state(setup), rows, game_log.seed) == checked
