"""Shared by the per-game fuzz tests: positions from random playouts, and arbitrary JSON
moves, some wholly random and some a legal move with one field replaced."""

from __future__ import annotations

import functools

from hypothesis import strategies as st

from games.engine import Game, IllegalMove, copy_state, event_rng, next_automatic, seats_to_ask
from games.engine.playout import player_names

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-3, max_value=40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@functools.cache
def positions(game: Game, players: int, seed: str, every: int = 3) -> tuple:
    """(state, seat) pairs along one bot playout: every `every`-th decision, each seat to act."""
    options = game.validate_options(players, {})
    state = game.setup(player_names(players), options, event_rng(seed, 0))
    found = []
    seq = 0
    while game.result(state) is None and seq < 5000:
        seq += 1
        automatic = next_automatic(game, state)
        if automatic is not None:
            seat, move = automatic.seat, automatic.move
        else:
            seats = seats_to_ask(game, state)
            rng = event_rng(seed + ":bot", seq)
            seat = rng.choice(seats)
            move = game.bot_move(state, seat, rng)
        if seq % every == 0:
            for s in game.to_act(state):
                found.append((copy_state(state), s))
        state = game.apply(state, seat, move, event_rng(seed, seq))
    found.append((copy_state(state), 0))  # the end: every move is refused
    return tuple(found)


@st.composite
def moves_for(draw, state, seat, game: Game):
    """A wholly random JSON value, a random object with a known type, or a legal move with
    one field replaced or added."""
    how = draw(st.sampled_from(["random", "typed", "mutated", "mutated"]))
    if how == "random":
        return draw(json_values)
    legal = game.legal_moves(state, seat) if game.result(state) is None else []
    types = sorted({m["type"] for m in legal} | set(game.move_fields)) or ["pass"]
    if how == "typed" or not legal:
        fields = draw(st.dictionaries(st.text(max_size=8), json_values, max_size=3))
        return {**fields, "type": draw(st.sampled_from(types))}
    move = dict(draw(st.sampled_from(legal)))
    keys = sorted(move)
    key = draw(st.sampled_from([*keys, "extra"]))
    move[key] = draw(json_values | st.sampled_from([True, False, 3.0, -1, 10**30, [], {}, ""]))
    return move


def check_refusal(game: Game, state, seat, move) -> None:
    """`apply` either plays the move or raises IllegalMove leaving the state as it was."""
    before = copy_state(state)
    working = copy_state(state)
    try:
        game.apply(working, seat, move, event_rng("fuzz", 1))
    except IllegalMove as error:
        assert error.message, "an IllegalMove without a sentence"
        assert working == before, f"state changed by the refused move {move!r}"


def check_round_trips(game: Game, players: int, seed: str) -> int:
    """parse(format_move(m)) == m for every legal move of every seat to act, at every
    position of one bot playout. Returns how many moves were checked."""
    checked = 0
    for state, seat in positions(game, players, seed, every=1):
        if game.result(state) is not None:
            continue
        for move in game.legal_moves(state, seat):
            text = game.format_move(state, seat, move)
            assert game.parse(text, state, seat) == move, f"{text!r} does not read back as {move}"
            checked += 1
    return checked
