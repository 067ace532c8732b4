"""De Poorters van Nieuwstad in Dutch, German and French (issue 31, item 2): everything the
rules say to a player is a Text the catalogues say in each language. Bot matches of every
player count and both rules versions give every history line for every viewer, the
refusals of bad moves and commands, each seat's text board, reference and the buildings not
open; none may be a plain string, and none may leave a message id untranslated."""

import copy
import random
import re

import pytest

from games.engine import IllegalMove, ParseError, check_move, event_rng
from games.engine.words import Text
from games.language import localize
from games.rules.nieuwstad import GAME, GAME_V1
from games.rules.nieuwstad.data import BUILDINGS, CARDS, CHARACTERS, GOODS, STALL_SLOTS
from tests.games.rules.languages_check import (
    assert_all_texts,
    assert_nothing_untranslated,
    plain_parts,
    wide_lines,
)

LANGUAGES = ("nl", "de", "fr")
NAMES = ["Anna", "Bram", "Cora", "Dirk"]
# Words a Dutch, German or French reader should no longer meet in the history (the
# commands a line quotes stay English: every language reads them).
ENGLISH = re.compile(
    r"\b(the|built|bought|sold|chose|passed|drew|played|guilders?|wood|Burghers|"
    r"farmed|cleared|forest|proposed|declined|accepted|received|Round|starting|festival)\b"
)
NO_WORDS = re.compile(r"\b(" + "|".join(NAMES) + r"|[A-H]\d|[A-Z]{3})\b")  # a building's code
# The text board's grid and its table of players keep their codes (a building's, a district's,
# the roads'; the legend below them explains them in the reader's language).
GRID = re.compile(
    r"^(\s*\d* *[|+]|[* ][K ]\d )"
    r"|^(?:[ A-Z\d*^v<>.#~]{7}|[A-Z]{2} [SzG]{1,4} ?|[NS][EW]|[SzG]{1,4})$"  # a cell's codes
)
COMMANDS = [
    "",
    "hello there",
    "take forest",
    "take forest Z9",
    "build",
    "build castle",
    "build house",
    "build town hall",
    "build house at D5 facing up",
    "build house at D5 facing north",
    "build office at C3 facing north less 2 guilders",
    "propose house at D5 facing north",
    "propose hospice at D3 facing south: Zed pays 2 g",
    "propose hospice at D3 facing south: Anna pays 2 g, Anna pays 1 g",
    "counter: x",
    "counter with an even split",
    "count repeating",
    "play",
    "play fire",
    "play crime",
    "play midsummer",
    "sell",
    "sell 2 zz",
    "sell 2 bread at nowhere",
    "convert 2 wood",
    "join with",
]


def bad_moves(state, rnd: random.Random) -> list[dict]:
    """Moves the rules refuse, a spread of every kind (as test_fuzz's, without hypothesis)."""
    cells = ["D3", "A1", "H2", "Z9", "B2", "E4"]
    moves = [
        {"type": "choose", "character": c, "repeat": rnd.choice(CHARACTERS)} for c in CHARACTERS
    ]
    moves += [{"type": "forest", "cell": c} for c in cells] + [
        {
            "type": kind,
            "building": key,
            "cells": rnd.sample(cells, BUILDINGS[key].size if key in BUILDINGS else 1),
            "facing": rnd.choice(["N", "E", None, "X"]),
            "discount": rnd.choice(["", "g", "w", "gg"]),
        }
        for kind in ("build", "propose")
        for key in [*BUILDINGS, "boat", "castle"]
    ]
    moves += [
        {"type": "propose", "building": "hospice", "cells": ["D3"], "facing": "S", "partners": [1]},
        {
            "type": "propose",
            "building": "hospice",
            "cells": ["D3"],
            "facing": "S",
            "seats": [0, 1],
            "guilders": [9, 0],
            "wood": [0, 0],
            "points": [1, 1],
        },
        {"type": "counter", "seats": [0], "guilders": [0], "wood": [0], "points": [0]},
        {"type": "farm", "extra": ["fish", "grain"]},
        {"type": "buy", "count": 3},
        {"type": "buy", "count": 2},
        {"type": "buy", "good": "wood", "count": 9, "at": "timbertrade"},
        {"type": "sawmill"},
        {"type": "convert", "good": "wood", "count": 1},
        {"type": "pasty", "filling": "meat"},
        {"type": "pasty", "filling": "x"},
        {"type": "join", "food": "fish"},
        {"type": "pledge", "guilders": 99, "food": []},
        {"type": "pledge", "guilders": 0, "food": ["fish"] * 5},
        {"type": "accept"},
        {"type": "watch"},
        {"type": "done"},
        {"type": "pass"},
        {"type": "x"},
    ]
    moves += [
        {"type": "sell", "good": good, "count": rnd.choice([1, 9]), "at": at}
        for good in GOODS
        for at in ("market", "timbertrade", *STALL_SLOTS)
    ]
    moves += [
        {
            "type": "play",
            "card": card,
            "target": rnd.choice(cells),
            "district": rnd.choice(["NW", "SE", "X"]),
            "take": "wood",
        }
        for card in [*CARDS, "joker"]
    ]
    return moves


def said_in_match(game, players: int, seed: str, options: dict) -> dict[str, list]:
    """What the rules said along one bot match: history lines, refusals, boards, references."""
    options = game.validate_options(players, options)
    state = game.setup(NAMES[:players], options, event_rng(seed, 0))
    said: dict[str, list] = {"describe": [], "refusal": [], "board": [], "reference": []}
    rnd = random.Random(seed)
    seq = 0
    while game.result(state) is None:
        seq += 1
        assert seq < 3000
        seat = game.to_act(state)[0]
        if seq % 7 == 0:
            for move in bad_moves(state, rnd):
                try:
                    check_move(game, move)  # the engine's shape check: not the rules' words
                except IllegalMove:
                    continue
                for who in {seat, (seat + 1) % players}:
                    try:
                        game.apply(copy.deepcopy(state), who, move, event_rng(seed, seq))
                    except IllegalMove as refusal:
                        said["refusal"].append(refusal.message)
            for command in COMMANDS:  # version 1 refuses a counter-offer too
                try:
                    game.parse(command, state, seat)
                except ParseError as refusal:
                    said["refusal"].append(refusal.message)
            for viewer in (None, *range(players)):
                view = game.view(state, viewer)
                said["board"].append(game.render_text(view))
                said["reference"].append(game.reference(view))
            said["reference"].append(game.not_open(state, seat, "building"))
        move = game.bot_move(state, seat, event_rng(seed + ":bot", seq))
        before = copy.deepcopy(state)
        state = game.apply(state, seat, move, event_rng(seed, seq))
        for viewer in (None, *range(players)):
            said["describe"].append(game.describe(before, state, seat, move, viewer))
    for viewer in (None, *range(players)):
        said["board"].append(game.render_text(game.view(state, viewer)))
    return said


@pytest.fixture(scope="module")
def said():
    collected: dict[str, list] = {"describe": [], "refusal": [], "board": [], "reference": []}
    for players in (2, 3, 4):
        for game, options in ((GAME, {}), (GAME_V1, {"joint": True}), (GAME, {"joint": True})):
            seed = f"lang-{players}-{game.version}-{len(options)}"
            for kind, values in said_in_match(game, players, seed, options).items():
                collected[kind] += values
    return collected


def test_every_line_and_refusal_is_a_text(said):
    assert_all_texts(said, GAME)


def test_the_reference_and_the_reasons_not_open_are_texts(said):
    for value in said["reference"]:
        if isinstance(value, list) and value and isinstance(value[0], tuple):
            for name, why in value:  # buildings not open now, and why
                assert isinstance(name, Text) and isinstance(why, Text), (name, why)
            continue
        for section in value:
            assert all(isinstance(note, Text) for note in section.notes)
            for row in section.rows:
                for cell in row:
                    assert isinstance(cell, Text) or not re.search(r"[a-z]{3}", cell), row


def test_no_plain_english_inside_a_line_or_a_board(said):
    for kind in ("describe", "board", "refusal"):
        plain = sorted(
            {part for value in said[kind] for part in plain_parts(value, NO_WORDS, GRID)}
        )
        assert plain == [], f"{kind}: {plain[:5]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_is_left_untranslated(said, language):
    assert_nothing_untranslated(said, language, GAME)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_word_in_the_history(said, language):
    for value in said["describe"]:
        text = re.sub(r"'[^']*'", "", localize(value, language))  # a quoted command
        assert not ENGLISH.search(text), (language, ENGLISH.search(text).group(), text[:400])


def first_line(said, english: str) -> Text:
    return next(line for line in said["describe"] if english in str(line))


@pytest.mark.parametrize("language", ("en",) + LANGUAGES)
def test_the_text_board_fits_its_width_in_every_language(said, language):
    """A line that a translation makes longer than the board is wrapped again (a mail
    client shows 78 columns), and the English is laid out as it always was."""
    wide = [line for board in said["board"] for line in wide_lines(board, language)]
    assert wide == [], wide[:3]


def test_history_lines_in_dutch_and_german(said):
    chose = first_line(said, " chose the Woodcutter.")
    who = str(chose).split(" chose")[0].split(". ")[-1]
    assert f"{who} koos de Houthakker." in localize(chose, "nl")
    assert f"{who} wählte die Figur Holzfäller." in localize(chose, "de")
    cleared = first_line(said, " cleared the forest at ")
    assert " kapte het bos op " in localize(cleared, "nl")
    assert " rodete den Wald auf " in localize(cleared, "de")
    accepted = first_line(said, " accepted the proposal.")  # stored as "acceptd"
    assert " nam het voorstel aan." in localize(accepted, "nl")
    assert " nahm den Vorschlag an." in localize(accepted, "de")
    office = next(line for line in said["describe"] if re.search(r"built an (Inn|Office)", line))
    assert re.search(r"bouwde een (Herberg|Kantoor) ", localize(office, "nl"))
    assert re.search(r"baute: (Gasthaus|Kontor) ", localize(office, "de"))


def test_a_private_card_is_told_to_its_holder_alone(said):
    drawn = [line for line in said["describe"] if re.search(r" drew (?!a card|the event)", line)]
    assert drawn, "no card drawn in the matches"
    line = drawn[0]
    assert re.search(r"\w+ trok \w", localize(line, "nl"))
    assert "Je trok" not in localize(line, "nl")  # the history says it in the third person


def test_refusals_in_dutch_and_german():
    state = GAME.setup(NAMES[:3], GAME.validate_options(3, {}), event_rng("refuse", 0))
    seat = GAME.to_act(state)[0]
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(copy.deepcopy(state), (seat + 1) % 3, {"type": "pass"}, None)
    assert localize(refused.value.message, "nl") == "Je bent niet aan de beurt."
    assert localize(refused.value.message, "de") == "Du bist nicht dran."
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(copy.deepcopy(state), seat, {"type": "forest", "cell": "Z9"}, None)
    assert localize(refused.value.message, "nl") == "Er ligt geen bostegel op Z9."
    assert localize(refused.value.message, "de") == "Auf Z9 liegt kein Waldplättchen."
    with pytest.raises(ParseError) as unread:
        GAME.parse("", state, seat)
    assert localize(unread.value.message, "de") == (
        "Leerer Befehl. Sende 'Hilfe' für die Liste der Befehle."
    )


def test_the_text_board_and_help_in_dutch_and_german():
    state = GAME.setup(NAMES[:3], GAME.validate_options(3, {}), event_rng("board", 0))
    board = GAME.render_text(GAME.view(state, 0))
    assert str(board).startswith("De Poorters van Nieuwstad - round 1 - Burghers ")
    dutch = localize(board, "nl")
    assert dutch.startswith("De Poorters van Nieuwstad - ronde 1 - Burgers ")
    assert "Opening: elke speler kapt een bostegel." in dutch
    assert "Boten op het meer: 1: vrij" in dutch
    german = localize(board, "de")
    assert "Eröffnung: Jeder Spieler rodet ein Waldplättchen." in german
    assert "Gebäude übrig: Haus " in german
    # The buildings' codes on the grid, in the reader's language and named by the legend.
    assert "HOU=House" in board and "HUI=Huis" in dutch and "HAU=Haus" in german
    assert "HOU" not in dutch and "HOU" not in german
    # A list is broken between its entries, continuation lines under the first entry.
    buildings = german[german.index("Gebäude übrig: ") :].split("\n")[:3]
    assert buildings[1].startswith(" " * len("Gebäude übrig: ") + "Sägewerk 1, ")
    assert all(line.endswith(",") and len(line) <= 78 for line in buildings[:2])
    # The players table's column codes and their legend, in the reader's words and columns.
    english_heading = next(line for line in board.splitlines() if line.startswith("  # Player"))
    assert english_heading.endswith("Gld Pts Wd Pl Fi Gr Lv Ga SF Br Mt GM Seal Dk Cd")
    heading = next(line for line in dutch.splitlines() if line.startswith("  # Speler"))
    assert heading.endswith("Gld Pnt Ht Pl Vi Gr Ve Wi GV Br Vl WB   LZ DZ Kt")
    assert len(heading) == len(english_heading)
    assert "  Br brood Vl vlees WB wildbraad, LZ/DZ lichte/donkere zegels over," in dutch
    assert "  Hz Holz Bt Bretter Fi Fisch Ge Getreide Vi Vieh Wi Wild RF Räucherfisch" in german
    help_text = GAME.help_text()
    assert "  take forest C4                kap een bostegel" in localize(help_text, "nl")
    assert "  accept | decline              beantworte einen Vorschlag" in localize(help_text, "de")
