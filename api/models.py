"""API tokens (bot accounts are the players app's: players.models.BotAccount).

A token is shown once when it is made; only its SHA-256 is stored, so a database dump hands
out no working token. Each token has one scope: `read` (look), `play` (also move, chat,
create and join matches) or `bot` (play, for a bot account)."""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
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


class EventStream(models.Model):
    """An account's event stream (GET /api/v1/stream), made by its first connection: from
    then on every event for the account is appended to `AccountEvent`, numbered from 1 in
    the order the moves that made them committed. `last_id` is the number of the newest; the
    row is locked while a move appends, so two matches never give out the same number."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="event_stream",
    )
    last_id = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"event stream of {self.user} (last {self.last_id})"


class AccountEvent(models.Model):
    """One event of an account's stream, written in the transaction of the move (or chat
    message, invitation) that caused it, so it exists exactly when that committed. Append
    only: the stream resumes after any `number` a client saw."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=20)
    match = models.ForeignKey("games.Match", null=True, on_delete=models.CASCADE, related_name="+")
    data = models.JSONField(encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "number"], name="account_event_number")
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.number} for {self.user_id}"


class BotSummary(models.Model):
    """A bot account's owner asked for a daily summary of the bot's matches, mailed to the
    account's own address (the owner's: a bot account gets no other mail)."""

    bot = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="bot_summary",
    )
    daily = models.BooleanField(default=False)
    last_sent_on = models.DateField(null=True, blank=True)

    def __str__(self) -> str:
        return f"daily summary for {self.bot} ({'on' if self.daily else 'off'})"
