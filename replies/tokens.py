"""Reply tokens, carried in the reply address of every turn email.

The reply token names a match, a seat and the position (sequence number) an email was sent
for, and fits an address's local part (64 characters at most, RFC 5321): a compact payload in
base 36 and an HMAC of it truncated to 16 hex characters (64 bits; a forger gets one guess
per email, and the server never answers with a valid token for someone else's seat).
Everything is lower case because some mail systems fold the case of local parts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

REPLY_LOCAL_PART = "play"
_SALT = "notifications.reply-token"
_TOKEN = re.compile(r"^m([0-9a-z]+)-s([0-9a-z]+)-p([0-9a-z]+)-([0-9a-f]{16})$")
_ADDRESS = re.compile(rf"{REPLY_LOCAL_PART}\+([0-9a-z-]+)@", re.IGNORECASE)
# An organiser's address names a tournament and its organiser (replies.organiser).
_ORGANISER = re.compile(r"^t([0-9a-z]+)-o([0-9a-z]+)-([0-9a-f]{16})$")


@dataclass(frozen=True)
class ReplyToken:
    match_id: int
    seat: int
    seq: int


def _b36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


def _signature(payload: str) -> str:
    return salted_hmac(_SALT, payload, algorithm="sha256").hexdigest()[:16]


def make_reply_token(match_id: int, seat: int, seq: int) -> str:
    payload = f"m{_b36(match_id)}-s{_b36(seat)}-p{_b36(seq)}"
    return f"{payload}-{_signature(payload)}"


def reply_address(match_id: int, seat: int, seq: int) -> str:
    return f"{REPLY_LOCAL_PART}+{make_reply_token(match_id, seat, seq)}@{settings.REPLY_DOMAIN}"


def read_reply_token(token: str) -> ReplyToken | None:
    """The token's content, or None if it is malformed or its signature is wrong."""
    found = _TOKEN.match(token.strip().lower())
    if not found:
        return None
    match36, seat36, seq36, signature = found.groups()
    payload = f"m{match36}-s{seat36}-p{seq36}"
    if not constant_time_compare(signature, _signature(payload)):
        return None
    return ReplyToken(int(match36, 36), int(seat36, 36), int(seq36, 36))


def token_in_addresses(addresses: list[str]) -> ReplyToken | None:
    """The first valid reply token among these addresses (envelope recipient first)."""
    for address in addresses:
        for candidate in _ADDRESS.findall(address or ""):
            token = read_reply_token(candidate)
            if token is not None:
                return token
    return None


@dataclass(frozen=True)
class OrganiserToken:
    tournament_id: int
    user_id: int


def organiser_address(tournament_id: int, user_id: int) -> str:
    """Where the organiser of a tournament writes commands for it (the mails the server
    sends them about it reply there)."""
    payload = f"t{_b36(tournament_id)}-o{_b36(user_id)}"
    return f"{REPLY_LOCAL_PART}+{payload}-{_signature(payload)}@{settings.REPLY_DOMAIN}"


def organiser_token_in_addresses(addresses: list[str]) -> OrganiserToken | None:
    """The first valid organiser's token among these addresses."""
    for address in addresses:
        for candidate in _ADDRESS.findall(address or ""):
            found = _ORGANISER.match(candidate.lower())
            if not found:
                continue
            tournament36, user36, signature = found.groups()
            payload = f"t{tournament36}-o{user36}"
            if constant_time_compare(signature, _signature(payload)):
                return OrganiserToken(int(tournament36, 36), int(user36, 36))
    return None
