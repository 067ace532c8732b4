"""Matches, seats and the append-only move log.

The log (`Move`) is the truth. Everything else on `Match` and `Seat` that describes the
position (head_seq, to_act, result, deadlines) is a projection the service layer keeps in
step with the log; `Snapshot` rows are a cache of derived states.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class MatchStatus(models.TextChoices):
    OPEN = "open", _("Waiting for players")
    ACTIVE = "active", _("In play")
    FINISHED = "finished", _("Finished")
    ABANDONED = "abandoned", _("Abandoned")


class TimeoutPolicy(models.TextChoices):
    DEFAULT_MOVE = "default", _("Play the default move")
    BOT = "bot", _("A bot takes the seat")
    FORFEIT = "forfeit", _("Forfeit after repeated timeouts")


class TimeControl(models.TextChoices):
    PER_MOVE = "per_move", _("Days per move")
    BANK = "bank", _("Time bank with increment")


class Match(models.Model):
    game_slug = models.CharField(_("game slug"), max_length=40, db_index=True)
    rules_version = models.PositiveIntegerField(_("rules version"))
    options = models.JSONField(_("options"), default=dict, blank=True)
    player_count = models.PositiveSmallIntegerField(_("player count"))
    # Secret until the match ends; players see only the commitment.
    seed = models.CharField(_("seed"), max_length=64)
    seed_commitment = models.CharField(_("seed commitment"), max_length=64)
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=MatchStatus.choices,
        default=MatchStatus.OPEN,
        db_index=True,
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_matches",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    # Time control and what a deadline does.
    time_control = models.CharField(
        _("time control"), max_length=10, choices=TimeControl.choices, default=TimeControl.PER_MOVE
    )
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), default=3)
    bank_days = models.PositiveSmallIntegerField(_("bank days"), default=0)
    increment_days = models.PositiveSmallIntegerField(_("increment days"), default=0)
    weekends_off = models.BooleanField(_("weekends off"), default=False)
    timeout_policy = models.CharField(
        _("timeout policy"),
        max_length=10,
        choices=TimeoutPolicy.choices,
        default=TimeoutPolicy.DEFAULT_MOVE,
    )
    forfeit_after = models.PositiveSmallIntegerField(_("forfeit after"), default=3)
    # The most vacation days the clock may spend for one player in this match when a turn
    # waits past its deadline, counted in this match only (games.vacation_bank); set at
    # creation (None, on matches made before: PBM_VACATION_CAP_DAYS).
    vacation_cap = models.PositiveSmallIntegerField(_("vacation cap"), null=True, blank=True)
    # Chosen by the creator. A rated match changes its players' ratings when it ends (only
    # if every seat is a person); a watchable one can be followed by anyone while in play,
    # from the public view. Finished matches are public in the archive either way.
    rated = models.BooleanField(_("rated"), default=False)
    # Whether a chat channel follows the match (notifications.MatchHook): read with the
    # match's lock, so a move of a match without one asks nothing more.
    hooked = models.BooleanField(_("hooked"), default=False)
    watchable = models.BooleanField(_("watchable"), default=False)
    # Chosen by the creator: a player may take back their last decision under the policy
    # in docs/takebacks.md.
    takebacks = models.BooleanField(_("takebacks"), default=False)

    # Projections of the log.
    head_seq = models.PositiveIntegerField(_("head seq"), default=0)
    head_digest = models.CharField(_("head digest"), max_length=64, blank=True)
    to_act = models.JSONField(_("to act"), default=list, blank=True)
    prompt = models.CharField(_("prompt"), max_length=200, blank=True)
    # The prompt's message and parameters (games.engine.words.Text.as_json), so that a page
    # says it in its reader's language; `prompt` keeps the English.
    prompt_words = models.JSONField(_("prompt words"), default=dict, blank=True)
    result = models.JSONField(_("result"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]
        indexes = [
            # The admin's match list, newest first, a page at a time.
            models.Index(fields=["-created_at", "-id"], name="match_newest"),
            # Open matches, newest first, a page at a time (the lobby).
            models.Index(
                fields=["-id"], name="match_open_newest", condition=models.Q(status="open")
            ),
            # The archive: finished matches, newest first, a page at a time from a cursor.
            models.Index(
                fields=["-finished_at", "-id"],
                name="match_finished_newest",
                condition=models.Q(status="finished"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_title} #{self.pk}"

    @property
    def game(self):
        from games.engine import get_game

        return get_game(self.game_slug, self.rules_version)

    @property
    def game_title(self) -> str:
        try:
            return self.game.title
        except KeyError:
            return self.game_slug

    @property
    def is_over(self) -> bool:
        return self.status in (MatchStatus.FINISHED, MatchStatus.ABANDONED)

    @property
    def vacation_cap_days(self) -> int:
        """The match's vacation cap, the site's default for a match made before caps."""
        from games.vacation_bank import cap_of

        return cap_of(self)

    @property
    def prompt_text(self):
        """The prompt as the game said it (a Text: `|said` puts it in the reader's
        language), or as stored (a match from before prompt_words)."""
        from games.engine.words import Text

        if isinstance(self.prompt, Text) or not self.prompt_words:
            return self.prompt
        return Text.from_json(self.prompt_words)


class Seat(models.Model):
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match")
    )
    # Before the start: order of joining; at the start the order is drawn from the seed.
    number = models.PositiveSmallIntegerField(_("number"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
        db_index=False,  # seat_user_match (user, match) serves lookups by player
        verbose_name=_("user"),
    )
    invited_email = models.EmailField(_("invited email"), blank=True)
    is_bot = models.BooleanField(_("is bot"), default=False)
    resigned = models.BooleanField(_("resigned"), default=False)
    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    standing_orders = models.JSONField(_("standing orders"), default=list, blank=True)
    timeouts = models.PositiveSmallIntegerField(_("timeouts"), default=0)
    # The decision (deadline_seq) whose forfeit the player was warned of by email, with a
    # day's grace: nobody forfeits a seat without a warning first.
    forfeit_warned_seq = models.PositiveIntegerField(_("forfeit warned seq"), null=True, blank=True)
    # A seat that timed out, offered by another player to a substitute (the lobby lists it).
    takeover_offered_at = models.DateTimeField(_("takeover offered at"), null=True, blank=True)
    # Voted out by the other players after timing out again and again: its decisions are
    # played at once by the rules' default move.
    skipped = models.BooleanField(_("skipped"), default=False)
    # The deadline for this seat's current decision, and the position it belongs to.
    deadline_at = models.DateTimeField(_("deadline at"), null=True, blank=True)
    deadline_seq = models.PositiveIntegerField(_("deadline seq"), null=True, blank=True)
    waiting_since = models.DateTimeField(_("waiting since"), null=True, blank=True)
    # The reminder schedule, kept by notifications.reminders.send_reminders and nothing else:
    # the decision (its deadline_seq) it was worked out for, and when a reminder for it may
    # next be due (None: none will be). A seat asked again has a deadline_seq newer than its
    # reminder_seq, which puts it in seat_reminder_unscheduled until the next tick looks at
    # it, so the service layer need not know reminders exist.
    reminder_seq = models.PositiveIntegerField(_("reminder seq"), null=True, blank=True)
    remind_at = models.DateTimeField(_("remind at"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "number"]
        indexes = [
            models.Index(
                fields=["deadline_at"],
                name="seat_deadline_due",
                condition=models.Q(deadline_at__isnull=False),
            ),
            # The lobby: the seats waiting on a player, soonest deadline first ...
            models.Index(
                fields=["user", "deadline_at"],
                name="seat_user_turn",
                condition=models.Q(deadline_at__isnull=False),
            ),
            # ... and the player's other matches, newest first, a page at a time.
            models.Index(fields=["user", "-match"], name="seat_user_match"),
            # The reminder tick: seats whose schedule is not worked out yet (asked since the
            # last tick, usually a handful) ...
            models.Index(
                fields=["deadline_at"],
                name="seat_reminder_unscheduled",
                condition=models.Q(deadline_seq__isnull=False)
                & (
                    models.Q(reminder_seq__isnull=True)
                    | models.Q(reminder_seq__lt=models.F("deadline_seq"))
                ),
            ),
            # ... and those with a reminder due.
            models.Index(
                fields=["remind_at"],
                name="seat_reminder_due",
                condition=models.Q(remind_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(name)s (seat %(number)s)") % {
            "name": self.name,
            "number": self.number + 1,
        }

    @property
    def name(self) -> str:
        # Frozen into display_name at the start and shown to anyone who may watch: never an
        # address or its local part (docs/community.md).
        if self.display_name:
            return self.display_name
        if self.user_id:
            from community.names import public_name

            return public_name(self.user)
        if self.invited_email:
            return gettext("Invited player")
        return gettext("Open seat")

    @property
    def is_open(self) -> bool:
        return not self.user_id and not self.is_bot

    @property
    def played_by_bot(self) -> bool:
        return self.is_bot or self.resigned or self.skipped


class MoveKind(models.TextChoices):
    MOVE = "move", _("Move")
    TIMEOUT = "timeout", _("Timeout")
    RESIGN = "resign", _("Resignation")
    SYSTEM = "system", _("System event")
    TAKEBACK = "takeback", _("Takeback")  # cancels the entry just before it; see docs/takebacks.md


class MoveSource(models.TextChoices):
    WEB = "web", _("Web")
    EMAIL = "email", _("Email")
    API = "api", _("API")
    DEADLINE = "deadline", _("Deadline")
    BOT = "bot", _("Bot")
    FORCED = "forced", _("Forced (only one legal move)")
    STANDING = "standing", _("Standing order")
    ADMIN = "admin", _("Operator")
    IMPORT = "import", _("Import")


class AppendOnlyError(Exception):
    pass


class MoveQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnlyError("The move log is append-only: moves cannot be updated.")

    def delete(self):
        raise AppendOnlyError("The move log is append-only: moves cannot be deleted.")


class Move(models.Model):
    """One entry of a match's log. Written once by games.services, never changed."""

    # No index of its own: the unique (match, seq) serves every lookup by match, and each
    # index is one more write on every move.
    match = models.ForeignKey(
        Match,
        on_delete=models.PROTECT,
        related_name="moves",
        db_index=False,
        verbose_name=_("match"),
    )
    seq = models.PositiveIntegerField(_("seq"))
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    kind = models.CharField(
        _("kind"), max_length=10, choices=MoveKind.choices, default=MoveKind.MOVE
    )
    payload = models.JSONField(_("payload"), default=dict)
    source = models.CharField(_("source"), max_length=10, choices=MoveSource.choices)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    idempotency_key = models.CharField(_("idempotency key"), max_length=255, null=True, blank=True)
    digest = models.CharField(_("digest"), max_length=64)
    # An operator's reason, a timeout's cause.
    note = models.CharField(_("note"), max_length=500, blank=True)
    # The seat's clock when it made this entry: when it was asked and its deadline. A takeback
    # puts them back (docs/takebacks.md). Platform data, not game state: not in the digest.
    asked_at = models.DateTimeField(_("asked at"), null=True, blank=True)
    deadline_at = models.DateTimeField(_("deadline at"), null=True, blank=True)

    objects = MoveQuerySet.as_manager()

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="move_unique_seq"),
            models.UniqueConstraint(
                fields=["match", "idempotency_key"],
                name="move_unique_idempotency_key",
                condition=models.Q(idempotency_key__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        if self.seat is None:
            return f"#{self.seq} {self.get_kind_display()}"
        return gettext("#%(seq)s %(kind)s, seat %(seat)s") % {  # seats from 1, as people read
            "seq": self.seq,
            "kind": self.get_kind_display(),
            "seat": self.seat + 1,
        }

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError("The move log is append-only: moves cannot be updated.")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError("The move log is append-only: moves cannot be deleted.")


class Snapshot(models.Model):
    """A cached state after move `seq`. Rebuilt from the log on demand; never the truth."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="snapshots", verbose_name=_("match")
    )
    seq = models.PositiveIntegerField(_("seq"))
    state = models.JSONField(_("state"))
    digest = models.CharField(_("digest"), max_length=64)

    class Meta:
        verbose_name = _("snapshot")
        verbose_name_plural = _("snapshots")
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="snapshot_unique_seq")]


class LogCheck(models.Model):
    """A run of `manage.py verify_log` over every match, or over what changed since the run
    before it (`--since`): where the log stood when it began, and what it found broken, so
    the next `--since` run checks only the matches written since and those still broken."""

    started_at = models.DateTimeField(_("started at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    whole = models.BooleanField(
        _("whole"), help_text=_("Every started match, not only what changed.")
    )
    # Every move and snapshot with an id up to these was in the log when the run began.
    moves_upto = models.BigIntegerField(_("moves upto"))
    snapshots_upto = models.BigIntegerField(_("snapshots upto"))
    matches = models.PositiveIntegerField(_("matches"), default=0)
    moves = models.PositiveBigIntegerField(_("moves"), default=0)
    failed = models.JSONField(
        _("failed"), default=list, blank=True, help_text=_("Ids of the broken matches.")
    )

    class Meta:
        verbose_name = _("log check")
        verbose_name_plural = _("log checks")

    def __str__(self) -> str:
        return gettext("log check of %(when)s: %(broken)s broken") % {
            "when": f"{self.started_at:%Y-%m-%d %H:%M}",
            "broken": len(self.failed),
        }


class SeatClock(models.Model):
    """A seat's time bank: seconds left, and when and at which position it was last asked.
    Settled each time the seat is asked again (games.clock)."""

    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    bank_seconds = models.PositiveIntegerField(_("bank seconds"))
    asked_at = models.DateTimeField(_("asked at"), null=True, blank=True)
    asked_seq = models.PositiveIntegerField(_("asked seq"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat clock")
        verbose_name_plural = _("seat clocks")
        db_table = "notifications_seatclock"  # made by the notifications app
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="seatclock_unique_seat")
        ]


class ChatMessage(models.Model):
    """A player's message on a match's board. Not part of the game log."""

    match = models.ForeignKey(
        "games.Match",
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("match"),
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("author"),
    )
    text = models.TextField(_("text"), max_length=2000)
    source = models.CharField(_("source"), max_length=10, default="web")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        db_table = "notifications_chatmessage"  # made by the notifications app
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return gettext("match %(match)s seat %(seat)s: %(text)s") % {
            "match": self.match_id,
            "seat": self.seat,
            "text": self.text[:40],
        }


class HiddenStateOpening(models.Model):
    """An operator opened a match's hidden state before its end: who, when, at which
    position and why (games.hidden_state). Written once, read in the admin."""

    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, related_name="+", verbose_name=_("match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("user"),
    )
    username = models.CharField(_("username"), max_length=150)  # kept if the account goes
    reason = models.CharField(_("reason"), max_length=500)
    seq = models.PositiveIntegerField(
        _("seq"), help_text=_("The match's last move when it was opened.")
    )
    opened_at = models.DateTimeField(_("opened at"), auto_now_add=True)

    class Meta:
        verbose_name = _("hidden state opening")
        verbose_name_plural = _("hidden state openings")
        ordering = ["-opened_at", "-pk"]
        permissions = [
            (
                "view_hidden_state",
                "Can open the hidden state (hands, bids, deck, seed) of a match in play",
            )
        ]

    def __str__(self) -> str:
        return gettext("%(user)s opened match %(match)s at move %(seq)s") % {
            "user": self.username,
            "match": self.match_id,
            "seq": self.seq,
        }


class SeatHolder(models.Model):
    """Who held a seat from which move on, once a substitute took it over: ratings count
    the match for whoever made most of the seat's moves (community.ratings)."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seat_holders", verbose_name=_("match")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    from_seq = models.PositiveIntegerField(_("from seq"))  # moves after this one are theirs
    # None: still theirs.
    until_seq = models.PositiveIntegerField(_("until seq"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat holder")
        verbose_name_plural = _("seat holders")
        ordering = ["match", "seat", "from_seq"]


class SkipVote(models.Model):
    """A player's vote to skip a seat that keeps timing out (BGA's expel)."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="skip_votes", verbose_name=_("match")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    voter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("voter"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("skip vote")
        verbose_name_plural = _("skip votes")
        constraints = [
            models.UniqueConstraint(fields=["match", "seat", "voter"], name="skip_vote_once")
        ]


class ChallengeStatus(models.TextChoices):
    OPEN = "open", _("Open")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")
    CANCELLED = "cancelled", _("Cancelled")


class Challenge(models.Model):
    """One player asks another, by name, to a match of a game with its settings
    (games.challenges). Accepted, the match is made with both seated and starts."""

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_made",
        verbose_name=_("challenger"),
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_received",
        verbose_name=_("challenged"),
    )
    game_slug = models.CharField(_("game"), max_length=40)
    players = models.PositiveSmallIntegerField(_("players"), default=2)
    options = models.JSONField(_("options"), default=dict, blank=True)
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), default=3)
    rated = models.BooleanField(_("rated"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=ChallengeStatus.choices, default=ChallengeStatus.OPEN
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    match = models.OneToOneField(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="challenge",
        verbose_name=_("match"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        indexes = [
            models.Index(
                fields=["challenged", "status"],
                name="challenge_received",
            ),
            models.Index(fields=["challenger", "status"], name="challenge_made"),
        ]

    def __str__(self) -> str:
        return f"{self.challenger} → {self.challenged}: {self.game_slug} ({self.status})"
