"""The notifications app's tables: the outbox, and inbound mail as received.

Nothing here is part of a match's log: the log lives in games.models and only
games.services writes it.
"""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


def new_message_id() -> str:
    """A Message-ID no other message anywhere will carry: 120 random bits, so it stays
    unique across installations and across a database rebuilt from scratch (row ids repeat).
    Made when the row is written, so a message sent again carries the same id."""
    return f"<pbm.{secrets.token_hex(15)}@{settings.REPLY_DOMAIN}>"


def new_feed_token() -> str:
    return secrets.token_urlsafe(32)


class Channel(models.TextChoices):
    EMAIL = "email", _("Email")
    WEBHOOK = "webhook", _("Webhook")
    PUSH = "push", _("Push to the browser")


class Kind(models.TextChoices):
    TURN = "turn", _("Your turn")
    START = "start", _("Game start")
    END = "end", _("Game end")
    TIMEOUT = "timeout", _("A deadline played for you")
    REMINDER = "reminder", _("Deadline reminder")
    DIGEST = "digest", _("Daily digest")
    ANSWER = "answer", _("Answer to an email")
    CHAT = "chat", _("Chat message")
    INVITE = "invite", _("Invitation to a match")
    VACATION = "vacation", _("A vacation day spent while a turn waited")
    WARNING = "warning", _("Warning before a forfeit")
    ROUND = "round", _("A tournament round")
    CHANNEL = "channel", _("A match's channel (Discord, Slack, JSON)")


class Status(models.TextChoices):
    PENDING = "pending", _("Waiting to be sent")
    SENDING = "sending", _("Claimed by a sender")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")
    SKIPPED = "skipped", _("Not sent")


def masked(url: str) -> str:
    """A channel's or a push service's address as it is shown once saved: where it goes and
    its last characters. The rest (a Discord or Slack token, a JSON endpoint's path, a push
    endpoint) lets anyone post there."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname or ''}/…{url[-4:]}"


class Notification(models.Model):
    """One message to one person on one channel: the outbox row.

    Written in the transaction that caused it; claimed by a sender with a compare-and-set on
    `status`; `lease_until` lets a sweep reclaim a row whose sender died. Its content is
    rendered when it is sent, from (kind, match, seat, seq, context), so the row stays small
    and the transaction that writes it stays short.
    """

    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    channel = models.CharField(
        _("channel"), max_length=10, choices=Channel.choices, default=Channel.EMAIL
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    # Unique per message that should exist once: a retried writer cannot make a second one.
    # (A constraint, not unique=True: that adds a second index for LIKE, which nothing asks.)
    dedupe_key = models.CharField(_("dedupe key"), max_length=200)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        verbose_name=_("user"),
    )
    address = models.CharField(
        _("address"), max_length=500, help_text=_("Email address or webhook URL.")
    )
    match = models.ForeignKey(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,  # notification_by_seat (match, seat, kind) serves lookups by match
        verbose_name=_("match"),
    )
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    seq = models.PositiveIntegerField(_("seq"), null=True, blank=True)
    context = models.JSONField(_("context"), default=dict, blank=True)

    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    send_after = models.DateTimeField(
        _("send after"), help_text=_("Held until then (quiet hours, retry backoff).")
    )
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    lease_until = models.DateTimeField(_("lease until"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    # When the first attempt failed (or its sender was lost): retries go on until
    # OUTBOX_RETRY_FOR after it, and a notice delivered late gives the seat that time back.
    first_failed_at = models.DateTimeField(_("first failed at"), null=True, blank=True)
    # Sent as the mail's Message-ID; nothing looks a notice up by it, so it has no index.
    message_id = models.CharField(_("message id"), max_length=200, default=new_message_id)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    provider_message_id = models.CharField(_("provider message id"), max_length=300, blank=True)
    last_error = models.TextField(_("last error"), blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["send_after"],
                name="notification_due",
                condition=models.Q(status__in=["pending", "sending"]),
            ),
            models.Index(fields=["match", "seat", "kind"], name="notification_by_seat"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["dedupe_key"], name="notification_unique_dedupe_key")
        ]

    def __str__(self) -> str:
        return gettext("%(kind)s to %(address)s (%(status)s)") % {
            "kind": self.get_kind_display(),
            "address": self.address if self.channel == Channel.EMAIL else masked(self.address),
            "status": self.get_status_display(),
        }


class FeedToken(models.Model):
    """The secret in a player's calendar and Atom feed addresses; a new one revokes the old."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="feed_token",
        verbose_name=_("user"),
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_feed_token)
    created_at = models.DateTimeField(_("created at"), auto_now=True)

    class Meta:
        verbose_name = _("feed token")
        verbose_name_plural = _("feed tokens")


class HookKind(models.TextChoices):
    DISCORD = "discord", _("Discord")
    SLACK = "slack", _("Slack")
    JSON = "json", _("Any JSON webhook")


class ChannelHook(models.Model):
    """A chat channel: a Discord or Slack incoming webhook, or any JSON webhook, and who
    connected it (its messages are in their language). Sent through the outbox, as mail is."""

    url = models.URLField(_("url"), max_length=500)
    kind = models.CharField(
        _("kind"), max_length=10, choices=HookKind.choices, default=HookKind.DISCORD
    )
    chat = models.BooleanField(_("chat"), default=False)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("added by"),
    )
    added_at = models.DateTimeField(_("added at"), auto_now_add=True)

    class Meta:
        abstract = True


class MatchHook(ChannelHook):
    """A channel told of a match's moves, turns, end (and chat, if chosen)."""

    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="hooks", verbose_name=_("match")
    )

    class Meta:
        verbose_name = _("match hook")
        verbose_name_plural = _("match hooks")


class PushSubscription(models.Model):
    """A browser's Web Push subscription (the endpoint its push service gave it and the keys
    a message is encrypted with). Removed when the push service says it is gone."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("user"),
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("p256dh"), max_length=200)
    auth = models.CharField(_("auth"), max_length=100)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
