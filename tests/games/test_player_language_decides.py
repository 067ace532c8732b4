"""The player's own language decides a word that differs between languages: the service
passes it lazily (a callable, asked only when the command is not English), and the reading
must ask it, not take the callable itself for a language code."""

import random

from games import commands
from games.engine import get_game


def test_the_lazy_language_is_asked_when_the_command_is_not_english():
    game = get_game("blankenburg")
    asked = []

    def language():
        asked.append(True)
        return "de"

    state = game.setup(["Anna", "Bram"], {}, random.Random(1))
    seat = game.to_act(state)[0]
    try:
        commands.interpret(game, state, seat, "xyzzy plugh", language=language)
    except Exception:  # noqa: BLE001  refused: what matters is who was asked
        pass
    assert asked == [True]
    # An English command needs no language at all.
    english = game.format_move(state, seat, game.legal_moves(state, seat)[0])
    asked.clear()
    commands.interpret(game, state, seat, english, language=language)
    assert asked == []
