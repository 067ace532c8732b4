"""The notifications app's tables: the outbox, players' preferences and vacations, inbound
mail as received, a match's chat, and the clock of each seat's time bank.

Nothing here is part of a match's log: the log lives in games.models and only
games.services writes it.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def new_message_id() -> str:
    """A Message-ID no other message anywhere will carry: 120 random bits, so it stays
    unique across installations and across a database rebuilt from scratch (row ids repeat).
    Made when the row is written, so a message sent again carries the same id."""
    return f"<pbm.{secrets.token_hex(15)}@{settings.REPLY_DOMAIN}>"


class Channel(models.TextChoices):
    EMAIL = "email", "Email"
    WEBHOOK = "webhook", "Webhook"


class Kind(models.TextChoices):
    TURN = "turn", "Your turn"
    START = "start", "Game start"
    END = "end", "Game end"
    TIMEOUT = "timeout", "A deadline played for you"
    REMINDER = "reminder", "Deadline reminder"
    DIGEST = "digest", "Daily digest"
    ANSWER = "answer", "Answer to an email"
    CHAT = "chat", "Chat message"
    INVITE = "invite", "Invitation to a match"


class Status(models.TextChoices):
    PENDING = "pending", "Waiting to be sent"
    SENDING = "sending", "Claimed by a sender"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"
    SKIPPED = "skipped", "Not sent"


class Notification(models.Model):
    """One message to one person on one channel: the outbox row.

    Written in the transaction that caused it; claimed by a sender with a compare-and-set on
    `status`; `lease_until` lets a sweep reclaim a row whose sender died. Its content is
    rendered when it is sent, from (kind, match, seat, seq, context), so the row stays small
    and the transaction that writes it stays short.
    """

    kind = models.CharField(max_length=10, choices=Kind.choices)
    channel = models.CharField(max_length=10, choices=Channel.choices, default=Channel.EMAIL)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    # Unique per message that should exist once: a retried writer cannot make a second one.
    # (A constraint, not unique=True: that adds a second index for LIKE, which nothing asks.)
    dedupe_key = models.CharField(max_length=200)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    address = models.CharField(max_length=500, help_text="Email address or webhook URL.")
    match = models.ForeignKey(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,  # notification_by_seat (match, seat, kind) serves lookups by match
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    seq = models.PositiveIntegerField(null=True, blank=True)
    context = models.JSONField(default=dict, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    send_after = models.DateTimeField(help_text="Held until then (quiet hours, retry backoff).")
    claimed_at = models.DateTimeField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # When the first attempt failed (or its sender was lost): retries go on until
    # OUTBOX_RETRY_FOR after it, and a notice delivered late gives the seat that time back.
    first_failed_at = models.DateTimeField(null=True, blank=True)
    # Sent as the mail's Message-ID; nothing looks a notice up by it, so it has no index.
    message_id = models.CharField(max_length=200, default=new_message_id)
    sent_at = models.DateTimeField(null=True, blank=True)
    provider_message_id = models.CharField(max_length=300, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
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
        return f"{self.kind} to {self.address} ({self.status})"


class NoticeMode(models.TextChoices):
    EVERY_TURN = "every", "An email every turn"
    DIGEST = "digest", "A daily digest of the matches waiting on me"
    NONE = "none", "Nothing"


def default_reminder_hours() -> list[int]:
    return [24, 2]


class Preferences(models.Model):
    """How and when a player wants to hear from the server."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_prefs"
    )
    mode = models.CharField(
        max_length=10, choices=NoticeMode.choices, default=NoticeMode.EVERY_TURN
    )
    time_zone = models.CharField(max_length=60, default="UTC")
    quiet_start = models.TimeField(null=True, blank=True, help_text="e.g. 22:00")
    quiet_end = models.TimeField(null=True, blank=True, help_text="e.g. 07:00")
    digest_hour = models.PositiveSmallIntegerField(default=8)
    reminder_hours = models.JSONField(default=default_reminder_hours, blank=True)
    webhook_url = models.URLField(max_length=500, blank=True)
    # Set when delivery gives up (or the ESP reports a bounce or complaint); cleared by a
    # successful send, a changed address, or the player saying it works. While it is set,
    # the player's deadlines are stopped (notifications.reachability).
    email_failing = models.BooleanField(default=False)
    email_failure = models.CharField(max_length=300, blank=True)
    email_failed_at = models.DateTimeField(null=True, blank=True)
    # Permanent (address refused, invalid): nothing is sent until the player acts.
    # Transient (a long outage): new mail is still tried, and the first that gets through
    # clears the flag.
    email_failure_permanent = models.BooleanField(default=False)
    # The same for the webhook, once its delivery gives up. It stops the player's deadlines
    # only when it is how they hear of their turns (they chose no email).
    webhook_failing = models.BooleanField(default=False)
    webhook_failure = models.CharField(max_length=300, blank=True)
    webhook_failed_at = models.DateTimeField(null=True, blank=True)
    # The daily digest's schedule, kept by notifications.digest: when the next one may be
    # due (None: not worked out yet), and whether today's digest hour found nothing waiting,
    # so that a match asking the player later in the day sends it then.
    digest_due_at = models.DateTimeField(null=True, blank=True)
    digest_idle = models.BooleanField(default=False)

    class Meta:
        verbose_name_plural = "preferences"
        indexes = [
            # The digest tick: the players whose digest is due or not worked out yet.
            models.Index(
                fields=["digest_due_at"],
                name="prefs_digest_due",
                condition=models.Q(mode="digest"),
            ),
            # The outbox sweep's probe: the few players whose mail or webhook is failing.
            models.Index(
                fields=["user"],
                name="prefs_failing",
                condition=models.Q(email_failing=True) | models.Q(webhook_failing=True),
            ),
        ]

    def __str__(self) -> str:
        return f"preferences of {self.user}"


class Vacation(models.Model):
    """Days off (inclusive, in the player's time zone): deadlines do not count them."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    first_day = models.DateField()
    last_day = models.DateField()

    class Meta:
        ordering = ["first_day"]

    def __str__(self) -> str:
        return f"{self.user}: {self.first_day} to {self.last_day}"

    @property
    def days(self) -> int:
        return (self.last_day - self.first_day).days + 1


class SeatClock(models.Model):
    """A seat's time bank: seconds left, and when and at which position it was last asked.
    Settled each time the seat is asked again (notifications.deadlines)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    bank_seconds = models.PositiveIntegerField()
    asked_at = models.DateTimeField(null=True, blank=True)
    asked_seq = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="seatclock_unique_seat")
        ]


class InboundStatus(models.TextChoices):
    RECEIVED = "received", "Received, not yet handled"
    DONE = "done", "Handled"
    DROPPED = "dropped", "Dropped (machine mail)"
    REJECTED = "rejected", "Rejected"


class InboundMessage(models.Model):
    """An email received, recorded once by its Message-ID before anything is done with it."""

    message_id = models.CharField(max_length=500, unique=True)
    received_at = models.DateTimeField(auto_now_add=True)
    recipient = models.CharField(max_length=500, blank=True)
    sender = models.CharField(max_length=500, blank=True)
    subject = models.CharField(max_length=500, blank=True)
    raw = models.TextField()
    status = models.CharField(
        max_length=10, choices=InboundStatus.choices, default=InboundStatus.RECEIVED
    )
    outcome = models.TextField(blank=True)
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-received_at"]

    def __str__(self) -> str:
        return f"{self.message_id} from {self.sender} ({self.status})"


class ChatMessage(models.Model):
    """A player's message on a match's board. Not part of the game log."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="chat_messages")
    seat = models.PositiveSmallIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    text = models.TextField(max_length=2000)
    source = models.CharField(max_length=10, default="web")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat}: {self.text[:40]}"


class SignInLinkUse(models.Model):
    """A match link from an email, spent: each works once (games.signin)."""

    token_digest = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    used_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"match {self.match_id} link of {self.user} used {self.used_at:%Y-%m-%d %H:%M}"
