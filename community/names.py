"""How players are named on pages anyone can read: never by their email address."""

from __future__ import annotations


def public_name(user) -> str:
    if user is None:
        return "A former player"
    full = user.get_full_name().strip()
    if full:
        return full
    if user.username and "@" not in user.username:
        return user.username
    return f"Player {user.pk}"
