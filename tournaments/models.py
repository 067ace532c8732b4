"""Tournaments: who signed up, the rounds and their tables (each a match), and every action
an organiser took, with who and why."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Match, TimeoutPolicy


class Format(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin: every pair meets once (two-player games)")
    SWISS = "swiss", _("Swiss: pairs by standing, no pair twice (two-player games)")
    TABLES = "tables", _("Tables: 3 to 6 at a table, meeting as evenly as possible")
    KNOCKOUT = "knockout", _("Knockout cup: the top of each table go on")


class TournamentStatus(models.TextChoices):
    SIGNUP = "signup", _("Open for sign-up")
    RUNNING = "running", _("In play")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled (too few players when sign-up ended)")


class Tournament(models.Model):
    name = models.CharField(max_length=80)
    game_slug = models.CharField(max_length=40)
    format = models.CharField(max_length=12, choices=Format.choices)
    table_size = models.PositiveSmallIntegerField(default=2)
    rounds = models.PositiveSmallIntegerField(default=0)  # 0: as the format has (round robin)
    status = models.CharField(
        max_length=10, choices=TournamentStatus.choices, default=TournamentStatus.SIGNUP
    )
    # Sign-up closes at this moment or with this many players, whichever comes first.
    signup_until = models.DateTimeField(null=True, blank=True)
    max_players = models.PositiveSmallIntegerField(null=True, blank=True)
    days_per_move = models.PositiveSmallIntegerField(default=3)
    timeout_policy = models.CharField(
        max_length=10, choices=TimeoutPolicy.choices, default=TimeoutPolicy.DEFAULT_MOVE
    )
    vacation_cap = models.PositiveSmallIntegerField(null=True, blank=True)  # per match
    seed = models.CharField(max_length=64)  # the draws' random stream
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    current_round = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seed = models.PositiveSmallIntegerField(default=0)  # 1 the strongest, set at the start
    joined_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["seed", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_once_a_player")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    bye = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_once")]

    def __str__(self) -> str:
        return f"{self.tournament}, round {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="tournament_table")

    def __str__(self) -> str:
        return f"{self.round}: {self.match}"


class OrganiserAction(models.Model):
    """What an organiser did (started early, withdrew a player, ...), who and why."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="actions")
    by = models.CharField(max_length=150)
    action = models.CharField(max_length=40)
    reason = models.CharField(max_length=500)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at"]


class League(models.Model):
    """Divisions of a fixed size; in each season everyone plays everyone in their division
    (a round-robin tournament per division), the top go up, the bottom go down, and the next
    season starts by itself."""

    name = models.CharField(max_length=80)
    game_slug = models.CharField(max_length=40)
    table_size = models.PositiveSmallIntegerField(default=2)
    division_size = models.PositiveSmallIntegerField(default=6)
    promoted = models.PositiveSmallIntegerField(default=1)  # go up, and as many go down
    days_per_move = models.PositiveSmallIntegerField(default=3)
    timeout_policy = models.CharField(
        max_length=10, choices=TimeoutPolicy.choices, default=TimeoutPolicy.DEFAULT_MOVE
    )
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class LeagueMember(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="league_member_once")
        ]


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["league", "number"], name="season_once")]


class Division(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    level = models.PositiveSmallIntegerField()  # 1 is the top division
    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="division")

    class Meta:
        ordering = ["level"]
