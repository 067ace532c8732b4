"""The operators' view of matches: browse, filter, replay move by move, verify, export.

Nothing here writes a match, a seat or a move directly. Matches and seats are read-only;
moves cannot be added, changed or deleted by anyone. An operator's correction is a new log
entry with a reason, made through games.services.operator_move.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import UTC, datetime
from functools import cache

from django.contrib import admin, messages
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import format_lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import hidden_state, pages, selectors, services
from games.engine import get_game
from games.forms import OpenHiddenStateForm, OperatorMoveForm
from games.models import HiddenStateOpening, Match, MatchStatus, Move, Seat

# Fields no query string may filter on: the seed (secret until the end), derived states and
# snapshots (hands, deck order), and passwords. Django lets a changelist filter on any local
# field by default (`?seed__startswith=a`), which answers yes/no questions about the value.
SECRET_FIELDS = frozenset({"seed", "state", "snapshots", "snapshot", "password"})


class NoSecretLookups:
    """Refuses changelist and filter lookups that touch a secret field, on any path."""

    def lookup_allowed(self, lookup, value, request=None):
        if SECRET_FIELDS & set(lookup.split("__")):
            return False
        return super().lookup_allowed(lookup, value, request)

    def get_search_fields(self, request):
        fields = super().get_search_fields(request)
        return [f for f in fields if not SECRET_FIELDS & set(f.lstrip("^=@").split("__"))]


WITHHELD = _("(hidden while the match is in play)")


@cache
def withheld(model, name: str):
    """A read-only column that stands in for `model`'s field `name`, under its label, and
    shows WITHHELD (one function per field, so every list of fields holds the same one)."""

    def show(obj) -> str:
        return WITHHELD

    show.short_description = model._meta.get_field(name).verbose_name
    show.__name__ = f"withheld_{name}"
    return show


class WithholdsSecrets:
    """Fields that carry a seat's secrets while its match is in play (`secret_fields`): on a
    page of an object of such a match they read WITHHELD unless games.hidden_state shows it
    to this request. The object is the match itself (an inline's parent) or has a `match`."""

    secret_fields: tuple[str, ...] = ()

    def _withheld(self, request, obj) -> bool:
        match = obj if isinstance(obj, Match) else getattr(obj, "match", None)
        return match is not None and not hidden_state.shown(request, match)

    def _swap(self, request, obj, fields):
        if not self._withheld(request, obj):
            return fields
        return [withheld(self.model, f) if f in self.secret_fields else f for f in fields]

    def get_fields(self, request, obj=None):
        return self._swap(request, obj, super().get_fields(request, obj))

    def get_readonly_fields(self, request, obj=None):
        return self._swap(request, obj, super().get_readonly_fields(request, obj))

    def get_exclude(self, request, obj=None):
        exclude = list(super().get_exclude(request, obj) or [])
        if self._withheld(request, obj):
            exclude += self.secret_fields
        return exclude


def record_operator_action(request: HttpRequest, obj, message: str) -> None:
    """Who did what and why, in Django's admin log (shown on the object's history page)."""
    LogEntry.objects.log_actions(
        user_id=request.user.pk,
        queryset=[obj],
        action_flag=CHANGE,
        change_message=message,
        single_object=True,
    )


class GameFilter(admin.SimpleListFilter):
    title = _("game")
    parameter_name = "game"

    def lookups(self, request, model_admin):
        slugs = Match.objects.order_by().values_list("game_slug", flat=True).distinct()
        return sorted(((slug, _title(slug)) for slug in slugs), key=lambda item: item[1])

    def queryset(self, request, queryset):
        if self.value():
            return queryset.filter(game_slug=self.value())
        return queryset


def _title(slug: str) -> str:
    try:
        return get_game(slug).title
    except KeyError:
        return slug


class WaitingOnFilter(admin.SimpleListFilter):
    """Who an active match waits for: a person, a bot (a stuck bot is worth a look), or no
    one (an active match nobody owes a move in is a bug)."""

    title = _("waiting on")
    parameter_name = "waiting_on"

    def lookups(self, request, model_admin):
        return [("human", _("a human")), ("bot", _("a bot")), ("nobody", _("nobody"))]

    def queryset(self, request, queryset):
        if not self.value():
            return queryset
        active = dict(Match.objects.filter(status=MatchStatus.ACTIVE).values_list("pk", "to_act"))
        bots: dict[int, set[int]] = {}
        for match_id, number, is_bot, resigned in Seat.objects.filter(
            match_id__in=active
        ).values_list("match_id", "number", "is_bot", "resigned"):
            if is_bot or resigned:
                bots.setdefault(match_id, set()).add(number)
        wanted = []
        for pk, to_act in active.items():
            to_act = set(to_act or [])
            robots = bots.get(pk, set())
            if self.value() == "nobody" and not to_act:
                wanted.append(pk)
            elif self.value() == "human" and to_act - robots:
                wanted.append(pk)
            elif self.value() == "bot" and to_act & robots:
                wanted.append(pk)
        return queryset.filter(pk__in=wanted)


class OverdueFilter(admin.SimpleListFilter):
    title = _("deadline")
    parameter_name = "overdue"

    def lookups(self, request, model_admin):
        return [("yes", _("overdue"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(seats__deadline_at__lt=timezone.now()).distinct()
        return queryset


class SeatFromOne:
    """A row's `seat` (counted from 0 in the database) as people read it: from 1."""

    @admin.display(description=_("seat"), ordering="seat")
    def seat_no(self, row) -> int | None:
        return None if row.seat is None else row.seat + 1


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(WithholdsSecrets, ReadOnlyInline):
    model = Seat
    secret_fields = ("standing_orders",)  # a seat's own settings, which say what it holds
    fields = [
        "seat_no",
        "user",
        "invited_email",
        "display_name",
        "is_bot",
        "resigned",
        "standing_orders",
        "timeouts",
        "deadline_at",
        "deadline_seq",
    ]

    @admin.display(description=_("seat"))
    def seat_no(self, seat: Seat) -> int:
        return seat.number + 1  # seats are numbered from 1 wherever people read them


def narrate(moves: list[Move]) -> None:
    """Gives each move its `history_text`: the line the players' history shows for it, as a
    spectator reads it (the admin replay's public narration, so no hand or secret bid).
    One narrated stretch of the log per match, from its first to its last move here."""
    by_match: dict[int, list[Move]] = defaultdict(list)
    for move in moves:
        by_match[move.match_id].append(move)
    for rows in by_match.values():
        seqs = [row.seq for row in rows]
        try:
            lines = selectors.history(rows[0].match, None, upto=max(seqs), since=min(seqs) - 1)
        except Exception as error:  # noqa: BLE001 - a broken log is what operators come to see
            failure = gettext("(cannot be narrated: the log does not replay: %(error)s)")
            lines, failure = [], failure % {"error": error}
        else:
            failure = ""
        texts = {line["seq"]: line["text"] for line in lines}
        for row in rows:
            row.history_text = texts.get(row.seq, failure)


class NarratedMove:
    """A move's `move` column: what it was, in the history's words."""

    @admin.display(description=_("move"))
    def move_text(self, move: Move) -> str:
        if not hasattr(move, "history_text"):
            narrate([move])
        return move.history_text


class LatestMovesFormSet(BaseInlineFormSet):
    """Only the last MOVES_SHOWN moves of the match (a log may hold thousands): the whole log
    is paged in the Moves list, filtered by the match (the tools' "Move log" link)."""

    def get_queryset(self):
        if not hasattr(self, "_queryset"):
            since = self.instance.head_seq - MOVES_SHOWN
            self.queryset = self.queryset.filter(seq__gt=since)
            narrate(list(super().get_queryset()))  # the rows the forms are built from
        return super().get_queryset()


MOVES_SHOWN = 50


class MoveInline(WithholdsSecrets, NarratedMove, SeatFromOne, ReadOnlyInline):
    model = Move
    secret_fields = ("payload",)  # a sealed bid, a card kept: the narration says what is public
    formset = LatestMovesFormSet
    template = "admin/games/match/moves_inline.html"  # says where the older moves are
    verbose_name_plural = format_lazy(_("moves (the last {shown})"), shown=MOVES_SHOWN)
    fields = [
        "seq",
        "seat_no",
        "kind",
        "move_text",
        "source",
        "payload",
        "note",
        "created_at",
        "short_digest",
    ]
    ordering = ["seq"]
    moves_shown = MOVES_SHOWN

    @admin.display(description=_("digest"))
    def short_digest(self, move: Move) -> str:
        return move.digest[:12]


def _open_url(match: Match) -> str:
    return reverse("admin:games_match_open_hidden_state", args=[match.pk])


def _hidden_state_context(request: HttpRequest, match: Match) -> dict:
    """What a page of a match in play says about its hidden state: open until when, or
    where to open it (for those who may)."""
    until = hidden_state.open_until(request, match)
    return {
        "hidden_state_open_until": datetime.fromtimestamp(until, tz=UTC) if until else None,
        "hidden_state_url": _open_url(match) if hidden_state.may_open(request.user) else "",
    }


def move_log_url(match: Match) -> str:
    """The match's moves in the (paged, read-only) move list."""
    return f"{reverse('admin:games_move_changelist')}?match__id__exact={match.pk}"


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records and players' own words and settings: operators read them; nobody changes
    them here."""

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(NoSecretLookups, ReadOnlyAdmin):
    list_display = [
        "id",
        "game_title",
        "status",
        "players",
        "head_seq",
        "waiting_for",
        "created_at",
    ]
    list_filter = [GameFilter, "status", WaitingOnFilter, OverdueFilter]
    search_fields = ["=id", "seats__user__email", "seats__invited_email"]
    inlines = [SeatInline, MoveInline]
    actions = ["verify_log", "export_json"]
    # The seed is secret until the end (`revealed_seed` shows it then); to_act and result
    # count seats from 0 ("to act", "result" and "raw result" show them for people).
    exclude = ["seed", "to_act", "result"]
    readonly_fields = ["revealed_seed", "links"]
    list_per_page = 50

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user")

    def get_readonly_fields(self, request, obj=None):
        fields = [f.name for f in Match._meta.fields if f.name not in self.exclude]
        return [*fields, "waiting_for", "standing", "raw_result", *self.readonly_fields]

    @admin.display(description=_("game title"))
    def game_title(self, match: Match) -> str:
        return match.game_title

    @admin.display(description=_("players"))
    def players(self, match: Match) -> str:
        # Named as in "to act" (and everywhere in the admin): "Anna (seat 1)"; the account's
        # address after it, since operators search and write by it.
        return "; ".join(
            f"{seat} · {seat.user.email}" if seat.user_id else str(seat)
            for seat in sorted(match.seats.all(), key=lambda s: s.number)
        )

    @admin.display(description=_("to act"))
    def waiting_for(self, match: Match) -> str:
        seats = {s.number: s for s in match.seats.all()}
        return ", ".join(str(seats[n]) for n in match.to_act if n in seats)

    @admin.display(description=_("seed"))
    def revealed_seed(self, match: Match) -> str:
        return match.seed if match.is_over else gettext("(secret until the match is over)")

    @admin.display(description=_("result"))
    def standing(self, match: Match) -> str:
        """Places, best first, named and numbered as people read them."""
        lines = selectors.standings(match)
        if not lines:
            return "-"
        return format_html_join(
            mark_safe("<br>"),
            "{}{}{}",
            (
                (
                    gettext("%(place)s. %(name)s (seat %(seat)s)")
                    % {"place": line.place, "name": line.name, "seat": line.seat + 1},
                    ""
                    if line.score is None
                    else " - " + gettext("%(score)s points") % {"score": line.score},
                    " " + gettext("(shared place)") if line.shared else "",
                )
                for line in lines
            ),
        )

    @admin.display(description=_("raw result"))
    def raw_result(self, match: Match) -> str:
        if not match.result:
            return "-"
        return format_html(
            "<details><summary>{}</summary><pre>{}</pre></details>",
            gettext("JSON (seats counted from 0)"),
            json.dumps(match.result, indent=1, sort_keys=True),
        )

    @admin.display(description=_("tools"))
    def links(self, match: Match) -> str:
        tools = [
            (reverse("admin:games_match_replay", args=[match.pk]), gettext("Replay move by move")),
            (
                move_log_url(match),
                ngettext("Move log (%(count)s move)", "Move log (%(count)s moves)", match.head_seq)
                % {"count": match.head_seq},
            ),
            (reverse("admin:games_match_operator_move", args=[match.pk]), gettext("Operator move")),
            (reverse("match_detail", args=[match.pk]), gettext("Player page")),
            (reverse("match_replay", args=[match.pk]), gettext("Player replay")),
        ]
        if not match.is_over:
            tools.append((_open_url(match), gettext("Hidden state")))
        return format_html_join(" · ", '<a href="{}">{}</a>', tools)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        match = self.get_object(request, object_id)
        if match is not None and not match.is_over:
            extra_context = {**(extra_context or {}), **_hidden_state_context(request, match)}
        return super().change_view(request, object_id, form_url, extra_context)

    def history_view(self, request, object_id, extra_context=None):
        """A match's history is its move log (nobody edits a match here, so Django's change
        history would always be empty)."""
        match = get_object_or_404(Match, pk=object_id)
        if not self.has_view_permission(request, match):
            raise PermissionDenied
        return redirect(move_log_url(match))

    # --- actions ---------------------------------------------------------------------------

    @admin.action(description=_("Verify the log (replay and compare digests)"))
    def verify_log(self, request: HttpRequest, queryset) -> None:
        for match in queryset:
            outcome = selectors.verify_match(match)
            record_operator_action(request, match, f"Verified the log: {outcome.message}")
            level = messages.SUCCESS if outcome.ok else messages.ERROR
            self.message_user(request, f"{match}: {outcome.message}", level)

    @admin.action(description=_("Export as JSON"))
    def export_json(self, request: HttpRequest, queryset) -> HttpResponse | None:
        # The export holds every move's payload: a match in play only once its hidden state
        # is open to this operator.
        matches = list(queryset.order_by("pk"))
        closed = [m for m in matches if not hidden_state.shown(request, m)]
        if closed:
            self.message_user(
                request,
                gettext("Not exported, in play with their hidden state closed to you: %(matches)s")
                % {"matches": ", ".join(str(m) for m in closed)},
                messages.ERROR,
            )
        matches = [m for m in matches if m not in closed]
        if not matches:
            return None
        exports = [selectors.export_match(m) for m in matches]
        for match in matches:
            record_operator_action(request, match, "Exported the log as JSON")
        if len(exports) == 1:
            body, name = exports[0], f"match-{matches[0].pk}.json"
        else:
            body, name = exports, "matches.json"
        response = HttpResponse(
            json.dumps(body, indent=2, default=str), content_type="application/json"
        )
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    # --- replay and operator moves ----------------------------------------------------------

    def get_urls(self):
        own = [
            path(
                "<int:pk>/replay/",
                self.admin_site.admin_view(self.replay_view),
                name="games_match_replay",
            ),
            path(
                "<int:pk>/hidden-state/",
                self.admin_site.admin_view(self.open_hidden_state_view),
                name="games_match_open_hidden_state",
            ),
            path(
                "<int:pk>/operator-move/",
                self.admin_site.admin_view(self.operator_move_view),
                name="games_match_operator_move",
            ),
        ]
        return own + super().get_urls()

    def replay_view(self, request: HttpRequest, pk: int) -> TemplateResponse:
        match = get_object_or_404(Match, pk=pk)
        if not self.has_view_permission(request, match):
            raise PermissionDenied
        try:
            seq = int(request.GET.get("n", match.head_seq))
        except ValueError:
            seq = match.head_seq
        # The players' replay frame (boards, rounds, chart, history up to the step): every
        # seat's view where the hidden state is shown, else a spectator's (games.hidden_state).
        # The log shows the public narration, as a spectator reads it.
        shown = hidden_state.shown(request, match)
        viewer = request.user if shown else AnonymousUser()
        frame = pages.replay_frame(match, viewer, seq, operator=shown)
        rows = match.moves.filter(seq__in=[entry["seq"] for entry in frame.history])
        rows = {row.seq: row for row in rows}
        history = [{**entry, "row": rows.get(entry["seq"])} for entry in frame.history]
        state = selectors.position_after(match, frame.seq) if shown else None
        context = {
            **self.admin_site.each_context(request),
            **({} if match.is_over else _hidden_state_context(request, match)),
            "opts": self.model._meta,
            "title": gettext("Replay of %(match)s") % {"match": match},
            "match": match,
            "frame": frame,
            "previous": frame.seq - 1 if frame.seq > 0 else None,
            "next": frame.seq + 1 if frame.seq < frame.head_seq else None,
            "play": request.GET.get("play") == "1" and frame.seq < frame.head_seq,
            "history": history,
            "older": frame.history[0]["seq"] - 1 if frame.history else 0,
            "move_log_url": move_log_url(match),
            "state_json": json.dumps(state, indent=1, sort_keys=True) if shown else "",
        }
        return TemplateResponse(request, "admin/games/match/replay.html", context)

    def open_hidden_state_view(self, request: HttpRequest, pk: int):
        """A form asking why; its answer is recorded, then the replay shows every seat."""
        match = get_object_or_404(Match, pk=pk)
        if not hidden_state.may_open(request.user):
            raise PermissionDenied
        form = OpenHiddenStateForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            hidden_state.open_hidden_state(
                request=request, match=match, reason=form.cleaned_data["reason"]
            )
            return redirect("admin:games_match_replay", match.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": gettext("Open the hidden state of %(match)s") % {"match": match},
            "match": match,
            "form": form,
            "lasts": int(hidden_state.OPENING_LASTS.total_seconds() // 60),
        }
        return TemplateResponse(request, "admin/games/match/open_hidden_state.html", context)

    def operator_move_view(self, request: HttpRequest, pk: int):
        match = get_object_or_404(Match, pk=pk)
        # Playing for a seat reads its position (a refusal names its hand): the operator
        # needs the hidden-state permission too.
        if not request.user.has_perms(["games.change_match", "games.view_hidden_state"]):
            raise PermissionDenied
        seats = list(match.seats.order_by("number"))
        form = OperatorMoveForm(request.POST or None, seats=seats)
        if request.method == "POST" and form.is_valid():
            seat = form.cleaned_data["seat"]
            reason = form.cleaned_data["reason"]
            # The service reads the command under the match's lock, like a player's.
            result = services.operator_move(
                match_id=match.pk,
                seat=seat,
                command=form.cleaned_data["command"],
                reason=reason,
                operator=request.user.get_username(),
            )
            if result.ok:
                record_operator_action(
                    request,
                    match,
                    f"Operator move for {seats[seat]} at seq {result.applied[0].seq}: "
                    f"{form.cleaned_data['command']!r}. Reason: {reason}",
                )
                self.message_user(
                    request,
                    gettext("Move appended at seq %(seq)s.") % {"seq": result.applied[0].seq},
                )
                return redirect("admin:games_match_change", match.pk)
            form.add_error("command", result.message)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": gettext("Operator move in %(match)s") % {"match": match},
            "match": match,
            "to_act": [str(seats[n]) for n in match.to_act if 0 <= n < len(seats)],
            "form": form,
        }
        return TemplateResponse(request, "admin/games/match/operator_move.html", context)


@admin.register(Move)
class MoveAdmin(WithholdsSecrets, NarratedMove, SeatFromOne, NoSecretLookups, ReadOnlyAdmin):
    """The log, read-only: nobody adds, changes or deletes a move here."""

    secret_fields = ("payload",)

    list_display = ["match", "seq", "seat_no", "kind", "move_text", "source", "created_at", "note"]
    list_per_page = 50
    list_filter = ["kind", "source"]
    search_fields = ["=match__id"]
    list_select_related = ["match"]
    ordering = ["-created_at", "-seq"]

    exclude = ["seat"]  # shown as seat_no, from 1

    def get_readonly_fields(self, request, obj=None):
        fields = [f.name if f.name != "seat" else "seat_no" for f in Move._meta.fields]
        return [*fields, "move_text"]

    def get_changelist_instance(self, request):
        changelist = super().get_changelist_instance(request)
        narrate(list(changelist.result_list))  # the page's rows, which the list then shows
        return changelist


@admin.register(HiddenStateOpening)
class HiddenStateOpeningAdmin(ReadOnlyAdmin):
    """Who opened which match's hidden state before its end, and why."""

    list_display = ["opened_at", "username", "match", "seq", "reason"]
    list_select_related = ["match"]
    search_fields = ["username", "=match__id", "reason"]
