"""Reading what a player typed (on the web or in an email) as a move.

A player may answer with the game's own command ("build house at D5") or with the number of
an entry in the menu of legal moves they were shown. Menus are numbered in `legal_moves`
order, which is deterministic for a position, so a number means the same move in the email
and on the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Game, Move, ParseError, State

MENU_LIMIT = 30  # longer menus are not numbered: the player types the command


@dataclass(frozen=True)
class MenuEntry:
    number: int
    command: str
    move: Move


def menu(game: Game, state: State, seat: int) -> list[MenuEntry]:
    """The legal moves as numbered commands, or [] when there are too many to list."""
    if game.reads_numbers(state, seat):
        return []  # a number is the game's own command here ("7" for chip 7)
    legal = game.legal_moves(state, seat)
    if len(legal) > MENU_LIMIT:
        return []
    return [MenuEntry(n, game.format_move(state, seat, m), m) for n, m in enumerate(legal, 1)]


def interpret(game: Game, state: State, seat: int, text: str) -> Move:
    """The move meant by `text`; ParseError says what was expected."""
    text = " ".join(text.strip().split())
    if not text:
        raise ParseError("The command is empty.")
    number = text.rstrip(".)").lstrip("#")
    if number.isdigit() and not game.reads_numbers(state, seat):
        entries = menu(game, state, seat)
        if not entries:
            raise ParseError("There are too many choices to number; type the command instead.")
        index = int(number)
        if not 1 <= index <= len(entries):
            raise ParseError(f"Choose a number from 1 to {len(entries)}.")
        return entries[index - 1].move
    return game.parse(text, state, seat)
