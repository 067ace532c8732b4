"""Dates, times and punctuation as each language writes them (issue 41, item 4): month and
weekday abbreviations with the language's own dots and order ('10 dec.', 'Do., 10. Dez.
2026', 'jeu. 10 déc.'; Django's 'M' says 'Dec' in Dutch and 'Déc' in French), the same on
the pages and in the mails; French spacing before ; : ! ? in what the code joins; the words a
rules package joins parts with said in the reader's language."""

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template
from django.utils import timezone, translation

from games.engine import get_game
from games.engine.words import joined
from games.language import localize, refusal_in, to_english, typeset
from players.dates import written
from players.models import Preferences
from players.preferences import local_time

THURSDAY = datetime(2026, 12, 10, 16, 46, tzinfo=ZoneInfo("Europe/Berlin"))

EXPECTED = {
    "en": {
        "day": "Thu 10 Dec 2026",
        "date": "10 Dec 2026",
        "date_time": "10 Dec 2026 16:46",
        "short": "10 Dec 16:46",
        "deadline": "Thu 10 Dec, 16:46 CET",
        "full": "Thu 10 Dec 2026, 16:46 CET",
    },
    "nl": {
        "day": "do 10 dec. 2026",
        "date": "10 dec. 2026",
        "date_time": "10 dec. 2026 16:46",
        "short": "10 dec. 16:46",
        "deadline": "do 10 dec., 16:46 CET",
        "full": "do 10 dec. 2026, 16:46 CET",
    },
    "de": {
        "day": "Do., 10. Dez. 2026",
        "date": "10. Dez. 2026",
        "date_time": "10. Dez. 2026, 16:46",
        "short": "10. Dez., 16:46",
        "deadline": "Do., 10. Dez., 16:46 CET",
        "full": "Do., 10. Dez. 2026, 16:46 CET",
    },
    "fr": {
        "day": "jeu. 10 déc. 2026",
        "date": "10 déc. 2026",
        "date_time": "10 déc. 2026 à 16:46",
        "short": "10 déc. à 16:46",
        "deadline": "jeu. 10 déc. à 16:46 CET",
        "full": "jeu. 10 déc. 2026 à 16:46 CET",
    },
}


@pytest.mark.parametrize("language", ["en", "nl", "de", "fr"])
def test_a_moment_in_each_style_as_the_language_writes_it(language):
    said = {style: written(THURSDAY, style, language) for style in EXPECTED[language]}
    assert said == EXPECTED[language]
    with translation.override(language):  # the active language by default
        assert written(THURSDAY.date(), "day") == EXPECTED[language]["day"]


@pytest.mark.parametrize(
    ("language", "months"),
    [
        ("nl", "jan. feb. mrt. apr. mei jun. jul. aug. sep. okt. nov. dec."),
        ("de", "Jan. Feb. März Apr. Mai Juni Juli Aug. Sept. Okt. Nov. Dez."),
        ("fr", "janv. févr. mars avr. mai juin juil. août sept. oct. nov. déc."),
    ],
)
def test_every_month_is_abbreviated_as_the_language_does(language, months):
    said = [written(date(2026, m, 1), "date", language).split()[1:-1] for m in range(1, 13)]
    assert [" ".join(s) for s in said] == months.split()


@pytest.mark.parametrize("language", ["en", "nl", "de", "fr"])
def test_a_mails_deadline_in_the_readers_zone_and_language(language):
    prefs = Preferences(time_zone="Europe/Amsterdam")
    with translation.override(language):
        said = local_time(prefs, datetime(2026, 12, 10, 15, 46, tzinfo=UTC))
    assert said == EXPECTED[language]["full"]


@pytest.mark.parametrize("language", ["nl", "de", "fr"])
def test_a_pages_dates_in_the_page_s_language_and_zone(language):
    page = Template(
        "{% load site %}{{ when|written:'short' }} | {{ when|written:'deadline' }} | "
        "{{ day|written:'day' }}"
    )
    with translation.override(language), timezone.override(ZoneInfo("Europe/Paris")):
        said = page.render(
            Context({"when": datetime(2026, 12, 10, 15, 46, tzinfo=UTC), "day": THURSDAY.date()})
        )
    expected = EXPECTED[language]
    assert said == f"{expected['short']} | {expected['deadline']} | {expected['day']}"
    assert not {"Dec", "Déc", "Thu"} & set(said.replace(".", " ").replace(",", " ").split())


def test_french_spacing_before_the_marks_the_code_joins():
    parts = joined(["Anna", ": ", "3 points", "; ", "Ben", ": ", "2 points", "!"], "")
    assert localize(parts, "en") == "Anna: 3 points; Ben: 2 points!"
    assert localize(parts, "fr") == "Anna\u00a0: 3 points\u202f; Ben\u00a0: 2 points\u202f!"
    assert localize(parts, "de") == "Anna: 3 points; Ben: 2 points!"
    # A time, a link, a smiley: no phrase ends there.
    assert typeset("16:46 https://example.org/?a=1 :) fin?", "fr") == (
        "16:46 https://example.org/?a=1 :) fin\u202f?"
    )
    # Already spaced: spaced once.
    assert typeset("Objet : x ; y", "fr") == "Objet\u00a0: x\u202f; y"


def test_a_french_refusal_lists_its_examples_spaced_and_in_french_commands():
    game = get_game("nieuwstad")
    from games.engine.words import _

    refusal = joined([_("For example: {moves}.", moves="take forest A1; take forest C1")])
    said = refusal_in(game, refusal, "fr")
    assert "prends forêt A1\u202f; prends forêt C1" in said
    assert "take" not in said and "forest" not in said
    assert "neem bos A1; neem bos C1" in refusal_in(game, refusal, "nl")


@pytest.mark.parametrize(
    ("language", "said"), [("nl", "A en B"), ("de", "A und B"), ("fr", "A et B")]
)
def test_the_words_a_rules_package_joins_with_are_said_in_the_language(language, said):
    assert localize(joined(["A", "B"], " and "), language) == said
    assert localize(joined(["A", "B"], " and "), "en") == "A and B"


def test_a_players_name_is_not_read_as_a_command_word():
    """Dutch "bakker" is the baker's word in Nieuwstad's commands; Femke Bakker is a name."""
    game = get_game("nieuwstad")
    text = "stel voor kerk bij D6 met Femke Bakker"
    english = to_english(game, text, "nl", names=["Joost Visser", "Femke Bakker"])
    assert english.endswith("with Femke Bakker")
    assert to_english(game, "verkoop 1 brood bij bakker", "nl", names=["Femke Bakker"]).endswith(
        "at baker"
    )
