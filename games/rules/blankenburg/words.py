"""The English words and phrases Builders of Blankenburg's commands are written in, marked
for the games' catalogue (games.engine.words): every word `text.format_move` writes, and the
names its parser reads. A translation lists the words a player of that language writes."""

from games.engine.words import pgettext

COMMAND_WORDS = (
    pgettext("command", "yes"),
    pgettext("command", "no"),
    # articles, which the parser passes over ("build a house", "demolish the tower")
    pgettext("command", "a"),
    pgettext("command", "the"),
    # what a player does
    pgettext("command", "bid"),
    pgettext("command", "take"),
    pgettext("command", "choose"),
    pgettext("command", "extra"),
    pgettext("command", "buy"),
    pgettext("command", "build"),
    pgettext("command", "keep"),
    pgettext("command", "demolish"),
    pgettext("command", "repair"),
    pgettext("command", "sell"),
    pgettext("command", "pass"),
    pgettext("command", "done"),
    pgettext("command", "accept"),
    pgettext("command", "decline"),
    # the words between
    pgettext("command", "basic plan"),
    pgettext("command", "grand plan"),
    pgettext("command", "discarding"),
    pgettext("command", "communal"),
    pgettext("command", "damaged"),
    pgettext("command", "in"),
    # resources
    pgettext("command", "wood"),
    pgettext("command", "stone"),
    pgettext("command", "glass"),
    pgettext("command", "marble"),
    pgettext("command", "iron"),
    # districts
    pgettext("command", "residential"),
    pgettext("command", "commercial"),
    pgettext("command", "civic"),
    pgettext("command", "religious"),
    # plans
    pgettext("command", "castle"),
    pgettext("command", "cathedral"),
    pgettext("command", "chapel"),
    pgettext("command", "cottage"),
    pgettext("command", "courthouse"),
    pgettext("command", "estate"),
    pgettext("command", "forge"),
    pgettext("command", "guardhouse"),
    pgettext("command", "guildhall"),
    pgettext("command", "inn"),
    pgettext("command", "library"),
    pgettext("command", "manor"),
    pgettext("command", "market hall"),
    pgettext("command", "monastery"),
    pgettext("command", "palace"),
    pgettext("command", "parish"),
    pgettext("command", "priory"),
    pgettext("command", "shop"),
    pgettext("command", "shrine"),
    pgettext("command", "tavern"),
    pgettext("command", "tower"),
    pgettext("command", "town hall"),
    pgettext("command", "townhouse"),
    pgettext("command", "trading house"),
    pgettext("command", "tudor"),
    pgettext("command", "university"),
    pgettext("command", "workshop"),
)
