"""Bytes to headers and text without ever raising.

Python's email package raises LookupError on an unknown charset when asked for decoded text
and ValueError on some malformed headers, so this module parses with the lenient compat32
policy and decodes every header and part itself, falling back to UTF-8 and then to
Windows-1252 with replacement characters. Nothing here raises on any input.
"""

from __future__ import annotations

import email
import re
from dataclasses import dataclass
from email.header import decode_header
from email.message import Message
from email.policy import compat32
from email.utils import getaddresses, parseaddr

from .flowed import unflow
from .html import html_to_text

# Labels real clients write that Python does not know, or knows under another name.
CHARSET_ALIASES = {
    "iso-8859-8-i": "iso-8859-8",
    "iso-8859-8-e": "iso-8859-8",
    "iso-8859-6-i": "iso-8859-6",
    "iso-8859-6-e": "iso-8859-6",
    "ks_c_5601-1987": "cp949",
    "ks_c_5601": "cp949",
    "x-user-defined": "cp1252",
    "windows-874": "cp874",
    "x-mac-roman": "mac_roman",
    "macintosh": "mac_roman",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "utf8": "utf-8",
    "unicode-1-1-utf-7": "utf-7",
    "iso-8859-1": "cp1252",  # what is labelled Latin-1 is in practice Windows-1252
    "latin1": "cp1252",
}
# Labels that name no charset at all: guess.
UNKNOWN_CHARSETS = {"", "x-unknown", "unknown", "unknown-8bit", "x-unknown-8bit", "default"}
MAX_PARTS = 200
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufeff]")


def decode_bytes(data: bytes, charset: str | None) -> str:
    """Text of `data` in `charset`, or the best guess when that is unknown or wrong."""
    label = (charset or "").strip().strip('"').lower()
    label = CHARSET_ALIASES.get(label, label)
    if label in ("us-ascii", "ascii"):
        label = ""  # 8-bit bytes in a part labelled ASCII are usually UTF-8
    if label and label not in UNKNOWN_CHARSETS:
        try:
            return data.decode(label, errors="replace")
        except Exception:  # LookupError, and codecs that are not text encodings ("base64")
            pass
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def clean_text(text: str) -> str:
    """Valid Unicode without control characters (tabs and newlines kept)."""
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def _one_line(text: str) -> str:
    return " ".join(clean_text(text.replace("\n", " ").replace("\t", " ")).split())


def parse(raw: bytes) -> Message:
    """The message tree; compat32 keeps whatever it cannot understand as defects."""
    try:
        return email.message_from_bytes(raw, policy=compat32)
    except Exception:  # pragma: no cover - compat32's parser does not raise on bytes
        return email.message_from_string("", policy=compat32)


def raw_header(message: Message, name: str) -> str:
    """The header's value as written, unfolded, control characters removed."""
    try:
        value = message.get(name)
    except Exception:
        return ""
    return _one_line(str(value)) if value is not None else ""


def raw_headers(message: Message, name: str) -> list[str]:
    try:
        values = message.get_all(name) or []
    except Exception:
        return []
    return [_one_line(str(v)) for v in values]


def header(message: Message, name: str) -> str:
    """The header's value with RFC 2047 encoded words decoded."""
    value = raw_header(message, name)
    try:
        parts = decode_header(value)
    except Exception:
        return value
    text = []
    for chunk, charset in parts:
        text.append(decode_bytes(chunk, charset) if isinstance(chunk, bytes) else chunk)
    return _one_line("".join(text))


def address(message: Message, name: str) -> str:
    """The single address in a From-like header, lower case ('' if none)."""
    value = raw_header(message, name)
    try:
        found = parseaddr(value)[1]
    except Exception:
        found = ""
    if "@" not in found:
        candidate = re.search(r"[^\s<>\"',;:()]+@[^\s<>\"',;:()]+", value)
        found = candidate.group(0) if candidate else ""
    return found.strip().lower()[:254]


def addresses(message: Message, name: str) -> list[str]:
    values = raw_headers(message, name)
    try:
        return [a for _, a in getaddresses(values) if a]
    except Exception:
        return values


def content_type(part: Message) -> str:
    try:
        return part.get_content_type()
    except Exception:
        return "text/plain"


def _param(part: Message, name: str) -> str:
    try:
        value = part.get_param(name)
    except Exception:
        return ""
    if isinstance(value, tuple):  # RFC 2231: (charset, language, value)
        value = value[2]
    return str(value or "").strip().lower()


def _is_attachment(part: Message) -> bool:
    disposition = raw_header(part, "Content-Disposition").lower()
    return disposition.startswith("attachment")


def _payload_bytes(part: Message) -> bytes:
    try:
        data = part.get_payload(decode=True)
    except Exception:
        data = None
    if isinstance(data, bytes):
        return data
    try:
        payload = part.get_payload()
    except Exception:
        return b""
    return payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else b""


def part_text(part: Message) -> str:
    text = clean_text(decode_bytes(_payload_bytes(part), _param(part, "charset")))
    if content_type(part) == "text/plain" and _param(part, "format") == "flowed":
        text = unflow(text, delsp=_param(part, "delsp") == "yes")
    return text


def _text_parts(message: Message) -> list[Message]:
    """Inline text parts in order, not descending into attached messages or reports."""
    found, stack = [], [message]
    seen = 0
    while stack and seen < MAX_PARTS:
        part = stack.pop(0)
        seen += 1
        kind = content_type(part)
        if part.is_multipart():
            try:
                children = [c for c in part.get_payload() if isinstance(c, Message)]
            except Exception:
                children = []
            stack[0:0] = children
        elif kind.startswith("message/") or _is_attachment(part):
            continue
        elif kind in ("text/plain", "text/html"):
            found.append(part)
    return found


@dataclass
class Body:
    text: str
    from_html: bool


def body(message: Message) -> Body:
    """The reply's text: its plain-text parts, or its HTML turned into text when it has none."""
    parts = _text_parts(message)
    plain = [part_text(p) for p in parts if content_type(p) == "text/plain"]
    text = "\n".join(t for t in plain if t.strip())
    if text.strip():
        return Body(text, False)
    html = next((p for p in parts if content_type(p) == "text/html"), None)
    if html is None:
        return Body("", False)
    try:
        return Body(clean_text(html_to_text(part_text(html))), True)
    except Exception:  # a parser bug must not lose the message: read it as text
        return Body(part_text(html), True)
