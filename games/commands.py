"""Reading what a player typed (on the web or in an email) as a move.

A player may answer with the game's own command ("build house at D5") or with the number of
an entry in the menu of legal moves they were shown. Menus are numbered in `legal_moves`
order, which is deterministic for a position, so a number means the same move in the email
and on the page.

Longer menus are not numbered but written compactly and completely (`choices_text`): moves
whose commands start alike share a line, with the facts that help choose (a building's cost),
so every legal command can be put together from the email's text alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, replace

from django.utils import translation
from django.utils.translation import ngettext, pgettext

from games.engine import Game, Move, ParseError, State, View, canonical_json
from games.engine.menus import WIDTH, render_menu, render_reference
from games.engine.numbers import read_number
from games.language import courteously, in_language, localize, plainly, to_english

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


def interpret(
    game: Game,
    state: State,
    seat: int,
    text: str,
    language: str | Callable[[], str | None] | None = None,
) -> Move:
    """The move meant by `text`, written in English or in any of the site's languages (the
    player's own, `language`, decides a word that differs between them; a callable is asked
    only when the text is not English); ParseError says what was expected."""
    text = courteously(text)
    try:
        return _interpret(game, state, seat, text)
    except ParseError:
        if callable(language):
            language = language()
        names = state.get("names", ()) if isinstance(state, dict) else ()
        english = to_english(game, text, language, names)  # a word of unclear language: refused
        plain = plainly(english)  # "bitte", "s'il te plaît", "la", "het" left out
        if english == text and plain == english:
            raise
    try:
        return _interpret(game, state, seat, english)
    except ParseError:
        if plain == english:
            raise
    return _interpret(game, state, seat, plain)


def _interpret(game: Game, state: State, seat: int, text: str) -> Move:
    text = " ".join(text.strip().split())
    if not text:
        raise ParseError("The command is empty.")
    word = text.lower().rstrip(".!")
    if word in YES or word in NO:
        return short_answer(game, state, seat, word)
    index = read_number(text.rstrip(".)").lstrip("#"))
    if index is not None and not game.reads_numbers(state, seat):
        entries = menu(game, state, seat)
        if not entries:
            raise ParseError("There are too many choices to number; type the command instead.")
        if not 1 <= index <= len(entries):
            raise ParseError(f"Choose a number from 1 to {len(entries)}.")
        return entries[index - 1].move
    return game.parse(text, state, seat)


# One-word answers, as a phone writes them. "accept" and "decline" are commands of their own
# where a game has them; here they also answer a question asked in other words.
YES = frozenset({"yes", "y", "ok", "okay", "sure", "agree", "agreed", "accept"})
NO = frozenset({"no", "n", "nope", "decline", "refuse", "reject"})
SHORT_ANSWERS = YES | NO


def short_answer(game: Game, state: State, seat: int, word: str) -> Move:
    """The move a yes or a no means here: accept or decline; of "X" and "no X" (watch, no
    watch), the one it names; no to "X or skip" is skip, and yes is X when it is the only
    other choice. Where it means nothing, or several things, the choices are the answer."""
    legal = game.legal_moves(state, seat)
    commands = [game.format_move(state, seat, m) for m in legal]

    def the(*names: str) -> list[int]:
        return [i for i, c in enumerate(commands) if c in names]

    negated = [i for i, c in enumerate(commands) if c.startswith("no ") and c[3:] in commands]
    refusals = the("decline", "no") or negated or the("skip", "pass")
    if word in NO:
        meant = refusals
    else:
        meant = the("accept", "yes") or [commands.index(commands[i][3:]) for i in negated]
        if not meant and len(refusals) == 1 and len(commands) == 2:
            meant = [1 - refusals[0]]
    if len(meant) == 1:
        return legal[meant[0]]
    if not meant:
        try:  # the game's own word ("accept" an offer that is worded otherwise)
            move = game.parse(word, state, seat)
        except ParseError:
            move = None
        if move in legal:
            return move
    choices = "; ".join(f"{n}. {c}" for n, c in enumerate(commands[:MENU_LIMIT], 1))
    raise ParseError(
        f"“{word}” does not say which move you mean here. Your choices: {choices or 'none'}."
    )


def choices_text(
    game: Game, state: State, seat: int, *, limit: int = MENU_LIMIT, language: str | None = None
) -> str:
    """Every legal move of `seat`, as plain text for an email: numbered when there are at
    most `limit`, else one line per kind of command with its choices (games.engine.menus);
    the commands in `language` (the active one by default)."""
    legal = game.legal_moves(state, seat)
    lines = game.menu_lines(state, seat, legal)

    def said(command: str) -> str:
        return in_language(game, command, language)

    if len(legal) <= limit:
        notes = {}
        for line in lines:
            for _choice, _ending, move in line.moves:
                notes[canonical_json(move)] = (line.command.removesuffix(" at"), line.note)
        out, last_heading = [], ("", "")
        for number, move in enumerate(legal, 1):
            heading = command, note = notes.get(canonical_json(move), ("", ""))
            # keyed by the command too: a baker and a butcher cost the same, and each
            # building's choices belong under its own heading
            if note and heading != last_heading:
                out += _heading(said(command), localize(note, language))
            last_heading = heading
            out.append(f"{number:3d}. {said(game.format_move(state, seat, move))}")
        return "\n".join(out)
    shown = [
        replace(
            line,
            command=said(line.command),
            note=localize(line.note, language),
            choices=[said(c) for c in line.choices],
            endings=[said(e) for e in line.endings],
        )
        for line in lines
    ]
    with translation.override(language) if language else nullcontext():
        intro = ngettext(
            "%(count)s choice. Write the words before '...' and one of the choices under\n"
            "them (and one of the endings, where a line has them):",
            "%(count)s choices. Write the words before '...' and one of the choices under\n"
            "them (and one of the endings, where a line has them):",
            len(legal),
        ) % {"count": len(legal)}
        # the words before a line's endings ("less 1 wood")
        then_one_of = pgettext("menu", "then one of:")
    return f"{intro}\n{render_menu(shown, then_one_of)}"


def _heading(command: str, note: str) -> list[str]:
    """A numbered menu's heading, on lines of its own and flush left, where the items' text
    is indented: at the items' indent it read as the end of the item above (issue 28). A long
    note wraps after a ';', ',' or ':', never inside a term such as "2 guilders + 1 wood"."""
    lines, current = [], f"{command}:"
    for n, term in enumerate(re.split(r"(?<=[;,:]) ", note)):
        if n and len(current) + 1 + len(term) > WIDTH:
            lines.append(current)
            current = "  " + term
        else:
            current += " " + term
    return [*lines, current]


def reference_text(
    game: Game, view: View, *, brief: bool = False, language: str | None = None
) -> str:
    """The game's reference tables as text in `language` (the active one by default);
    `brief`: only those short enough for every turn email (the full set is for 'help' and
    the page)."""
    sections = [s for s in game.reference(view) if s.brief or not brief]
    return render_reference(localize(sections, language))
