"""Thin views: the list of tournaments (and a new one), a tournament's page and what a
player or its organiser does there."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from community.names import public_name
from games.engine import get_game
from games.services import ServiceError

from . import services
from .forms import TournamentForm
from .models import Tournament, TournamentStatus
from .standings import TIE_BREAKS


def tournament_list(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None) if request.user.is_authenticated else None
    if request.method == "POST" and form is not None and form.is_valid():
        try:
            tournament = services.create_tournament(organiser=request.user, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect("tournament_detail", pk=tournament.pk)
    tournaments = Tournament.objects.exclude(status=TournamentStatus.CANCELLED)[:100]
    return render(request, "tournaments/list.html", {"tournaments": tournaments, "form": form})


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    t = get_object_or_404(Tournament, pk=pk)
    entries = list(t.entries.select_related("user"))
    names = {e.user_id: public_name(e.user) for e in entries}
    rows = services.current_standings(t) if t.status != TournamentStatus.SIGNUP else []
    rounds = [
        {
            "round": r,
            "bye": names.get(r.bye_id, ""),
            "tables": [
                {
                    "match": table.match,
                    "players": [names.get(s.user_id, s.name) for s in table.match.seats.all()],
                }
                for table in r.tables.select_related("match").prefetch_related("match__seats")
            ],
        }
        for r in t.round_set.all()
    ]
    mine = next((e for e in entries if e.user_id == request.user.pk), None)
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": t,
            "game": get_game(t.game_slug),
            "entries": entries,
            "signed_up": [names[e.user_id] for e in entries if e.withdrawn_at is None],
            "standings": [{"row": row, "name": names.get(row.player, "?")} for row in rows],
            "tie_breaks": TIE_BREAKS,
            "rounds": rounds,
            "mine": mine,
            "is_organiser": request.user.is_authenticated and t.organiser_id == request.user.pk,
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
            messages.success(request, "You are in. Each round's match comes by email.")
        elif action == "withdraw":
            services.withdraw(t, request.user)
            messages.success(request, "You have left the tournament.")
        elif action == "start" and t.organiser_id == request.user.pk:
            reason = request.POST.get("reason", "").strip() or "started by the organiser"
            services.start(t.pk, by=str(request.user), reason=reason)
        else:
            messages.error(request, "That is not something you can do here.")
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("tournament_detail", pk=t.pk)
