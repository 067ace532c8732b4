"""API tokens (bot accounts are the players app's: players.models.BotAccount).

A token is shown once when it is made; only its SHA-256 is stored, so a database dump hands
out no working token. Each token has one scope: `read` (look), `play` (also move, chat,
create and join matches) or `bot` (play, for a bot account)."""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Scope(models.TextChoices):
    READ = "read", _("Read: see my matches, views, history, the archive and ratings")
    PLAY = "play", _("Play: also move, chat, create and join matches")
    BOT = "bot", _("Bot: play as a bot account")


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=60)
    scope = models.CharField(_("scope"), max_length=8, choices=Scope.choices)
    # Shown on the account page to tell tokens apart.
    prefix = models.CharField(_("prefix"), max_length=12)
    key_hash = models.CharField(_("key hash"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("api token")
        verbose_name_plural = _("api tokens")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.scope}, {self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    @property
    def scope_name(self) -> str:
        """The scope as the account page names it, in the reader's words ("Lesen")."""
        return str(self.get_scope_display()).split(":")[0].strip()


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
        verbose_name=_("user"),
    )
    last_id = models.PositiveBigIntegerField(_("last id"), default=0)
    # Raised by each connection: a stream whose number is no longer the newest was
    # replaced by another connection of the account, and closes (one stream per account).
    connection = models.PositiveBigIntegerField(_("connection"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("event stream")
        verbose_name_plural = _("event streams")

    def __str__(self) -> str:
        return gettext("event stream of %(user)s (last %(last)s)") % {
            "user": self.user,
            "last": self.last_id,
        }


class AccountEvent(models.Model):
    """One event of an account's stream, written in the transaction of the move (or chat
    message, invitation) that caused it, so it exists exactly when that committed. Append
    only: the stream resumes after any `number` a client saw."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("user"),
    )
    number = models.PositiveBigIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=20)
    match = models.ForeignKey(
        "games.Match",
        null=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("match"),
    )
    data = models.JSONField(_("data"), encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("account event")
        verbose_name_plural = _("account events")
        constraints = [
            models.UniqueConstraint(fields=["user", "number"], name="account_event_number")
        ]

    def __str__(self) -> str:
        return gettext("%(kind)s #%(number)s for %(user)s") % {
            "kind": self.kind,
            "number": self.number,
            "user": self.user_id,
        }


class BotSummary(models.Model):
    """A bot account's owner asked for a daily summary of the bot's matches, mailed to the
    account's own address (the owner's: a bot account gets no other mail)."""

    bot = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="bot_summary",
        verbose_name=_("bot"),
    )
    daily = models.BooleanField(_("daily"), default=False)
    last_sent_on = models.DateField(_("last sent on"), null=True, blank=True)

    class Meta:
        verbose_name = _("bot summary")
        verbose_name_plural = _("bot summaries")

    def __str__(self) -> str:
        if self.daily:
            return gettext("daily summary for %(bot)s (on)") % {"bot": self.bot}
        return gettext("daily summary for %(bot)s (off)") % {"bot": self.bot}
