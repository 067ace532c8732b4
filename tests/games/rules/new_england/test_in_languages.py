"""New England says everything in the reader's language (issue 31, item 2): every history
line for every viewer, every refusal of a command or a move, the text board of every seat,
the help and the reference are Texts (games.engine.words) whose every message the games'
catalogue holds in Dutch, German and French, over whole bot-played matches. Their English
is the game's own words, as before."""

import random

import pytest
from django.utils import translation

from games.engine import IllegalMove, copy_state, event_rng
from games.engine.words import Text
from games.language import localize, untranslated
from games.rules.new_england import GAME
from games.rules.new_england import text as T
from tests.engine_fuzz import positions

LANGUAGES = ("nl", "de", "fr")
# Commands a player may get wrong, read at every position (each gives a ParseError or an
# IllegalMove with its own sentence).
ATTEMPTS = [
    "",
    "fly to the moon",
    "7 cards",
    "chip 99",
    "chip 1",
    "3 cards",
    "buy tile 9, place at E5",
    "buy tile 1",
    "buy card 1",
    "buy card 1, place at Z9",
    "buy card 2, develop A1",
    "buy card 3, store",
    "play stored 3, develop E5",
    "play stored 1, store",
    "move barn E5 to G2",
    "move pilgrim E5",
    "move ship A1 to A2",
    "reveal tile",
    "reveal card",
    "place settlement B2",
    "place pasture A1 A2",
    "pass",
]


def said_everywhere(value) -> None:
    """`value` is said in every language: each message of it is in the catalogue."""
    for language in LANGUAGES:
        assert untranslated(value, language) == [], (language, str(value))


def test_every_history_line_board_and_reference_is_in_every_language():
    lines = boards = 0
    for players in (3, 4):
        for seed in range(3):
            rng = random.Random(seed)
            state = GAME.setup(
                [f"p{i}" for i in range(players)],
                GAME.validate_options(players, {}),
                event_rng(f"languages-{seed}", 0),
            )
            seq = 0
            while GAME.result(state) is None:
                seq += 1
                seat = GAME.to_act(state)[0]
                move = GAME.bot_move(state, seat, rng)
                after = GAME.apply(copy_state(state), seat, move, event_rng(f"l{seed}", seq))
                for viewer in (None, *range(players)):
                    line = GAME.describe(state, after, seat, move, viewer)
                    assert isinstance(line, Text), line
                    said_everywhere(line)
                    lines += 1
                if seq % 5 == 0 or GAME.result(after) is not None:
                    for viewer in (None, *range(players)):
                        view = GAME.view(after, viewer)
                        board = GAME.render_text(view)
                        assert isinstance(board, Text)
                        said_everywhere(board)
                        said_everywhere(GAME.reference(view))
                        said_everywhere(view["status"])
                        said_everywhere([item.get("text") for item in view["selection"]])
                        boards += 1
                state = after
            said_everywhere(GAME.view(state, None)["result"])
    said_everywhere(GAME.help_text())
    assert lines > 1000 and boards > 100


def test_every_refusal_is_in_every_language():
    refusals = set()
    for players in (3, 4):
        for state, seat in positions(GAME, players, f"refusals-{players}", every=4):
            for attempt in ATTEMPTS:
                try:
                    move = T.parse(attempt, state, seat)
                    GAME.apply(copy_state(state), seat, move, event_rng("refusal", 1))
                except IllegalMove as error:
                    assert isinstance(error.message, Text), error.message
                    said_everywhere(error.message)
                    refusals.add(error.message.template)
    assert len(refusals) >= 25, sorted(refusals)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("nl", "p0 nam biedfiche 3"),
        ("de", "p0 nahm Gebotschip 3"),
        ("fr", "p0 a pris le jeton d'enchère 3"),
    ],
)
def test_a_history_line_and_a_refusal_read_in_the_language(language, expected):
    state = GAME.setup(["p0", "p1", "p2"], GAME.validate_options(3, {}), event_rng("words", 0))
    state["phase"], state["turn"] = "bid", 0
    after = GAME.apply(copy_state(state), 0, {"type": "chip", "chip": 3}, event_rng("w", 1))
    line = GAME.describe(state, after, 0, {"type": "chip", "chip": 3}, None)
    assert str(line) == "p0 took bidding chip 3"  # the English, as stored and compared
    assert localize(line, language) == expected
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(copy_state(after), 1, {"type": "chip", "chip": 3}, event_rng("w", 2))
    with translation.override(language):
        assert localize(refused.value.message) != str(refused.value.message)
    assert localize(refused.value.message, "de") == (
        "Nimm einen der freien Gebotschips: 1, 2, 4, 5, 6, 7, 8, 9, 10."
    )
