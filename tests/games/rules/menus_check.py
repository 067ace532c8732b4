"""Checks shared by every game's compact-menu tests: from the email's text alone, every
legal move can be written as a command, and every command written from it is legal.

`commands_from_text` reads the text the way a player does (the words before '...', one
choice from the lines under them, one ending where the line has them); it does not look at
the MenuLine objects, so a choice the text leaves out or garbles is caught.
"""

from __future__ import annotations

import re

from games.commands import choices_text
from games.engine import Game, canonical_json, event_rng, next_automatic, seats_to_ask
from games.engine.playout import player_names


def positions(game: Game, players: int, seed: str, options: dict | None = None):
    """(state, seat) for every decision a person is asked in one bot game."""
    options = game.validate_options(players, options or {})
    state = game.setup(player_names(players), options, event_rng(seed, 0))
    seq = 0
    while game.result(state) is None:
        automatic = next_automatic(game, state)
        if automatic is not None:
            seat, move = automatic.seat, automatic.move
        else:
            seats = seats_to_ask(game, state)
            rng = event_rng(seed + ":bot", seq + 1)
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
            yield state, seat
            move = game.bot_move(state, seat, rng)
        seq += 1
        state = game.apply(state, seat, move, event_rng(seed, seq))


def _items(text: str) -> list[str]:
    return [item.strip() for item in text.strip().strip("|").split(" | ") if item.strip()]


def commands_from_text(text: str) -> list[str]:
    """Every command the compact text offers, read from the text alone."""
    commands: list[str] = []
    head, choices, endings = None, [], []

    def flush():
        if head is not None:
            for choice in choices or [""]:
                for ending in endings or [""]:
                    commands.append(" ".join(p for p in (head, choice, ending) if p))

    lines = text.splitlines()
    while lines and not lines[0].startswith("  "):  # how to read what follows
        lines.pop(0)
    for line in lines:
        if line.startswith("      then one of: "):
            endings += _items(line.removeprefix("      then one of: "))
        elif line.startswith("      ("):  # a note under a long command
            continue
        elif line.startswith("      "):
            choices += _items(line)
        elif line.startswith("  "):
            flush()
            head, choices, endings = None, [], []
            body = line.strip()
            if " ..." in body:
                head = body.split(" ...")[0]
            else:
                commands.append(re.sub(r"\s{3}\(.*\)$", "", body))
        else:
            raise AssertionError(f"unexpected line in the menu: {line!r}")
    flush()
    return commands


def check_compact_menu(game: Game, state, seat: int) -> int:
    """The compact text lists every legal move, and only legal moves. Returns the count."""
    legal = game.legal_moves(state, seat)
    text = choices_text(game, state, seat, limit=0)
    assert "example" not in text.lower()
    assert all(len(line) <= 78 for line in text.splitlines()), text
    wanted = {canonical_json(m) for m in legal}
    found: dict[str, str] = {}
    for command in commands_from_text(text):
        move = game.parse(command, state, seat)
        key = canonical_json(move)
        assert key in wanted, f"{command!r} reads as {move}, which is not legal now"
        assert key not in found, f"{command!r} and {found[key]!r} are the same move"
        found[key] = command
    missing = wanted - set(found)
    assert not missing, f"not in the menu: {sorted(missing)[:3]}\n{text}"
    return len(legal)


def check_numbered_menu(game: Game, state, seat: int) -> None:
    """Short menus stay numbered, one legal move per number, in legal_moves order."""
    legal = game.legal_moves(state, seat)
    text = choices_text(game, state, seat, limit=len(legal))
    numbered = [line for line in text.splitlines() if re.match(r"^\s*\d+\. ", line)]
    assert len(numbered) == len(legal)
    for line, move in zip(numbered, legal, strict=True):
        command = line.split(". ", 1)[1]
        assert game.parse(command, state, seat) == move
