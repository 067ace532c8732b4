"""Players named the way people name them in a command: full name, first name, surname, a
unique prefix or the seat's colour, with accents or without, in any script.

Names are compared in four ever looser forms, and the first form in which a name points at
exactly one player decides: as typed (Unicode NFKC, casefolded), without accents (NFKD less
the combining marks), with umlauts spelled out ("Schroeder" for Schröder), and
transliterated to ASCII (anyascii), the fallback for a player who types "Oksana" for
"Оксана". Within a form a full name or colour comes before a first name or surname, and
those before a prefix. A name that points at nobody, or at two players, is a
`ParseError` that lists the players: never a guess, never everyone.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from anyascii import anyascii

from .contract import ParseError
from .words import _

# Items of a list of names: "Anna, Bram and Cor", "Anna & Bram; Cor".
_SEPARATORS = re.compile(r"\s*(?:[,;&/+]|\band\b|\ben\b|\bund\b|\bet\b)\s*", re.IGNORECASE)


def letters(text: str, keep: str = "") -> str:
    """Casefolded NFKC text with everything but letters, marks, digits and `keep` made
    spaces, and spaces collapsed: how a command's words are compared, in any script."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("'", "").replace("’", "")
    kept = (
        c if c.isalnum() or c in keep or unicodedata.category(c)[0] == "M" else " " for c in text
    )
    return " ".join("".join(kept).split())


def _unaccented(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", letters(text))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare)


def _umlauts_spelled(text: str) -> str:
    """Umlauts as a German keyboard-less writer spells them: "Schroeder" for Schröder."""
    spelled = letters(text)
    for letter, spelling in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        spelled = spelled.replace(letter, spelling)
    return _unaccented(spelled)


def _ascii(text: str) -> str:
    return letters(anyascii(_unaccented(text)))


FORMS = (letters, _unaccented, _umlauts_spelled, _ascii)


def _prefix_long_enough(text: str) -> bool:
    """Two letters at least, or one wide (CJK) character, which is a syllable of a name."""
    return len(text) >= 2 or unicodedata.east_asian_width(text[:1]) in ("W", "F")


def _tiers(typed: str, full: str, colour: str) -> tuple[bool, bool, bool]:
    words = full.split()
    seat_colour = (colour, f"{colour} player", f"the {colour}", f"the {colour} player")
    whole = typed == full or (bool(colour) and typed in seat_colour)
    word = bool(words) and typed in (words[0], words[-1])
    prefix = (
        _prefix_long_enough(typed)
        and bool(full)
        and (full.startswith(typed) or any(w.startswith(typed) for w in words))
    )
    return whole, word, prefix


def _choices(names: Sequence[str], candidates: Sequence[int]) -> str:
    return ", ".join(names[s] for s in candidates)


def find_player(
    text: str,
    names: Sequence[str],
    candidates: Sequence[int],
    colours: Sequence[str] = (),
) -> int:
    """The one seat among `candidates` that `text` names; ParseError otherwise."""
    wanted = " ".join(text.split())
    if not letters(wanted):
        raise ParseError(_("Name a player: {names}.", names=_choices(names, candidates)))
    for form in FORMS:
        typed = form(wanted)
        if not typed:
            continue
        found: list[list[int]] = [[], [], []]
        for seat in candidates:
            colour = form(colours[seat]) if seat < len(colours) else ""
            for tier, hit in enumerate(_tiers(typed, form(names[seat]), colour)):
                if hit:
                    found[tier].append(seat)
        for seats in found:
            if len(seats) == 1:
                return seats[0]
            if len(seats) > 1:
                raise ParseError(
                    _(
                        "“{wanted}” could be {names}: write more of the name.",
                        wanted=wanted,
                        names=_choices(names, seats),
                    )
                )
    raise ParseError(
        _(
            "No player is called “{wanted}”. The players: {names}.",
            wanted=wanted,
            names=_choices(names, candidates),
        )
    )


def find_players(
    text: str,
    names: Sequence[str],
    candidates: Sequence[int],
    colours: Sequence[str] = (),
) -> list[int]:
    """The seats a list of names ("Anna, Bram and Cor") names, each once, in the order
    written; ParseError for an empty list, a name that fits nobody or two players, or a
    player named twice."""
    seats: list[int] = []
    for item in _SEPARATORS.split(text):
        if not letters(item):
            continue
        seat = find_player(item, names, candidates, colours)
        if seat in seats:
            raise ParseError(_("{who} is named twice.", who=names[seat]))
        seats.append(seat)
    if not seats:
        raise ParseError(_("Name the players: {names}.", names=_choices(names, candidates)))
    return seats
