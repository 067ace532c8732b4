"""Reading a page or a mail as a person does, for English left in another language: its
text, the labels a screen reader says, its buttons; code (commands, which English always
reads), scripts and the players' chat left out, and names (games, players, the site)."""

from __future__ import annotations

import functools
import re
from html.parser import HTMLParser
from pathlib import Path

import polib

from games.engine.registry import available_games

ROOT = Path(__file__).resolve().parents[2]

# Common English words of our pages and games that no Dutch, German or French translation of
# ours uses ("in", "is", "of", "open", "menu", "status", "start", "bot", "score", "help" are
# words of those languages too).
ENGLISH = {
    "the", "your", "you", "match", "matches", "move", "moves", "turn", "turns", "settings",
    "sign", "play", "players", "player", "waiting", "choose", "board", "history", "join",
    "new", "back", "next", "send", "save", "with", "for", "game", "games", "round", "time",
    "left", "vacation", "password", "now", "yet", "here", "what", "when", "who", "page",
    "only", "every", "nothing", "reply", "replay", "standing", "tournament", "tournaments",
    "league", "rated", "finished", "abandoned", "confirm", "undo", "seat", "seats", "log",
    "email", "archive", "profile", "show", "take", "by", "and", "bidding", "tile", "tiles",
    "card", "cards", "selection", "family", "pilgrim", "pilgrims", "barn", "barns", "ship",
    "ships", "money", "parcel", "parcels", "buy", "bought", "developed", "took", "chose",
    "settlement", "field", "pasture", "sea", "stored", "legend", "each", "begins", "income",
    "paid", "starts", "built", "sold", "wood", "stone", "silver", "guilders", "should",
    "ratings", "leaderboard", "rating", "token", "tokens", "created", "opponent", "draw",
    "won", "lost", "winner", "deadline", "days", "hours", "minutes", "ago", "week", "forced",
    "invited", "everyone", "public", "policy", "size", "address", "line", "front", "end",
}  # fmt: skip
# English words these languages have taken in, as our translations use them.
ALSO = {
    "nl": {"rating", "ratings", "deadline", "token", "tokens", "log"},  # "log je in"
    "de": {"token", "tokens"},
    "fr": {"points", "shillings", "token", "tokens", "page", "public", "minutes"},
}
SILENT = {"script", "style", "code", "template"}
SPOKEN = ("title", "alt", "placeholder", "aria-label")
# Words a page holds for the phone's layout (a table cell's label, shown by CSS) and for its
# scripts to write (the board's zoom button, the move's countdown).
SHOWN_LATER = ("data-label", "data-countdown", "data-zoom-in", "data-fit", "data-pan")


class Reading(HTMLParser):
    """A page's words as a person reads and hears them: text, spoken labels, button values.
    Code (commands, which English always reads), scripts and the players' chat are left out."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self.links: list[str] = []
        self.skipping: list[str] = []  # the tags of the element being left out, nested

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if self.skipping:
            if tag == self.skipping[0]:
                self.skipping.append(tag)
            return
        if (
            tag in SILENT
            or "chat-card" in (a.get("class") or "").split()
            or (tag == "option" and "/" in (a.get("value") or ""))  # a time zone: IANA's name
        ):
            self.skipping.append(tag)
            return
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        self.words += [a[k] for k in SPOKEN + SHOWN_LATER if a.get(k)]
        if tag in ("input", "button") and a.get("type") in ("submit", "button") and a.get("value"):
            self.words.append(a["value"])

    def handle_endtag(self, tag):
        if self.skipping and tag == self.skipping[0]:
            self.skipping.pop()

    def handle_data(self, data):
        if not self.skipping:
            self.words.append(data)


NAMES = ["Postal Boards", "Winter Cup", "Dora", "Bram", "Cees", "Eva"] + [
    g.title for g in available_games()
]


def english_in(text: str, language: str) -> list[str]:
    for name in NAMES:
        text = re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)  # a title in capitals too
    text = re.sub(r"\S*@\S+|\S+://\S+", " ", text)  # addresses and links
    words = (ENGLISH | catalogue_english(language)) - ALSO[language]
    return sorted({w for w in re.findall(r"[^\W\d_]+", text) if w.lower() in words})


def where(text: str, words: list[str]) -> dict[str, list[str]]:
    """Each word with what stands around it, twice at most: for a failure's message."""
    text = " ".join(text.split())
    return {w: re.findall(rf".{{0,50}}\b{w}\b.{{0,30}}", text)[:2] for w in words}


@functools.cache
def catalogue_english(language: str) -> frozenset[str]:
    """Every word of three letters or more of our English (both catalogues' message ids)
    that no translation into `language` uses: a word of the interface or of the games that,
    met on a page in that language, was left untranslated."""

    def words(texts) -> set[str]:
        plain = (re.sub(r"%\(\w+\)\w|\{[^}]*\}|<[^>]+>", " ", t) for t in texts)
        return {w.lower() for t in plain for w in re.findall(r"[^\W\d_]{3,}", t)}

    english, translated = set(), set()
    for catalogue in (ROOT / "locale", ROOT / "games" / "rules" / "locale"):
        for e in polib.pofile(str(catalogue / language / "LC_MESSAGES" / "django.po")):
            english |= words([e.msgid, e.msgid_plural or ""])
            translated |= words([e.msgstr, *e.msgstr_plural.values()])
    return frozenset(english - translated)
