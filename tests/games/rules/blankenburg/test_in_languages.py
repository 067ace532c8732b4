"""Builders of Blankenburg in Dutch, German and French (issue 31, item 2): everything the
rules say to a player is a Text the catalogues say in each language. Bot matches of every
player count give every history line for every viewer, the refusals of fuzzed moves and
commands, each seat's text board and reference; none may be a plain string, and none may
leave a message id untranslated."""

import copy
import re

import pytest

from games.engine import IllegalMove, ParseError, event_rng
from games.engine.words import Text, _
from games.language import localize
from games.rules.blankenburg import GAME, GAME_V1
from games.rules.blankenburg.data import PLANS, RESOURCE_NAMES, RESOURCES
from tests.games.rules.languages_check import (
    assert_all_texts,
    assert_nothing_untranslated,
    plain_parts,
    wide_lines,
)

LANGUAGES = ("nl", "de", "fr")
NAMES = ["Anna", "Bram", "Cora", "Dirk", "Eva", "Femke"]
# Words a Dutch, German or French reader should no longer meet in the narration and the
# board (the commands quoted in a refusal stay English: the platform writes them).
ENGLISH = re.compile(
    r"\b(the|silver|paid|built|bought|took|sold|wood|stone|marble|iron|gold|turn|"
    r"Waiting|PLAYERS|TOWN|CITIZENS|MARKETPLACE|Decks|damaged|income|visitor|event)\b"
)
NO_WORDS = re.compile(r"\b(" + "|".join(NAMES) + r"|[0-9a-f]{16,}|[IVX]+|[A-Z]\d+)\b")
COMMANDS = [
    "",
    "bid",
    "bid 999",
    "take",
    "take gold",
    "build foo",
    "build castle",
    "build chapel in civic",
    "demolish tower",
    "repair chapel",
    "keep foo",
    "buy basic plan discarding foo",
    "sell 9 wood",
    "buy stone and sell wood",
    "choose",
    "extra",
    "accept",
    "hello there",
]


def bad_moves(state):
    """Moves the rules refuse, one of each kind of refusal they have."""
    moves = [
        {"type": "bid", "silver": 999},
        {"type": "bid", "silver": -2},
        {"type": "select", "resources": ["wood"]},
        {"type": "select", "resources": ["gold"] * (state["n"] - 1)},
        {"type": "take", "resource": "gold"},
        {"type": "extra", "resource": "gold"},
        {"type": "demolish", "space": 999},
        {"type": "repair", "space": 0},
        {"type": "buy_plan", "deck": "x"},
        {"type": "buy_plan", "deck": "grand", "discard": [99]},
        {"type": "keep", "card": 99},
        {"type": "buy", "resource": "gold"},
        {"type": "sell", "resource": "wood", "count": 9},
        {"type": "sell", "resource": "stone", "count": 1},
        {"type": "build", "card": 99, "space": 0},
        {"type": "accept"},
    ]
    for r in RESOURCES:
        moves += [{"type": "buy", "resource": r}, {"type": "take", "resource": r}]
    for card in range(0, len(PLANS), 3):
        moves += [{"type": "build", "card": card, "space": 0}, {"type": "keep", "card": card}]
    for deck in ("basic", "grand"):
        moves.append({"type": "buy_plan", "deck": deck, "discard": []})
    return moves


def said_in_matches(game, players: int, seed: str, options: dict) -> dict[str, list]:
    """What the rules said along one bot match: history lines, refusals, boards, references."""
    options = game.validate_options(players, options)
    state = game.setup(NAMES[:players], options, event_rng(seed, 0))
    said: dict[str, list] = {"describe": [], "refusal": [], "board": [], "reference": []}
    seq = 0
    while game.result(state) is None:
        seq += 1
        assert seq < 3000
        seats = game.to_act(state)
        rng = event_rng(seed + ":bot", seq)
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        if seq % 9 == 0:
            for move in bad_moves(state):
                try:
                    game.apply(copy.deepcopy(state), seat, move, event_rng(seed, seq))
                except IllegalMove as refusal:
                    said["refusal"].append(refusal.message)
            for command in COMMANDS:
                try:
                    game.parse(command, state, seat)
                except ParseError as refusal:
                    said["refusal"].append(refusal.message)
            for viewer in (None, *range(players)):
                view = game.view(state, viewer)
                said["board"].append(game.render_text(view))
                said["reference"].append(game.reference(view))
            said["reference"].append(game.not_open(state, seat, "plan"))
        move = game.bot_move(state, seat, rng)
        before = copy.deepcopy(state)
        state = game.apply(state, seat, move, event_rng(seed, seq))
        for viewer in (None, *range(players)):
            said["describe"].append(game.describe(before, state, seat, move, viewer))
    for viewer in (None, *range(players)):
        said["board"].append(game.render_text(game.view(state, viewer)))
    said["describe"].append(game.describe(before, state, None, {}, None))
    said["reference"].append(game.result(state).notes)
    return said


@pytest.fixture(scope="module")
def said():
    collected: dict[str, list] = {"describe": [], "refusal": [], "board": [], "reference": []}
    for players in (2, 3, 4, 5, 6):
        for game, options in (
            (GAME, {}),
            (GAME_V1 if players % 2 else GAME, {"board": "back"}),
        ):
            if players == 2 and options:
                options = {**options, "master_builder": True}
            found = said_in_matches(game, players, f"lang-{players}-{len(options)}", options)
            for kind, values in found.items():
                collected[kind] += values
    return collected


def test_every_line_and_refusal_is_a_text(said):
    assert_all_texts(said, GAME)


def test_the_reference_notes_and_the_final_notes_are_texts(said):
    for value in said["reference"]:
        if isinstance(value, list) and value and not hasattr(value[0], "rows"):
            for item in value:  # the final notes, or (plan, why) pairs of plans not open
                parts = item if isinstance(item, tuple) else (item,)
                assert all(isinstance(part, Text) for part in parts), item
            continue
        for section in value:
            assert all(isinstance(note, Text) for note in section.notes)
            for row in section.rows:
                for cell in row[1:]:  # the first cell may be a player's name
                    assert isinstance(cell, Text) or not re.search(r"[a-z]{3}", cell), row


def test_no_plain_english_inside_a_line_or_a_board(said):
    for kind in ("describe", "board"):
        plain = sorted({part for value in said[kind] for part in plain_parts(value, NO_WORDS)})
        assert plain == [], f"{kind}: {plain[:5]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_is_left_untranslated(said, language):
    assert_nothing_untranslated(said, language, GAME)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_word_in_the_history_or_on_the_board(said, language):
    for value in said["describe"] + said["board"]:
        text = localize(value, language)
        assert not ENGLISH.search(text), (language, ENGLISH.search(text).group(), text[:400])


@pytest.mark.parametrize("language", ("en",) + LANGUAGES)
def test_the_text_board_fits_its_width_in_every_language(said, language):
    """A line that a translation makes longer than the board is wrapped again (a mail
    client shows 78 columns), and the English is laid out as it always was."""
    wide = [line for board in said["board"] for line in wide_lines(board, language)]
    assert wide == [], wide[:3]


def test_a_bid_told_in_dutch_and_german():
    state = GAME.setup(NAMES[:2], GAME.validate_options(2, {}), event_rng("words", 0))
    while state["phase"] != "bid":
        seat = GAME.to_act(state)[0]
        move = GAME.bot_move(state, seat, event_rng("words:bot", 1))
        state = GAME.apply(state, seat, move, event_rng("words", 1))
    before = copy.deepcopy(state)
    after = GAME.apply(state, 0, {"type": "bid", "silver": 2}, event_rng("words", 9))
    own = GAME.describe(before, after, 0, {"type": "bid", "silver": 2}, 0)
    other = GAME.describe(before, after, 0, {"type": "bid", "silver": 2}, 1)
    assert str(own) == "Anna bid 2 silver" and str(other) == "Anna placed a sealed bid"
    assert localize(own, "nl") == "Anna bood 2 zilver"
    assert localize(other, "nl") == "Anna bracht een gesloten bod uit"
    assert localize(own, "de") == "Anna bot 2 Silber"
    assert localize(other, "de") == "Anna gab ein verdecktes Gebot ab"
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(copy.deepcopy(after), 1, {"type": "bid", "silver": 999}, event_rng("words", 10))
    have = after["players"][1]["silver"]
    assert localize(refused.value.message, "de") == (
        f"Du hast {have} Silber; du kannst nicht 999 bieten."
    )
    assert localize(refused.value.message, "nl") == (
        f"Je hebt {have} zilver; je kunt geen 999 bieden."
    )


def test_names_in_a_sentence_are_said_in_the_language():
    built = _(
        "{who} built the {building} (+{prestige} prestige)",
        who="Anna",
        building=PLANS[11].name,
        prestige=1,
    )
    assert localize(built, "nl") == "Anna bouwde Kapel (+1 prestige)"
    assert localize(built, "de") == "Anna baute Kapelle (+1 Prestige)"
    sold = _(
        "{who} sold {count} {resource} for {gain} silver",
        who="Bram",
        count=2,
        resource=RESOURCE_NAMES["wood"],
        gain=2,
    )
    assert localize(sold, "nl") == "Bram verkocht 2 hout voor 2 zilver"
    assert localize(sold, "de") == "Bram verkaufte 2 Holz für 2 Silber"


def test_the_text_board_and_help_in_german_and_dutch():
    state = GAME.setup(NAMES[:3], GAME.validate_options(3, {}), event_rng("board", 0))
    board = GAME.render_text(GAME.view(state, 0))
    german = localize(board, "de")
    assert german.startswith("BUILDERS OF BLANKENBURG - Zug 1, ")  # the title is a name
    assert "SPIELER" in german and "GEBOTSRAD" in german
    dutch = localize(board, "nl")
    assert "BIEDWIEL" in dutch and "Stapels: basis" in dutch
    assert str(board).startswith("BUILDERS OF BLANKENBURG - turn 1, ")
    assert "baue Kapelle" in localize(GAME.help_text(), "de")
    assert "bouw kapel" in localize(GAME.help_text(), "nl")
