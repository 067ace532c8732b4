"""Leaderboards, profiles and the archive: pages anyone may read. Thin: community.selectors
reads, and the one write (hiding a profile) is a single row of the player's own."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from community import selectors
from community.models import ProfileSettings
from community.names import public_name
from games import vacation_bank
from games.engine import available_games, get_game
from games.engine.numbers import read_number

User = get_user_model()


def leaderboards(request: HttpRequest) -> HttpResponse:
    return redirect("community:leaderboard", slug=available_games()[0].slug)


def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        game = get_game(slug)
    except KeyError:
        raise Http404("No such game.") from None
    return render(
        request,
        "community/leaderboard.html",
        {
            "game": game,
            "games": available_games(),
            "page": selectors.leaderboard(game.slug, request.GET.get("page")),
        },
    )


def player(request: HttpRequest, pk: int) -> HttpResponse:
    user = get_object_or_404(User, pk=pk, is_active=True)
    own = request.user.is_authenticated and request.user.pk == user.pk
    if selectors.is_hidden(user) and not own and not request.user.is_staff:
        return render(request, "community/profile_hidden.html", {"name": public_name(user)})
    hidden = selectors.is_hidden(user) if own else False
    return render(
        request,
        "community/profile.html",
        {
            "profile": selectors.profile(user, request.user),
            "own": own,
            "hidden": hidden,
            # Only the player sees their own vacation bank.
            "vacation_bank": vacation_bank.bank_of(user) if own else None,
        },
    )


@login_required
@require_POST
def profile_visibility(request: HttpRequest) -> HttpResponse:
    hidden = request.POST.get("hidden") == "1"
    ProfileSettings.objects.update_or_create(user=request.user, defaults={"hidden": hidden})
    messages.success(
        request,
        _("Your profile is hidden: others see only your name.")
        if hidden
        else _("Your profile is public."),
    )
    return redirect("community:player", pk=request.user.pk)


def archive(request: HttpRequest) -> HttpResponse:
    games = available_games()
    filters = selectors.ArchiveFilters(
        game=request.GET.get("game", "")
        if request.GET.get("game") in {g.slug for g in games}
        else "",
        player=request.GET.get("player", "")[:60],
        finished_from=_date(request.GET.get("from")),
        finished_to=_date(request.GET.get("to")),
    )
    query = request.GET.copy()
    for where in ("page", "older", "newer"):
        query.pop(where, None)
    return render(
        request,
        "community/archive.html",
        {
            "games": games,
            "filters": filters,
            "page": selectors.archive(
                filters,
                older_than=request.GET.get("older"),
                newer_than=request.GET.get("newer"),
                page=_page_number(request.GET.get("page")),
            ),
            "query": query.urlencode(),
        },
    )


def _page_number(value: str | None) -> int | None:
    """A page asked for by number (links from before the archive paged by cursor)."""
    return read_number(value, low=1, high=100_000)


def _date(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        return None
