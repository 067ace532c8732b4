"""The one way a number a person wrote is read, in pages, forms, the API and mail commands.

A number is a run of decimal digits of any script: "12", "١٢" (Arabic-Indic) and "１２"
(fullwidth) all read 12, as the rules' parsers read them (their `\\d` matches any decimal
digit and `int()` reads them). Superscripts, circled digits and fractions ("²", "①", "½")
are digits to `str.isdigit()` but no number to `int()`: they are refused, as is anything
longer than nine digits (no key or count is that large, and `int()` of thousands of digits
raises). A number outside `low..high` is refused too, before any query is made with it.
"""

from __future__ import annotations

MAX_DIGITS = 9


def read_number(text: object, *, low: int = 0, high: int = 10**MAX_DIGITS - 1) -> int | None:
    """The value of `text` (spaces around it aside), or None if it is not a number in
    `low..high`."""
    if not isinstance(text, str):
        return None
    digits = text.strip()
    if not digits or len(digits) > MAX_DIGITS or not digits.isdecimal():
        return None
    value = int(digits)
    return value if low <= value <= high else None


def is_number(text: str) -> bool:
    """Whether `text` reads as a number at all (whatever its size)."""
    return read_number(text) is not None
