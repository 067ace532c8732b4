"""Signed tokens in links: the one-click unsubscribe link of every mail."""

from __future__ import annotations

from django.core import signing


def unsubscribe_token(user_id: int) -> str:
    return signing.dumps(user_id, salt="notifications.unsubscribe", compress=True)


def read_unsubscribe_token(token: str) -> int | None:
    try:
        return int(signing.loads(token, salt="notifications.unsubscribe"))
    except (signing.BadSignature, ValueError, TypeError):
        return None
