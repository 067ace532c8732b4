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

# An organiser's commands, written to their tournament's address (replies.organiser).
ORGANISER_COMMANDS = (
    pgettext("command", "help"),
    pgettext("command", "draw"),
    pgettext("command", "extend"),
    pgettext("command", "describe"),
    pgettext("command", "withdraw"),
    pgettext("command", "offer"),
    pgettext("command", "cancel"),
)

# "extend 3 days": the word after the number, in any language, is not the reason.
DAYS = pgettext("command", "days")
