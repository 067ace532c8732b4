"""What the accounts app stores beside Django's user."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class UnverifiedAddress(models.Model):
    """An account made on this site (sign-up, or a sign-in link asked for a new address)
    whose owner has not yet followed a link sent to its address. While this row exists the
    account cannot sign in with a password nor take a seat reserved for its address; the
    first link followed deletes it (accounts made by operators have none)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="unverified_address"
    )
    claimed_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user.email} (not verified)"


class UsedSignInLink(models.Model):
    """A sign-in link from the login form, spent: each signs in once (players.views)."""

    token_digest = models.CharField(max_length=64, unique=True)
    used_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"sign-in link used {self.used_at:%Y-%m-%d %H:%M}"
