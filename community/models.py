"""Ratings and profile settings: projections of finished matches, never the truth.

`manage.py rebuild_ratings` throws every row here away and derives them again from the
finished matches, in the order they finished; the incremental updates do the same work one
match at a time, inside the transaction that finishes the match.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Rating(models.Model):
    """A player's current Weng-Lin (Plackett-Luce) rating in one game."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="ratings",
        verbose_name=_("user"),
    )
    game_slug = models.CharField(_("game slug"), max_length=40)
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    # mu - 3 sigma: what the leaderboard sorts by, so a newcomer's wide uncertainty
    # does not put them on top after one lucky win.
    ordinal = models.FloatField(_("ordinal"))
    matches = models.PositiveIntegerField(_("matches"), default=0)
    updated_at = models.DateTimeField(_("updated at"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "game_slug"], name="one_rating_per_game")
        ]
        indexes = [models.Index(fields=["game_slug", "-ordinal"], name="leaderboard")]

    def __str__(self) -> str:
        return gettext("%(user)s in %(game)s: %(rating).1f") % {
            "user": self.user,
            "game": self.game_slug,
            "rating": self.ordinal,
        }


class RatingChange(models.Model):
    """What one finished match did to one player's rating."""

    match = models.ForeignKey(
        "games.Match",
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("match"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("user"),
    )
    game_slug = models.CharField(_("game slug"), max_length=40)
    # 1 is first; players sharing a place share it.
    place = models.PositiveSmallIntegerField(_("place"))
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    mu_after = models.FloatField(_("mu after"))
    sigma_after = models.FloatField(_("sigma after"))
    ordinal_after = models.FloatField(_("ordinal after"))
    finished_at = models.DateTimeField(_("finished at"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["finished_at", "match_id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_change_per_match_player")
        ]
        indexes = [models.Index(fields=["user", "game_slug", "finished_at"], name="rating_history")]

    def __str__(self) -> str:
        return gettext("%(user)s in %(match)s: %(before).1f -> %(after).1f") % {
            "user": self.user,
            "match": self.match,
            "before": self.mu_before,
            "after": self.mu_after,
        }


class ProfileSettings(models.Model):
    """What a player shows of themselves to others."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile_settings",
        verbose_name=_("user"),
    )
    hidden = models.BooleanField(
        _("hidden"),
        default=False,
        help_text=_("Others see only your name: no statistics, ratings history or matches."),
    )

    class Meta:
        verbose_name = _("profile settings")
        verbose_name_plural = _("profile settings")

    def __str__(self) -> str:
        shown = gettext("hidden") if self.hidden else gettext("public")  # not in an f-string:
        return f"{self.user}: {shown}"  # xgettext would not find them there
