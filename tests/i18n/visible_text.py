"""What a template shows that is not marked for translation.

The rule: a template is read with Django's own Lexer. Text inside {% translate %},
{% blocktranslate %} (and its {% plural %}) and {% comment %} is marked; a {{ variable }} stands
for a value, not for words; other tags show nothing. What is left is parsed as HTML (plain text
for .txt templates): the words of text nodes, and of the attributes a person reads or hears
(title, alt, placeholder, aria-label, and the value of a button-like input) must be none. The
contents of <script>, <style> and <code> are not prose. A word is two letters or more; entities
(&rarr;) and a few names that are the same in every language (ALLOWED) are not words to
translate."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from django.template.base import Lexer, TokenType

# Said the same in every language of the site: formats, protocols and the site's own name.
ALLOWED = {"HTML", "JSON", "UTC", "SHA", "API", "Postal", "Boards"}
VISIBLE_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label"}
SILENT_ELEMENTS = {"script", "style", "code"}
MARK = "\u00a7"  # stands for a variable or a translated text in the skeleton
WORD = re.compile(r"[^\W\d_]{2,}")


def skeleton(source: str) -> str:
    """The template with marked text, variables and tags taken out."""
    out: list[str] = []
    inside: str | None = None  # the end tag awaited: endblocktranslate, endcomment
    for token in Lexer(source).tokenize():
        contents = token.contents.split()
        name = contents[0] if contents and token.token_type == TokenType.BLOCK else ""
        if inside:
            if name == inside:
                inside = None
            continue
        if token.token_type == TokenType.TEXT:
            out.append(token.contents)
        elif token.token_type == TokenType.VAR:
            out.append(MARK)
        elif name in ("blocktranslate", "blocktrans"):
            out.append(MARK)
            inside = "end" + name
        elif name == "comment":
            inside = "endcomment"
        elif name in ("translate", "trans"):
            out.append("" if "as" in contents else MARK)
    return "".join(out)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.words: list[str] = []
        self.silent = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SILENT_ELEMENTS:
            self.silent += 1
        values = dict(attrs)
        shown = [v for k, v in attrs if k in VISIBLE_ATTRIBUTES and v]
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            shown.append(values["value"])
        for value in shown:
            self.words += words_in(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in SILENT_ELEMENTS and self.silent:
            self.silent -= 1

    def handle_data(self, data: str) -> None:
        if not self.silent:
            self.words += words_in(data)


def words_in(text: str) -> list[str]:
    """Words to translate in `text`: entities and example addresses are none."""
    text = re.sub(r"\S+@\S+|&#?\w+;", " ", text.replace(MARK, " "))
    return [w for w in WORD.findall(text) if w not in ALLOWED]


def untranslated_words(path: Path) -> list[str]:
    text = skeleton(path.read_text(encoding="utf-8"))
    if path.suffix == ".txt":
        return words_in(text)
    reader = _Reader()
    reader.feed(text)
    reader.close()
    return reader.words
