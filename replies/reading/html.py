"""HTML to text the way a plain-text mail client would show it.

BeautifulSoup (with Python's own html.parser) builds the tree and decodes every entity;
this module decides the layout: head, style, script and the like are dropped, block
elements and <br> end lines, quoted parts (<blockquote>, web.de's quote div, Yahoo's) get
"> " in front of each line so the quote finder sees them as a plain-text reply shows them,
and a Gmail signature gets the "-- " line a plain-text part would have.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, Comment, NavigableString, Tag

DROPPED = (
    "head", "title", "style", "script", "noscript", "template", "meta", "link",
    "svg", "object", "iframe", "img",
)  # fmt: skip
BLOCKS = {
    "address", "article", "aside", "blockquote", "center", "dd", "div", "dl", "dt",
    "fieldset", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "thead",
    "tfoot", "tr", "ul",
}  # fmt: skip
CELLS = {"td", "th"}
_SPACE = re.compile(r"[ \t\r\n\f]+")


def _is_quote(tag: Tag) -> bool:
    if tag.name == "blockquote":
        return True
    classes = " ".join(tag.get("class") or [])
    return tag.get("name") == "quote" or "yahoo_quoted" in classes


def _is_signature(tag: Tag) -> bool:
    classes = " ".join(tag.get("class") or [])
    return "gmail_signature" in classes or "moz-signature" in classes


class _Lines:
    def __init__(self) -> None:
        self.lines: list[tuple[int, str]] = []
        self.current: list[str] = []
        self.depth = 0

    def text(self, words: str, depth: int) -> None:
        if depth != self.depth:
            self.end_line()
            self.depth = depth
        self.current.append(words)

    def end_line(self, *, blank_ok: bool = False) -> None:
        line = "".join(self.current).strip()
        if line or blank_ok:
            self.lines.append((self.depth, line))
        self.current = []

    def render(self) -> str:
        self.end_line()
        out = []
        for depth, line in self.lines:
            prefix = "> " * depth
            out.append((prefix + line).rstrip() if line or depth else "")
        return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n")


def _walk(node: Tag, lines: _Lines, depth: int, pre: bool) -> None:
    for child in node.children:
        if isinstance(child, Comment):
            continue
        if isinstance(child, NavigableString):
            text = str(child).replace("\xa0", " ")
            if pre:
                for index, piece in enumerate(text.split("\n")):
                    if index:
                        lines.end_line(blank_ok=True)
                    lines.text(piece, depth)
            else:
                lines.text(_SPACE.sub(" ", text), depth)
            continue
        if not isinstance(child, Tag) or child.name in DROPPED:
            continue
        if child.name == "br":
            lines.end_line(blank_ok=True)
            continue
        block = child.name in BLOCKS
        if block:
            lines.end_line()
        if child.name in CELLS:
            lines.text(" ", depth)
        if _is_signature(child):
            lines.end_line()
            lines.text("-- ", depth)
            lines.end_line()
        inner = depth + 1 if _is_quote(child) else depth
        _walk(child, lines, inner, pre or child.name == "pre")
        if block:
            lines.end_line()


def html_to_text(html: str) -> str:
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(DROPPED):
        tag.decompose()
    lines = _Lines()
    _walk(soup, lines, 0, False)
    return lines.render()
