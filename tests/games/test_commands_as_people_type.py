"""Commands read the way people type them in each language (issue 41, item 2): a polite word
before or after ("kaufe Grundplan bitte", "graag neem bos G3", "... s'il te plaît"), an
article after the verb ("achète la tuile 8"), a German name with ae/oe/ue for ä/ö/ü
("baue gemeinsam Huette"). Each is read as the same move as the command written plainly,
over bot matches of every hosted game in Dutch, German and French."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games.commands import interpret
from games.engine import available_games
from games.engine.rng import event_rng
from games.language import in_language, plainly

HOSTED = [g for g in available_games() if not g.__module__.startswith("tests.")]
COURTESY = {
    "nl": ["{} graag", "graag {}", "{} alsjeblieft", "{}, dank je wel"],
    "de": ["{} bitte", "bitte {}", "{}, danke", "{} bitte schön"],
    "fr": ["{} s'il te plaît", "{} svp", "{} s'il vous plaît", "{}, merci"],
}
UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})


def positions(game, steps: int = 50):
    """(state, seat, move) along a bot match of three players."""
    state = game.setup(["Anna", "Bram", "Cor"][: max(game.min_players, 3)], {}, event_rng("t", 0))
    rng = random.Random(game.slug)
    for step in range(1, steps + 1):
        asked = game.to_act(state)
        if not asked:
            return
        seat = asked[0]
        move = game.bot_move(state, seat, rng)
        yield state, seat, move
        state = game.apply(state, seat, move, event_rng("t", step))


@pytest.mark.parametrize("game", HOSTED, ids=lambda g: g.slug)
@pytest.mark.parametrize("language", ["nl", "de", "fr"])
def test_polite_words_umlauts_and_articles_read_as_the_same_move(game, language):
    tried = 0
    for state, seat, move in positions(game):
        with translation.override(language):
            written = in_language(game, game.format_move(state, seat, move))
            variants = [form.format(written) for form in COURTESY[language]]
            if language == "de" and written != written.translate(UMLAUTS):
                variants.append(written.translate(UMLAUTS))
            if language == "fr" and written.startswith("achète tuile"):
                variants.append(written.replace("achète tuile", "achète la tuile", 1))
            for typed in variants:
                assert interpret(game, state, seat, typed, language=language) == move, typed
                tried += 1
    assert tried > 40


def test_the_issues_own_phrases():
    assert plainly("buy la tile 8, place at E6") == "buy tile 8, place at E6"
    assert plainly("buy basic plan bitte") == "buy basic plan"
    assert plainly("graag take forest G3") == "take forest G3"
    assert plainly("accept graag") == "accept"
    assert plainly("chip 6 s'il te plaît") == "chip 6"
    assert plainly("build l'atelier") == "build atelier"
    assert plainly("pass") == "pass"


@pytest.mark.parametrize("game", HOSTED, ids=lambda g: g.slug)
@pytest.mark.parametrize("language", ["nl", "de", "fr"])
def test_the_boards_step_buttons_are_in_the_readers_command_words(game, language):
    """A step the rules left as its command ("pass", "bid 3", "buy 0 cards") is labelled in
    the reader's command words on the match page's buttons (games.pages.in_reader_words),
    and reads back as the same command."""
    from games import builder
    from games.engine.words import Text
    from games.language import to_english
    from games.pages import in_reader_words

    commands = 0
    for state, seat, _move in positions(game, steps=30):
        english = builder.build(game, state, seat, [])
        plain = {c.target: c.label for c in english.choices if not isinstance(c.label, Text)}
        with translation.override(language):
            shown = in_reader_words(game, builder.build(game, state, seat, []))
            for choice in shown.choices:
                if choice.target not in plain:
                    continue
                said = plain[choice.target]
                assert choice.label == in_language(game, said)
                if choice.target.startswith("cmd:"):  # a whole command: it reads back
                    assert to_english(game, choice.label, language) == said
                commands += 1 if choice.label != said else 0
    if game.slug == "blankenburg":
        assert commands > 0  # its "pass" and "bid N" buttons were English before
