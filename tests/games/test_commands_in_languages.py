"""Commands in Dutch, German and French (issue 31, item 3): every legal move of positions
from whole bot matches, written in each language as a menu shows it, is read back as that
move; the issue's own examples; a word that means different things in two languages is
refused with its meanings; and every command word has its translation in the catalogue."""

import re

import pytest
from django.utils import translation
from django.utils.translation import trans_real

from games import commands, language
from games.engine import ParseError, available_games, event_rng, get_game, playout
from games.engine.words import COMMAND

LANGUAGES = ("nl", "de", "fr")
# The hosted games (tests/sealed_cards.py registers a test game with no words of its own).
GAMES = [g.slug for g in available_games() if not g.__module__.startswith("tests.")]


def positions(game, every: int = 4):
    """(state, seat) where a seat is asked, from a seeded bot match of each player count."""
    for players in sorted({game.min_players, game.max_players}):
        log = playout.play(game, players, seed=f"languages-{game.slug}-{players}")
        state = game.setup(playout.player_names(players), log.options, event_rng(log.seed, 0))
        for seq, (seat, move, _source) in enumerate(log.log, 1):
            if seq % every == 0:
                yield state, seat
            state = game.apply(state, seat, move, event_rng(log.seed, seq))


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_command_written_in_a_language_is_read_back_as_its_move(slug, lang):
    game = get_game(slug)
    english_words = {w for phrase in language.vocabulary(game) for w in phrase.split()}
    written = {
        w.casefold()
        for forms in language._written(language.vocabulary(game), lang).values()
        for form in forms
        for w in re.findall(r"[^\W\d_]+", form)
    }
    checked = 0
    for state, seat in positions(game):
        for move in game.legal_moves(state, seat)[:40]:
            english = game.format_move(state, seat, move)
            command = language.in_language(game, english, lang)
            assert commands.interpret(game, state, seat, command, lang) == move, command
            # no English command word left, unless the language writes it the same way
            for word in language._WORD.findall(command):
                if word.casefold() in english_words and word.casefold() not in written:
                    names = " ".join(state.get("names", []))
                    assert word in names, f"English {word!r} in the {lang} command {command!r}"
            checked += 1
    assert checked > 200


def a_position_with(game, wanted):
    for state, seat in positions(game, every=1):
        for move in game.legal_moves(state, seat):
            if wanted(move):
                return state, seat, move
    raise AssertionError("no such position in the seeded matches")


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("nl", "bouw huis {cell} noord"),
        ("nl", "Bouw een huis op {cell}, richting noord"),
        ("de", "baue Haus {cell} Nord"),
        ("de", "Baue Haus bei {cell} Richtung Norden"),
        ("fr", "construis maison à {cell} face au nord"),
        ("en", "build house at {cell} facing north"),
    ],
)
def test_the_issues_examples_build_a_house(lang, text):
    game = get_game("nieuwstad")
    state, seat, move = a_position_with(
        game,
        lambda m: (
            m["type"] == "build"
            and m["building"] == "house"
            and m.get("facing") == "N"
            and not m.get("discount")
        ),
    )
    typed = text.format(cell=move["cells"][0])
    assert commands.interpret(game, state, seat, typed, lang) == move


@pytest.mark.parametrize(("lang", "word"), [("nl", "pas"), ("de", "passe"), ("fr", "passe")])
def test_pass_in_each_language(lang, word):
    game = get_game("new-england")
    state, seat, move = a_position_with(game, lambda m: m["type"] == "pass")
    assert commands.interpret(game, state, seat, word, lang) == move
    assert commands.interpret(game, state, seat, "pass", lang) == move  # English always works


def test_a_word_of_two_languages_is_refused_with_its_meanings():
    """Dutch "en" is "and", French "en" is "in": a German player who writes it is asked
    which; a Dutch player means "and"."""
    game = get_game("nieuwstad")
    with pytest.raises(ParseError) as refused:
        language.to_english(game, "Cor betaalt 2 g en 1 hout", "de")
    assert "“en” may mean" in refused.value.message
    assert "“in” (Français)" in refused.value.message
    assert "“and” (Nederlands)" in refused.value.message
    assert language.to_english(game, "Cor betaalt 2 g en 1 hout", "nl") == (
        "Cor pays 2 g and 1 wood"
    )


def test_yes_and_no_in_each_language_answer_a_question():
    game = get_game("nieuwstad")
    state, seat, move = a_position_with(game, lambda m: m["type"] == "accept")
    decline = next(m for m in game.legal_moves(state, seat) if m["type"] == "decline")
    for lang, yes, no in (("nl", "Ja", "nee"), ("de", "ja", "Nein"), ("fr", "oui", "Non")):
        assert commands.interpret(game, state, seat, yes, lang) == move
        assert commands.interpret(game, state, seat, no, lang) == decline


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_command_word_is_in_the_catalogue(lang):
    catalogue = trans_real.translation(lang)._catalog
    missing = [
        phrase
        for slug in GAMES
        for phrase in get_game(slug).command_words
        if not catalogue.get(f"{COMMAND}\x04{phrase}")
    ]
    assert not missing, f"untranslated command words in {lang}: {missing}"


def test_the_menu_of_a_turn_email_is_in_the_recipients_words():
    game = get_game("nieuwstad")
    state, seat, _move = a_position_with(game, lambda m: m["type"] == "build")
    with translation.override("en"):
        dutch = commands.choices_text(game, state, seat, language="nl")
        english = commands.choices_text(game, state, seat)
    assert "bouw huis" in dutch and "build house" not in dutch
    assert "build house" in english
