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
    # "Member #N", not "Player N": a seat list reads "2 Player 1" as two seats' labels, and
    # "Bot N", "Seat N", "Player N" are how seats and bots are named.
    return f"Member #{user.pk}"
