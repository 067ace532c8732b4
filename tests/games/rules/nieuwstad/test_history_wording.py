"""The history reads as English: "accepted the proposal", "built an Office", even for lines
stored in the position with the old wording ("acceptd", "a Office")."""

from __future__ import annotations

import re

from games.engine import event_rng, get_game
from games.engine.playout import player_names
from games.rules.nieuwstad.text import describe, with_article, worded


def test_the_article_follows_the_word():
    assert with_article("Office") == "an Office"
    assert with_article("Inn") == "an Inn"
    assert with_article("House") == "a House"
    assert with_article("Grain field") == "a Grain field"


def test_lines_stored_with_the_old_wording_are_put_right():
    assert worded("Bot 2 acceptd the proposal.") == "Bot 2 accepted the proposal."
    assert worded("Bot 2 declined the proposal.") == "Bot 2 declined the proposal."
    assert (
        worded("Cor built a Office at C3 facing north") == "Cor built an Office at C3 facing north"
    )
    assert worded("Cor proposed a Inn at C3") == "Cor proposed an Inn at C3"
    assert worded("Cor built a House at C3") == "Cor built a House at C3"


def test_a_played_game_s_history_has_no_misworded_line():
    game = get_game("nieuwstad")
    seen = []
    for seed in ("w1", "w2", "w3", "w4", "w5"):
        state = game.setup(player_names(2), game.option_defaults(2), event_rng(seed, 0))
        n = 0
        while game.result(state) is None:
            n += 1
            seat = game.to_act(state)[0]
            move = game.bot_move(state, seat, event_rng(seed + ":bot", n))
            after = game.apply(state, seat, move, event_rng(seed, n))
            seen.append(describe(state, after, seat, move, None))
            state = after
    history = "\n".join(seen)
    assert "acceptd" not in history
    assert not re.search(r"\ba (Inn|Office)\b", history)
    assert "accepted the proposal" in history
    assert re.search(r"\ban (Inn|Office)\b", history)
