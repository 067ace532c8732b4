"""Choosing characters (the Count repeats one chosen earlier in the round)."""

from __future__ import annotations

from games.engine import IllegalMove

from ..data import BUILDINGS, CHARACTER_NAMES, CHARACTERS, UNLOCKED_BY
from .flow import available_characters, begin_phase
from .helpers import name, say


def check_choice(state, move: dict) -> None:
    """IllegalMove unless the character is open this round (and the Count names one chosen
    before to repeat)."""
    char = move.get("character")
    if char not in CHARACTERS:
        raise IllegalMove(
            "Choose a character: "
            + ", ".join(CHARACTER_NAMES[c] for c in available_characters(state))
            + "."
        )
    if char not in available_characters(state):
        if char in state["chosen"]:
            raise IllegalMove(f"The {CHARACTER_NAMES[char]} was already chosen this round.")
        if char in UNLOCKED_BY:
            raise IllegalMove(
                f"The {CHARACTER_NAMES[char]} comes into play once the "
                f"{BUILDINGS[UNLOCKED_BY[char]].name} is built."
            )
        raise IllegalMove("The Count repeats a character chosen earlier this round; none was.")
    if char == "count":
        repeat = move.get("repeat")
        if repeat not in state["chosen"] or repeat == "count":
            raise IllegalMove(
                "Say which character the Count repeats: "
                + ", ".join(CHARACTER_NAMES[c] for c in state["chosen"] if c != "count")
                + "."
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
                f"{name(state, seat)} chose the Count and repeated the "
                f"{CHARACTER_NAMES[repeat]} (no privilege).",
            )
        begin_phase(state, repeat, seat, False)  # no privilege
        return
    state["chosen"].append(char)
    if state["news"] is not None:
        say(state, f"{name(state, seat)} chose the {CHARACTER_NAMES[char]}.")
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
