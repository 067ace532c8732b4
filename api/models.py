"""API tokens (bot accounts are the players app's: players.models.BotAccount).

A token is shown once when it is made; only its SHA-256 is stored, so a database dump hands
out no working token. Each token has one scope: `read` (look), `play` (also move, chat,
create and join matches) or `bot` (play, for a bot account)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Scope(models.TextChoices):
    READ = "read", "Read: see my matches, views, history, the archive and ratings"
    PLAY = "play", "Play: also move, chat, create and join matches"
    BOT = "bot", "Bot: play as a bot account"


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=60)
    scope = models.CharField(max_length=8, choices=Scope.choices)
    prefix = models.CharField(max_length=12)  # shown on the account page to tell tokens apart
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.scope}, {self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
