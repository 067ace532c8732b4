"""The games' own words in Dutch, German and French (issue 31, item 2): the catalogue at
games/rules/locale has every message the rules packages mark, translated; names, prompts
and reference tables come out in the reader's language; a Text survives the copies and
pickles a position goes through and stays its English wherever it is taken as a str."""

import copy
import gettext
import pickle
from pathlib import Path

import pytest
from django.utils import translation

from games import commands, language
from games.engine import event_rng, get_game, playout
from games.engine.words import Listed, Text, Wrapped, _, pgettext

CATALOGUES = Path(__file__).resolve().parents[2] / "games" / "rules" / "locale"


@pytest.mark.parametrize("lang", ["nl", "de", "fr"])
def test_the_games_catalogue_has_no_untranslated_or_fuzzy_entry(lang):
    import polib

    po = polib.pofile(str(CATALOGUES / lang / "LC_MESSAGES" / "django.po"))
    entries = [e for e in po if not e.obsolete]
    assert len(entries) > 300
    untranslated = [(e.msgctxt, e.msgid) for e in entries if not e.translated()]
    assert not untranslated, untranslated
    assert not [e.msgid for e in entries if "fuzzy" in e.flags]
    # the compiled catalogue the site reads says what the .po says (compilemessages was run)
    with open(CATALOGUES / lang / "LC_MESSAGES" / "django.mo", "rb") as mo:
        compiled = gettext.GNUTranslations(mo)

    def said(e) -> str:
        if e.msgid_plural:
            forms = (e.msgid, e.msgid_plural, 1)
            if e.msgctxt:
                return compiled.npgettext(e.msgctxt, *forms)
            return compiled.ngettext(*forms)
        return compiled.pgettext(e.msgctxt, e.msgid) if e.msgctxt else compiled.gettext(e.msgid)

    def written(e) -> str:
        return e.msgstr_plural[0] if e.msgid_plural else e.msgstr

    stale = [(e.msgctxt, e.msgid) for e in entries if said(e) != written(e)]
    assert not stale, f"recompile the catalogue: {stale[:5]}"


def test_a_text_is_its_english_as_a_str_and_survives_copies():
    text = _("{who} built a {what}", who="Anna", what=pgettext("nieuwstad", "House"))
    assert text == "Anna built a House" and f"{text}!" == "Anna built a House!"
    for copied in (copy.deepcopy(text), pickle.loads(pickle.dumps(text))):
        assert copied == text and copied.template == text.template
        assert language.localize(copied, "nl") == "Anna built a Huis"


def test_a_wrapped_line_keeps_its_english_layout_and_is_wrapped_again_when_said():
    long_line = _(
        "{who} built a {what}", who=" ".join(["Anna"] * 8), what=pgettext("nieuwstad", "House")
    )
    english = "Anna Anna Anna Anna\n    Anna Anna Anna Anna\n    built a House"
    line = Wrapped(english, long_line, 24, "    ")
    for copied in (line, copy.deepcopy(line), pickle.loads(pickle.dumps(line))):
        assert copied == english and language.localize(copied, "en") == english
        assert language.localize(copied, "nl").splitlines() == [
            "Anna Anna Anna Anna Anna",
            "    Anna Anna Anna built",
            "    a Huis",
        ]
    short = Wrapped(
        "Anna built a House", _("{who} built a {what}", who="Anna", what="House"), 24, "  "
    )
    assert (
        language.localize(short, "nl") == "Anna built a House"
    )  # said as it is: no word of its own


def test_a_listed_line_is_laid_out_again_between_its_entries_when_said():
    entries = [_("{what} {count}", what=pgettext("nieuwstad", "House"), count=8)] * 3
    listed = Listed(_("Buildings left: "), entries, 40)
    assert listed == "Buildings left: House 8, House 8,\n                House 8"
    for copied in (listed, copy.deepcopy(listed), pickle.loads(pickle.dumps(listed))):
        assert copied == listed and language.localize(copied, "en") == listed
        assert language.localize(copied, "de") == "Gebäude übrig: Haus 8, Haus 8, Haus 8"


@pytest.mark.parametrize(
    ("slug", "lang", "expected"),
    [
        ("nieuwstad", "nl", ["Gebouwen", "Huis", "Herberg", "Verkoop bij de kramen"]),
        ("nieuwstad", "de", ["Gebäude", "Haus", "Gasthaus", "Verkauf an den Ständen"]),
        ("nieuwstad", "fr", ["Bâtiments", "Maison", "Auberge", "Ventes aux étals"]),
        ("blankenburg", "de", ["Ereignisse", "Besucher"]),
        ("new-england", "nl", ["Kaartvormen", "Families en tekens op het bord"]),
    ],
)
def test_reference_tables_in_the_readers_language(slug, lang, expected):
    game = get_game(slug)
    players = game.min_players
    log = playout.play(game, players, seed=f"words-{slug}", max_moves=40_000)
    state = game.setup(playout.player_names(players), log.options, event_rng(log.seed, 0))
    for seq, (seat, move, _source) in enumerate(log.log[:30], 1):
        state = game.apply(state, seat, move, event_rng(log.seed, seq))
    view = game.view(state, 0)
    with translation.override("en"):
        english = commands.reference_text(game, view)
        spoken = commands.reference_text(game, view, language=lang)
    for word in expected:
        assert word in spoken, (word, spoken[:400])
        assert word not in english


@pytest.mark.parametrize("slug", ["nieuwstad", "blankenburg", "new-england"])
@pytest.mark.parametrize("lang", ["nl", "de", "fr"])
def test_every_prompt_of_a_match_is_said_in_the_language(slug, lang):
    game = get_game(slug)
    players = game.min_players
    log = playout.play(game, players, seed=f"prompts-{slug}")
    state = game.setup(playout.player_names(players), log.options, event_rng(log.seed, 0))
    said = set()
    for seq, (seat, move, _source) in enumerate(log.log, 1):
        prompt = game.prompt(state, seat)
        assert isinstance(prompt, Text), prompt
        spoken = language.localize(prompt, lang)
        assert spoken != str(prompt) or str(prompt) in ("act",), (prompt, spoken)
        said.add(spoken)
        state = game.apply(state, seat, move, event_rng(log.seed, seq))
    assert len(said) >= 3


@pytest.mark.parametrize("slug", ["nieuwstad", "new-england", "blankenburg"])
def test_the_help_gives_its_commands_in_the_readers_words(slug):
    game = get_game(slug)
    english = str(game.help_text())
    for lang in ("nl", "de", "fr"):
        said = language.help_in(game, lang)
        assert said != english
        assert language.to_english(game, said, lang) != said  # its commands read as commands
    assert language.help_in(game, "en") == english
    words = {"nieuwstad": "baue Haus bei D5", "new-england": "kaufe Karte 4", "blankenburg": "baue"}
    assert words[slug] in language.help_in(game, "de")


def test_a_refusal_quotes_its_commands_in_the_readers_words():
    from games.engine import IllegalMove

    game = get_game("new-england")
    state = game.setup(["a", "b", "c"], game.validate_options(3, {}), event_rng("refusal", 0))
    state["phase"] = "buy"
    with pytest.raises(IllegalMove) as refused:
        game.parse("buy tile 2", state, 0)
    assert str(refused.value.message) == (
        "Say where the tile goes, e.g. 'buy tile 2, place at E5'."
    )
    german = language.refusal_in(game, refused.value.message, "de")
    assert german == "Sag, wohin das Plättchen kommt, z. B. 'kaufe Plättchen 2, setze bei E5'."
    assert language.to_english(game, "kaufe Plättchen 2, setze bei E5", "de") == (
        "buy tile 2, place at E5"
    )
    assert language.refusal_in(game, refused.value.message, "en") == str(refused.value.message)
