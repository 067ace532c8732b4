"""What the accounts app stores beside Django's user."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class UnverifiedAddress(models.Model):
    """An account made on this site (sign-up, or a sign-in link asked for a new address)
    whose owner has not yet followed a link sent to its address. While this row exists the
    account cannot sign in with a password nor take a seat reserved for its address; the
    first link followed deletes it (accounts made by operators have none)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="unverified_address",
        verbose_name=_("user"),
    )
    claimed_at = models.DateTimeField(auto_now_add=True, verbose_name=_("claimed at"))

    class Meta:
        verbose_name = _("unverified address")
        verbose_name_plural = _("unverified addresses")

    def __str__(self) -> str:
        return gettext("%(address)s (not verified)") % {"address": self.user.email}


class UsedSignInLink(models.Model):
    """A sign-in link from the login form, spent: each signs in once (players.views)."""

    token_digest = models.CharField(max_length=64, unique=True, verbose_name=_("token digest"))
    used_at = models.DateTimeField(auto_now_add=True, verbose_name=_("used at"))

    class Meta:
        verbose_name = _("used sign in link")
        verbose_name_plural = _("used sign in links")

    def __str__(self) -> str:
        return gettext("sign-in link used %(when)s") % {"when": f"{self.used_at:%Y-%m-%d %H:%M}"}


class NoticeMode(models.TextChoices):
    EVERY_TURN = "every", _("An email every turn")
    DIGEST = "digest", _("A daily digest of the matches waiting on me")
    NONE = "none", _("Nothing")


def default_reminder_hours() -> list[int]:
    return [24, 2]


class Preferences(models.Model):
    """How and when a player wants to hear from the server."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notification_prefs",
        verbose_name=_("user"),
    )
    mode = models.CharField(
        max_length=10,
        choices=NoticeMode.choices,
        default=NoticeMode.EVERY_TURN,
        verbose_name=_("mode"),
    )
    time_zone = models.CharField(max_length=60, default="UTC", verbose_name=_("time zone"))
    quiet_start = models.TimeField(
        null=True, blank=True, help_text=_("e.g. 22:00"), verbose_name=_("quiet start")
    )
    quiet_end = models.TimeField(
        null=True, blank=True, help_text=_("e.g. 07:00"), verbose_name=_("quiet end")
    )
    digest_hour = models.PositiveSmallIntegerField(default=8, verbose_name=_("digest hour"))
    reminder_hours = models.JSONField(
        default=default_reminder_hours, blank=True, verbose_name=_("reminder hours")
    )
    webhook_url = models.URLField(max_length=500, blank=True, verbose_name=_("webhook url"))
    # Turn notices and reminders pushed to the browsers the player turned push on in
    # (notifications.PushSubscription); read with the seats, so a move asks nothing more.
    push_turns = models.BooleanField(default=False, verbose_name=_("push turns"))
    # On the match page: a move is played as soon as it is complete, without its Confirm
    # (with JavaScript; without it the Confirm stays). Issue 28.
    skip_confirm = models.BooleanField(
        default=False,
        verbose_name=_("Play a move as soon as it is complete on the board (no Confirm)"),
    )
    # An email reply whose moves were all applied is confirmed in the next mail the player
    # gets from that match; with this on, by a mail of its own at once (issue 46).
    confirm_each_move = models.BooleanField(
        default=False,
        verbose_name=_("Confirm each move I send by email at once, in a mail of its own"),
    )
    # The language of the player's pages and mails (issue 31); blank: the browser's for
    # pages, the site's default for mails. Offered from the browser's at sign-up.
    language = models.CharField(
        max_length=8, blank=True, choices=settings.LANGUAGES, verbose_name=_("Language")
    )
    # Set when delivery gives up (or the ESP reports a bounce or complaint); cleared by a
    # successful send, a changed address, or the player saying it works. While it is set,
    # the player's deadlines are stopped (notifications.reachability).
    email_failing = models.BooleanField(default=False, verbose_name=_("email failing"))
    email_failure = models.CharField(max_length=300, blank=True, verbose_name=_("email failure"))
    email_failed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("email failed at"))
    # Permanent (address refused, invalid): nothing is sent until the player acts.
    # Transient (a long outage): new mail is still tried, and the first that gets through
    # clears the flag.
    email_failure_permanent = models.BooleanField(
        default=False, verbose_name=_("email failure permanent")
    )
    # The same for the webhook, once its delivery gives up. It stops the player's deadlines
    # only when it is how they hear of their turns (they chose no email).
    webhook_failing = models.BooleanField(default=False, verbose_name=_("webhook failing"))
    webhook_failure = models.CharField(
        max_length=300, blank=True, verbose_name=_("webhook failure")
    )
    webhook_failed_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("webhook failed at")
    )
    # The daily digest's schedule, kept by notifications.digest: when the next one may be
    # due (None: not worked out yet), and whether today's digest hour found nothing waiting,
    # so that a match asking the player later in the day sends it then.
    digest_due_at = models.DateTimeField(null=True, blank=True, verbose_name=_("digest due at"))
    digest_idle = models.BooleanField(default=False, verbose_name=_("digest idle"))

    class Meta:
        verbose_name = _("preferences")
        verbose_name_plural = _("preferences")
        db_table = "notifications_preferences"  # made by the notifications app
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
        return gettext("preferences of %(user)s") % {"user": self.user}


class Vacation(models.Model):
    """Days off (inclusive, in the player's time zone): deadlines do not count them."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="vacations",
        verbose_name=_("user"),
    )
    first_day = models.DateField(verbose_name=_("first day"))
    last_day = models.DateField(verbose_name=_("last day"))
    # Spent by the clock, not booked: a day a turn waited past its deadline while the player
    # was away (games.vacation_bank), in that match. It cannot be cancelled.
    automatic = models.BooleanField(default=False, verbose_name=_("automatic"))
    match = models.ForeignKey(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("match"),
    )

    class Meta:
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")
        db_table = "notifications_vacation"  # made by the notifications app
        ordering = ["first_day"]

    def __str__(self) -> str:
        return gettext("%(user)s: %(first)s to %(last)s") % {
            "user": self.user,
            "first": self.first_day,
            "last": self.last_day,
        }

    @property
    def days(self) -> int:
        return (self.last_day - self.first_day).days + 1


class SignInLinkUse(models.Model):
    """A match link from an email, spent: each works once (players.match_links)."""

    token_digest = models.CharField(max_length=64, unique=True, verbose_name=_("token digest"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    used_at = models.DateTimeField(auto_now_add=True, verbose_name=_("used at"))

    class Meta:
        verbose_name = _("sign in link use")
        verbose_name_plural = _("sign in link uses")
        db_table = "notifications_signinlinkuse"  # made by the notifications app

    def __str__(self) -> str:
        return gettext("match %(match)s link of %(user)s used %(when)s") % {
            "match": self.match_id,
            "user": self.user,
            "when": f"{self.used_at:%Y-%m-%d %H:%M}",
        }


class BotAccount(models.Model):
    """Marks an account as a program's: it plays through the API with a bot token, its
    seats say "(bot)" on every page, and its matches are never rated."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="bot_account",
        verbose_name=_("user"),
    )
    owner_note = models.CharField(max_length=200, blank=True, verbose_name=_("owner note"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("bot account")
        verbose_name_plural = _("bot accounts")
        db_table = "api_botaccount"  # made by the api app

    def __str__(self) -> str:
        return gettext("bot account %(user)s") % {"user": self.user}
