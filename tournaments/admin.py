from django.contrib import admin, messages
from django.utils.html import format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.services import ServiceError

from . import services
from .models import (
    Division,
    Entry,
    League,
    LeagueMember,
    OrganiserAction,
    Round,
    Season,
    Table,
    Tournament,
)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["user", "seed", "joined_at", "withdrawn_at"]
    readonly_fields = fields


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "started_at", "finished_at", "bye", "sat_out"]
    readonly_fields = fields


class ActionInline(admin.TabularInline):
    model = OrganiserAction
    extra = 0
    fields = ["at", "by", "action", "reason"]
    readonly_fields = fields


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Tournaments with their entrants, rounds and every organiser's action (who and why).
    Starting one early is an action here; withdrawing a player is one on the Entry."""

    list_display = ["name", "game_slug", "format", "status", "current_round", "rounds"]
    list_filter = ["status", "format", "game_slug"]
    exclude = ["seed"]  # the draws' random stream stays secret
    readonly_fields = ["status", "current_round", "organiser", "created_at", "standings"]
    inlines = [EntryInline, RoundInline, ActionInline]

    @admin.display(description=_("Standings (points, score, head to head, seed)"))
    def standings(self, tournament):
        rows = services.current_standings(tournament) if tournament.pk else []
        names = {e.user_id: str(e.user) for e in tournament.entries.select_related("user")}
        line = gettext(
            "%(place)s. %(name)s: %(points)s points, score %(score)s, "
            "head to head %(head_to_head)s, seed %(seed)s"
        )
        return (
            format_html_join(
                "",
                "<div>{}</div>",
                (
                    (
                        line
                        % {
                            "place": n,
                            "name": names.get(r.player, "?"),
                            "points": float(r.points),
                            "score": r.score,
                            "head_to_head": r.head_to_head,
                            "seed": r.seed,
                        },
                    )
                    for n, r in enumerate(rows, start=1)
                ),
            )
            or "—"
        )

    actions = ["start_now"]

    @admin.action(description=_("Start now (sign-up ends)"))
    def start_now(self, request, queryset):
        for tournament in queryset:
            try:
                services.start(tournament.pk, by=str(request.user), reason="started from the admin")
            except ServiceError as error:
                said = gettext(error.message) if error.message else error.message
                self.message_user(request, f"{tournament}: {said}", messages.ERROR)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["tournament", "user", "seed", "withdrawn_at"]
    list_filter = ["tournament"]
    readonly_fields = ["tournament", "user", "seed", "joined_at", "withdrawn_at"]
    actions = ["withdraw"]

    @admin.action(description=_("Withdraw (their matches in play are resigned)"))
    def withdraw(self, request, queryset):
        for entry in queryset.filter(withdrawn_at__isnull=True):
            services.withdraw(
                entry.tournament,
                entry.user,
                by=str(request.user),
                reason="withdrawn from the admin",
            )


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "match"]
    readonly_fields = ["round", "match"]


class MemberInline(admin.TabularInline):
    model = LeagueMember
    extra = 0
    fields = ["user", "joined_at", "left_at"]
    readonly_fields = fields


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    fields = ["number", "started_at", "finished_at"]
    readonly_fields = fields


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "game_slug", "division_size", "promoted"]
    readonly_fields = ["organiser", "created_at"]
    inlines = [MemberInline, SeasonInline]


@admin.register(Division)
class DivisionAdmin(admin.ModelAdmin):
    list_display = ["season", "level", "tournament"]
    readonly_fields = ["season", "level", "tournament"]
