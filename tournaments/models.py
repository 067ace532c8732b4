"""Tournaments: who signed up, the rounds and their tables (each a match), and every action
an organiser took, with who and why."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Match, TimeoutPolicy
from notifications.models import ChannelHook

# Vacation days the clock may spend per player in each match of an event, unless its
# organiser chooses otherwise: a round waits on its slowest match, so one player's long
# absence holds everyone; a week covers an ordinary holiday (docs/community.md).
DEFAULT_VACATION_CAP = 7


class Format(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin: every pair meets once (two-player games)")
    SWISS = "swiss", _("Swiss: pairs by standing, no pair twice (two-player games)")
    TABLES = "tables", _("Tables: 3 to 6 at a table, meeting as evenly as possible")
    KNOCKOUT = "knockout", _("Knockout cup: the top of each table go on")


class TournamentStatus(models.TextChoices):
    SIGNUP = "signup", _("Open for sign-up")
    RUNNING = "running", _("In play")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class Tournament(models.Model):
    # The form takes 80 characters; a league's divisions add their season and level.
    name = models.CharField(_("name"), max_length=200)
    description = models.TextField(_("description"), blank=True)
    game_slug = models.CharField(_("game slug"), max_length=40)
    format = models.CharField(_("format"), max_length=12, choices=Format.choices)
    table_size = models.PositiveSmallIntegerField(_("table size"), default=2)
    # 0: as the format has (round robin).
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=0)
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=TournamentStatus.choices,
        default=TournamentStatus.SIGNUP,
    )
    # Sign-up closes at this moment or with this many players, whichever comes first.
    signup_until = models.DateTimeField(_("signup until"), null=True, blank=True)
    max_players = models.PositiveSmallIntegerField(_("max players"), null=True, blank=True)
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), default=3)
    timeout_policy = models.CharField(
        _("timeout policy"),
        max_length=10,
        choices=TimeoutPolicy.choices,
        default=TimeoutPolicy.DEFAULT_MOVE,
    )
    # Per player and match; None: as many as the player's bank holds.
    vacation_cap = models.PositiveSmallIntegerField(_("vacation cap"), null=True, blank=True)
    seed = models.CharField(_("seed"), max_length=64)  # the draws' random stream
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("organiser"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    # What went wrong the last time the scheduler worked on it (shown to its organiser);
    # empty once a later run succeeds.
    problem = models.TextField(_("problem"), blank=True)
    problem_at = models.DateTimeField(_("problem at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    # 1 the strongest, set at the start.
    seed = models.PositiveSmallIntegerField(pgettext_lazy("tournament entry", "seed"), default=0)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["seed", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_once_a_player")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class Round(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="round_set", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    bye = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("bye"),
    )
    # Players a round of tables could not seat (user ids): each counts as a bye.
    sat_out = models.JSONField(_("sat out"), default=list, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_once")]

    def __str__(self) -> str:
        return f"{self.tournament}, round {self.number}"


class Table(models.Model):
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    match = models.OneToOneField(
        Match, on_delete=models.PROTECT, related_name="tournament_table", verbose_name=_("match")
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return f"{self.round}: {self.match}"


class OrganiserAction(models.Model):
    """What an organiser did (started early, withdrew a player, ...), who and why."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="actions", verbose_name=_("tournament")
    )
    # Text: an action names a game, a match and a player's address, of any length.
    by = models.TextField(_("by"))
    action = models.TextField(_("action"))
    reason = models.TextField(_("reason"))
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("organiser action")
        verbose_name_plural = _("organiser actions")
        ordering = ["at"]


class League(models.Model):
    """Divisions of a fixed size; in each season everyone plays everyone in their division
    (a round-robin tournament per division), the top go up, the bottom go down, and the next
    season starts by itself."""

    name = models.CharField(_("name"), max_length=80)
    game_slug = models.CharField(_("game slug"), max_length=40)
    table_size = models.PositiveSmallIntegerField(_("table size"), default=2)
    division_size = models.PositiveSmallIntegerField(_("division size"), default=6)
    # Go up, and as many go down.
    promoted = models.PositiveSmallIntegerField(_("promoted"), default=1)
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), default=3)
    timeout_policy = models.CharField(
        _("timeout policy"),
        max_length=10,
        choices=TimeoutPolicy.choices,
        default=TimeoutPolicy.DEFAULT_MOVE,
    )
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("organiser"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class LeagueMember(models.Model):
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="members", verbose_name=_("league")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)

    class Meta:
        verbose_name = _("league member")
        verbose_name_plural = _("league members")
        ordering = ["joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="league_member_once")
        ]


class Season(models.Model):
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("league")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["league", "number"], name="season_once")]


class Division(models.Model):
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="divisions", verbose_name=_("season")
    )
    level = models.PositiveSmallIntegerField(_("level"))  # 1 is the top division
    tournament = models.OneToOneField(
        Tournament, on_delete=models.PROTECT, related_name="division", verbose_name=_("tournament")
    )

    class Meta:
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        ordering = ["level"]


class TournamentHook(ChannelHook):
    """A channel that follows a tournament: each round's draw and the end, and every match of
    the tournament as a match's own channel would (notifications.hooks)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="hooks", verbose_name=_("tournament")
    )

    class Meta:
        verbose_name = _("tournament channel")
        verbose_name_plural = _("tournament channels")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.kind}"
