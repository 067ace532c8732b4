"""Checks the games' language tests share (tests/games/rules/<game>/test_in_languages.py): what
a game said along bot matches, collected by kind ("describe", "refusal", "board", ...)."""

from __future__ import annotations

import re

from games.engine.words import JOINED, LISTED, WRAPPED, Text
from games.language import untranslated


def assert_all_texts(said: dict[str, list], game) -> None:
    """Every history line, refusal and board is a Text, and so is the help."""
    assert said["describe"] and said["refusal"] and said["board"]
    for kind in ("describe", "refusal", "board"):
        plain = [value for value in said[kind] if not isinstance(value, Text)]
        assert plain == [], f"{kind}: plain strings reach the player: {plain[:3]}"
    assert isinstance(game.help_text(), Text)


def plain_parts(value, no_words: re.Pattern, codes: re.Pattern | None = None) -> list[str]:
    """The parts of joined lines (a history line's sentences, a board's lines and cells) that
    are plain strings with words in them: English no catalogue can say. `no_words` removes
    what is no word (players' names, codes); a part `codes` matches is left alone."""
    found = []
    if isinstance(value, Text):
        for part in value.params.values():
            if isinstance(part, Text):
                found += plain_parts(part, no_words, codes)
            elif value.context in (JOINED, LISTED, WRAPPED) and isinstance(part, str):
                if codes is not None and codes.match(part):
                    continue
                if re.search(r"[A-Za-z]{2,}", no_words.sub("", part)):
                    found.append(part)
    return found


def assert_nothing_untranslated(said: dict[str, list], language: str, game) -> None:
    for kind, values in said.items():
        missing = sorted({m for value in values for m in untranslated(value, language)})
        assert missing == [], f"{kind} in {language}: {missing}"
    assert untranslated(game.help_text(), language) == []


def wide_lines(board, language: str, width: int = 78) -> list[str]:
    """The lines of a text board said in `language` that are wider than the board: only a
    word longer than a line may make one (a line is broken at spaces only)."""
    from games.language import localize

    return [
        line
        for line in localize(board, language).splitlines()
        if len(line) > width and " " in line.strip()
    ]
