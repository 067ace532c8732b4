"""The words a game's commands are written in, marked for the games' gettext catalogue.

A rules package stays pure (no Django): it lists the English words and phrases its parser
reads (`Game.command_words`), each marked with `pgettext("command", ...)`. That marker does
nothing here; its name is the one `makemessages` extracts, so every phrase lands in the
catalogue at games/rules/locale/, where a translator gives the words a player of that
language writes for it ("bouw|bouwen" for "build": the first is the one shown). The
platform (games.language) reads a command in any of the site's languages into these English
phrases before the game's own parser sees it, and writes a menu's commands back in the
player's language.
"""

from __future__ import annotations

COMMAND = "command"

# The one-word answers every game reads (games.commands.YES and NO); each game's words.py
# marks them for the catalogue.
ANSWER_WORDS = ("yes", "no")


def pgettext(context: str, message: str) -> str:
    """`message`, marked as a message id with its context for the catalogue."""
    return message
