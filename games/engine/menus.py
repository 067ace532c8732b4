"""Long menus written compactly and completely, and each game's reference facts.

A decision can have hundreds of legal moves (a Nieuwstad build: every building, every place,
every facing). Numbering them all makes an email nobody reads; printing three examples makes
the player guess. Here moves that share the start of their command are written as one line:

    build house at ...   House: 2 guilders + 3 wood, 2 points, 1 space, +5 Burghers
        D6 facing north | C8 | E3 facing south
        then one of: less 1 guilder | less 1 wood

and a command is those words, one choice and (if the line has them) one ending. Every legal
move is on exactly one line, and `MenuLine.command_for` writes the command that the game's
parser reads back as that move (the tests check it for random positions of every game).

A game says how to cut its commands with `Game.menu_parts`; the grouping, the check that an
ending really goes with every choice, and the text are here, shared.

Reference facts (Nieuwstad's building table, New England's cards, Blankenburg's codes) are
`ReferenceSection`s: structured data a template can render as a table, and `render_reference`
writes them as plain text for email. Pure Python: no Django.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any

Move = dict[str, Any]
WIDTH = 78


@dataclass(frozen=True)
class MenuParts:
    """How one move's command is cut: `command`, then `choice`, then `ending`.

    The three, joined by spaces (empty parts left out), must be a command the game's parser
    reads as the move. `note` gives the facts that help choose (a building's cost); moves of
    one line share it.
    """

    command: str
    choice: str = ""
    ending: str = ""
    note: str = ""


@dataclass
class MenuLine:
    """Legal moves whose commands start alike. JSON-friendly, for templates too."""

    command: str
    note: str = ""
    choices: list[str] = field(default_factory=list)  # [] or [""]: the command alone
    endings: list[str] = field(default_factory=list)  # [] : no ending; else one is required
    moves: list[tuple[str, str, Move]] = field(default_factory=list)  # (choice, ending, move)

    def command_for(self, choice: str, ending: str = "") -> str:
        return _join(self.command, choice, ending)

    def as_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "note": self.note,
            "choices": list(self.choices),
            "endings": list(self.endings),
            "commands": [self.command_for(c, e) for c, e, _ in self.moves],
        }


def group_moves(parts: list[tuple[MenuParts, Move]]) -> list[MenuLine]:
    """Lines of moves with the same command, in the order their first move is listed.

    Endings are printed once for a line only when every choice takes every ending (a cross
    product); otherwise the ending stays part of each choice, so nothing illegal is implied.
    """
    lines: dict[str, MenuLine] = {}
    for part, move in parts:
        line = lines.get(part.command)
        if line is None:
            line = lines[part.command] = MenuLine(command=part.command, note=part.note)
        line.moves.append((part.choice, part.ending, move))
    for line in lines.values():
        choices = list(dict.fromkeys(c for c, _, _ in line.moves))
        endings = list(dict.fromkeys(e for _, e, _ in line.moves))
        pairs = {(c, e) for c, e, _ in line.moves}
        crossed = len(pairs) == len(line.moves) == len(choices) * len(endings)
        if endings != [""] and not (crossed and choices != [""]):
            # not every choice takes every ending: write each choice with its ending
            line.moves = [(_join(c, e), "", m) for c, e, m in line.moves]
            choices, endings = [c for c, _, _ in line.moves], [""]
        line.choices = [] if choices == [""] else choices
        line.endings = [] if endings == [""] else endings
    return list(lines.values())


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def _wrap_choices(items: list[str], indent: str) -> list[str]:
    """Items separated by ' | ', wrapped at WIDTH, never cut inside an item."""
    out: list[str] = []
    current = indent
    for item in items:
        piece = item if current == indent else " | " + item
        if current != indent and len(current) + len(piece) + 2 > WIDTH:
            out.append(current + " |")
            current = indent + item
        else:
            current += piece
    if current != indent:
        out.append(current)
    return out


def render_menu(lines: list[MenuLine], then_one_of: str = "then one of:") -> str:
    """The lines as plain text: a command alone, or the command and its choices (and the
    endings after `then_one_of`, the platform's words in the reader's language)."""
    out: list[str] = []
    for line in lines:
        if not line.choices and not line.endings:
            head = line.command
            out.append(f"  {head}" + (f"   ({line.note})" if line.note else ""))
            continue
        head = f"  {line.command} ..."
        if line.note and len(head) + len(line.note) + 3 <= WIDTH:
            out.append(f"{head} ({line.note})")
        else:
            out.append(head)
            if line.note:
                out.append(f"      ({line.note})")
        out += _wrap_choices(line.choices, "      ")
        if line.endings:
            out += _wrap_choices(line.endings, f"      {then_one_of} ")
    wrapped: list[str] = []
    for text in out:
        if len(text) <= WIDTH:
            wrapped.append(text)
        else:
            wrapped += textwrap.wrap(text, WIDTH, subsequent_indent="        ")
    return "\n".join(wrapped)


# --- reference facts -----------------------------------------------------------------------


@dataclass
class ReferenceSection:
    """One table of facts: a title, column headings, rows of cells, notes under it.

    `key` names the section for a page that wants one (e.g. "buildings"). `brief` sections
    go in every turn email (what a turn is decided on); the others go on the page and in
    'help'.
    """

    key: str
    title: str
    columns: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)
    brief: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "columns": list(self.columns),
            "rows": [list(r) for r in self.rows],
            "notes": list(self.notes),
            "brief": self.brief,
        }


def render_table(columns: list[str], rows: list[list[str]], indent: str = "  ") -> list[str]:
    """A fixed-width table; the last column wraps under itself when a line would be long."""
    if not rows:
        return []
    widths = [len(c) for c in columns]
    for row in rows:
        for i, cell in enumerate(row[:-1]):
            widths[i] = max(widths[i], len(cell))
    lead = len(indent) + sum(w + 2 for w in widths[:-1])
    longest = max(len(row[-1]) for row in [columns, *rows])
    # too wide: the last column goes under its row (unless its longest cell fits beside)
    stacked = WIDTH - lead < min(24, longest)
    last_width = WIDTH - (len(indent) + 4 if stacked else lead)

    def line(cells: list[str]) -> list[str]:
        head = indent + "".join(f"{c:<{w}}  " for c, w in zip(cells[:-1], widths[:-1]))
        tail = textwrap.wrap(cells[-1], last_width) or [""]
        if stacked:
            return [head.rstrip()] + [" " * (len(indent) + 4) + t for t in tail if t]
        return [(head + tail[0]).rstrip()] + [" " * lead + t for t in tail[1:]]

    out = line(columns)
    for row in rows:
        out += line(row)
    return out


def render_reference(sections: list[ReferenceSection]) -> str:
    out: list[str] = []
    for section in sections:
        if out:
            out.append("")
        out.append(section.title)
        out += render_table(section.columns, section.rows)
        for note in section.notes:
            out += textwrap.wrap(note, WIDTH, initial_indent="  ", subsequent_indent="  ")
    return "\n".join(out)
