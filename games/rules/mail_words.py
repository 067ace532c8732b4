"""The words of the commands every match's emails take besides the game's own (status, help,
say, resign ...; replies.inbound reads them), marked for the games' catalogue like a game's
command words (games.engine.words): a Dutch player writes `zeg` or `geef op`."""

from games.engine.words import pgettext

MAIL_COMMANDS = (
    pgettext("command", "status"),
    pgettext("command", "help"),
    pgettext("command", "say"),
    pgettext("command", "undo"),
    pgettext("command", "resign"),
    pgettext("command", "substitute"),
    pgettext("command", "expel"),
    pgettext("command", "withdraw"),
    pgettext("command", "tournament"),
    pgettext("command", "tournament join"),
    pgettext("command", "takeover"),
)
