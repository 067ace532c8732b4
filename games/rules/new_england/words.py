"""The English words and phrases New England's commands are written in, marked for the
games' catalogue (games.engine.words): every word `text.format_move` writes, and the names
its parser reads. A translation lists the words a player of that language writes."""

from games.engine.words import pgettext

COMMAND_WORDS = (
    pgettext("command", "yes"),
    pgettext("command", "no"),
    # what a player does
    pgettext("command", "cards"),
    pgettext("command", "chip"),
    pgettext("command", "buy"),
    pgettext("command", "place"),
    pgettext("command", "develop"),
    pgettext("command", "store"),
    pgettext("command", "play"),
    pgettext("command", "stored"),
    pgettext("command", "move"),
    pgettext("command", "reveal"),
    pgettext("command", "pass"),
    # the words between
    pgettext("command", "tile"),
    pgettext("command", "card"),
    pgettext("command", "at"),
    pgettext("command", "to"),
    # figures and lands
    pgettext("command", "pilgrim"),
    pgettext("command", "barn"),
    pgettext("command", "ship"),
    pgettext("command", "settlement"),
    pgettext("command", "field"),
    pgettext("command", "pasture"),
)
