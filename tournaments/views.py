"""Thin views: the list of tournaments (and a new one), a tournament's page and what a
player or its organiser does there."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from community.names import public_name
from games.engine import get_game
from games.engine.numbers import read_number
from games.models import Match
from games.services import ServiceError
from games.views import MAX_SEAT
from notifications.views import hooks_page
from players.decorators import real_sign_in_required
from replies.tokens import organiser_address

from . import hooks, leagues, selectors, services
from .forms import DescriptionForm, ExtendSignupForm, LeagueForm, TournamentForm
from .models import Format, League, Tournament, TournamentStatus


def tournament_list(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None) if request.user.is_authenticated else None
    if request.method == "POST" and form is not None and form.is_valid():
        try:
            tournament = services.create_tournament(organiser=request.user, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect("tournament_detail", pk=tournament.pk)
    tournaments = Tournament.objects.exclude(status=TournamentStatus.CANCELLED).filter(
        division=None
    )[:100]
    return render(
        request,
        "tournaments/list.html",
        {
            "tournaments": tournaments,
            "leagues": League.objects.all()[:100],
            "form": form,
            "league_form": LeagueForm() if request.user.is_authenticated else None,
        },
    )


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    t = get_object_or_404(Tournament, pk=pk)
    entries = list(t.entries.select_related("user"))
    names = {e.user_id: public_name(e.user) for e in entries}
    rows = services.current_standings(t) if t.status != TournamentStatus.SIGNUP else []
    rounds = [
        {
            "round": r,
            "bye": names.get(r.bye_id, ""),
            "sat_out": [names.get(u, "?") for u in r.sat_out],
            "tables": [
                {
                    "match": table.match,
                    "players": [names.get(s.user_id, s.name) for s in table.match.seats.all()],
                    "result": selectors.result_line(table.match, names),
                    "stalled": [
                        s
                        for s in table.match.seats.all()
                        if s.timeouts
                        and not s.resigned
                        and not s.takeover_offered_at
                        and table.match.status == "active"
                    ],
                }
                for table in r.tables.select_related("match").prefetch_related("match__seats")
            ],
        }
        for r in t.round_set.all()
    ]
    mine = next((e for e in entries if e.user_id == request.user.pk), None)
    is_organiser = request.user.is_authenticated and t.organiser_id == request.user.pk
    order = [row.player for row in rows]
    preview = services.preview_draw(t) if is_organiser else None
    return render(
        request,
        "tournaments/detail.html",
        {
            "problem": t.problem if is_organiser or request.user.is_staff else "",
            "crosstable": [
                {"name": names.get(line["player"], "?"), "cells": line["cells"]}
                for line in selectors.crosstable(t, order)
            ]
            if order and t.round_set.exists()
            else [],
            "crosstable_heads": [names.get(p, "?") for p in order],
            "preview": preview
            and {
                "number": preview[0],
                "tables": [[names.get(u, "?") for u in table] for table in preview[1]],
                "byes": [names.get(u, "?") for u in preview[2]],
            },
            # Addresses stand in the record (who did it): for the organiser and staff only.
            "actions": t.actions.all() if is_organiser or request.user.is_staff else [],
            "withdrawable": [
                {"user_id": e.user_id, "name": names[e.user_id]}
                for e in entries
                if e.withdrawn_at is None
            ],
            "knockout": t.format == Format.KNOCKOUT,
            "tournament": t,
            "game": get_game(t.game_slug),
            "entries": entries,
            "signed_up": [names[e.user_id] for e in entries if e.withdrawn_at is None],
            "standings": [{"row": row, "name": names.get(row.player, "?")} for row in rows],
            "rounds": rounds,
            "mine": mine,
            "is_organiser": is_organiser,
            "organiser_address": organiser_address(t.pk, request.user.pk) if is_organiser else "",
        },
    )


@login_required
@require_POST
def tournament_action(request: HttpRequest, pk: int) -> HttpResponse:
    t = get_object_or_404(Tournament, pk=pk)
    action = request.POST.get("action")
    try:
        if action == "join":
            services.join(t, request.user)
            messages.success(request, _("You are in. Each round's match comes by email."))
        elif action == "withdraw":
            services.withdraw(t, request.user)
            messages.success(request, _("You have left the tournament."))
        elif action == "offer-seat" and t.organiser_id == request.user.pk:
            match_id = read_number(request.POST.get("match", ""), low=1)
            seat = read_number(request.POST.get("seat", ""), high=MAX_SEAT)
            if match_id is None or seat is None:
                raise ServiceError(_("Choose a match and a seat."))
            match = get_object_or_404(Match, pk=match_id)
            services.offer_seat(
                t,
                match,
                seat,
                by=request.user,
                reason=request.POST.get("reason", ""),
            )
            messages.success(request, _("The seat is offered in the lobby to a substitute."))
        elif action == "start" and t.organiser_id == request.user.pk:
            reason = request.POST.get("reason", "").strip() or "started by the organiser"
            services.start(t.pk, by=str(request.user), reason=reason)
        elif action in ORGANISER_ACTIONS:
            ORGANISER_ACTIONS[action](request, t)
        else:
            messages.error(request, _("That is not something you can do here."))
    except ServiceError as error:
        messages.error(request, _(error.message) if error.message else error.message)
    return redirect("tournament_detail", pk=t.pk)


def _withdraw_player(request: HttpRequest, t: Tournament) -> None:
    user_id = read_number(request.POST.get("player", ""), low=1)
    entry = t.entries.filter(user_id=user_id).select_related("user").first()
    if entry is None:
        raise ServiceError(_("That player is not in this tournament."))
    services.withdraw_player(t, entry.user, by=request.user, reason=request.POST.get("reason", ""))
    messages.success(request, _("The player is withdrawn; their matches in play are resigned."))


def _cancel(request: HttpRequest, t: Tournament) -> None:
    services.cancel(t, by=request.user, reason=request.POST.get("reason", ""))
    messages.success(request, _("The tournament is cancelled."))


def _describe(request: HttpRequest, t: Tournament) -> None:
    form = DescriptionForm(request.POST)
    if not form.is_valid():
        raise ServiceError(form.errors.as_text())
    services.describe(t, by=request.user, description=form.cleaned_data["description"])
    messages.success(request, _("The description is saved."))


def _extend(request: HttpRequest, t: Tournament) -> None:
    form = ExtendSignupForm(request.POST)
    if not form.is_valid():
        raise ServiceError(form.errors.as_text())
    services.extend_signup(
        t,
        by=request.user,
        until=form.cleaned_data["signup_until"],
        reason=form.cleaned_data["reason"],
    )
    messages.success(request, _("Sign-up stays open longer."))


# The organiser's tools on the tournament's page; each service checks who asks.
ORGANISER_ACTIONS = {
    "withdraw-player": _withdraw_player,
    "cancel": _cancel,
    "describe": _describe,
    "extend": _extend,
}


@login_required
@require_POST
def league_create(request: HttpRequest) -> HttpResponse:
    form = LeagueForm(request.POST)
    if form.is_valid():
        try:
            league = leagues.create_league(organiser=request.user, **form.cleaned_data)
        except ServiceError as error:
            messages.error(request, _(error.message) if error.message else error.message)
        else:
            return redirect("league_detail", pk=league.pk)
    else:
        said = [str(e) for e in form.non_field_errors()] + [
            f"{form.fields[name].label}: {' '.join(errors)}"
            for name, errors in form.errors.items()
            if name != "__all__"
        ]
        messages.error(request, _("Check the league's settings: ") + " ".join(said))
    return redirect("tournament_list")


def league_detail(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League, pk=pk)
    seasons = [
        {
            "season": season,
            "divisions": [
                {"division": d, "tournament": d.tournament}
                for d in season.divisions.select_related("tournament")
            ],
        }
        for season in league.seasons.order_by("-number")
    ]
    members = league.members.filter(left_at=None).select_related("user")
    member = members.filter(user_id=request.user.pk).first()
    return render(
        request,
        "tournaments/league.html",
        {
            "league": league,
            "game": get_game(league.game_slug),
            "seasons": seasons,
            "members": [public_name(m.user) for m in members],
            "member": member,
            "is_organiser": request.user.is_authenticated
            and league.organiser_id == request.user.pk,
        },
    )


@login_required
@require_POST
def league_action(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League, pk=pk)
    action = request.POST.get("action")
    if action == "join":
        leagues.join_league(league, request.user)
        messages.success(
            request, _("You are in: you play from the next season, in the bottom division.")
        )
    elif action == "leave":
        leagues.leave_league(league, request.user)
        messages.success(request, _("You leave the league after this season."))
    elif action == "start" and league.organiser_id == request.user.pk:
        if leagues.start_season(league.pk) is None:
            messages.error(request, _("A season is in play, or too few members to start one."))
    else:
        messages.error(request, _("That is not something you can do here."))
    return redirect("league_detail", pk=league.pk)


@real_sign_in_required
def tournament_hooks(request: HttpRequest, pk: int) -> HttpResponse:
    """The chat channels that follow a tournament and its matches: connect one (the organiser
    or a player), or remove one (who connected it, the organiser or staff)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return hooks_page(
        request,
        {"tournament": tournament},
        hooks.tournament_channels(tournament),
        _("The channel will be told of this tournament from now on."),
        redirect("tournament_hooks", pk=tournament.pk),
    )
