"""Choosing characters (the Count repeats one chosen earlier in the round)."""

from __future__ import annotations

from games.engine import IllegalMove
from games.engine.words import _, joined

from ..data import BUILDINGS, CHARACTER_NAMES, CHARACTERS, UNLOCKED_BY
from .flow import available_characters, begin_phase
from .helpers import name, say


def check_choice(state, move: dict) -> None:
    """IllegalMove unless the character is open this round (and the Count names one chosen
    before to repeat)."""
    char = move.get("character")
    if char not in CHARACTERS:
        raise IllegalMove(
            _(
                "Choose a character: {characters}.",
                characters=joined([CHARACTER_NAMES[c] for c in available_characters(state)], ", "),
            )
        )
    if char not in available_characters(state):
        if char in state["chosen"]:
            raise IllegalMove(
                _(
                    "The {character} was already chosen this round.",
                    character=CHARACTER_NAMES[char],
                )
            )
        if char in UNLOCKED_BY:
            raise IllegalMove(
                _(
                    "The {character} comes into play once the {building} is built.",
                    character=CHARACTER_NAMES[char],
                    building=BUILDINGS[UNLOCKED_BY[char]].name,
                )
            )
        raise IllegalMove(_("The Count repeats a character chosen earlier this round; none was."))
    if char == "count":
        repeat = move.get("repeat")
        if repeat not in state["chosen"] or repeat == "count":
            raise IllegalMove(
                _(
                    "Say which character the Count repeats: {characters}.",
                    characters=joined(
                        [CHARACTER_NAMES[c] for c in state["chosen"] if c != "count"], ", "
                    ),
                )
            )


def choose(state, seat: int, move: dict, checked: bool = True) -> None:
    if checked:
        check_choice(state, move)
    char = move.get("character")
    if char == "count":
        repeat = move.get("repeat")
        state["chosen"].append(char)
        if state["news"] is not None:
            say(
                state,
                _(
                    "{who} chose the Count and repeated the {character} (no privilege).",
                    who=name(state, seat),
                    character=CHARACTER_NAMES[repeat],
                ),
            )
        begin_phase(state, repeat, seat, False)  # no privilege
        return
    state["chosen"].append(char)
    if state["news"] is not None:
        say(
            state,
            _(
                "{who} chose the {character}.",
                who=name(state, seat),
                character=CHARACTER_NAMES[char],
            ),
        )
    begin_phase(state, char, seat, True)  # the privilege (positional: a cheaper call)


def choose_moves(state) -> list[dict]:
    moves = []
    for char in available_characters(state):
        if char == "count":
            for repeat in state["chosen"]:
                if repeat != "count":
                    moves.append({"type": "choose", "character": "count", "repeat": repeat})
        else:
            moves.append({"type": "choose", "character": char})
    return moves
