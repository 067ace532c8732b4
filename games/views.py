"""The web pages. Thin: forms read the input, games.services writes, games.pages reads."""

from __future__ import annotations

import logging
import secrets

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from community.access import can_watch
from games import pages, selectors, services
from games.chat import ChatError, chat_for, post_message
from games.engine import available_games
from games.engine.numbers import read_number
from games.forms import (
    GameChoiceForm,
    MatchCreateForm,
    MoveForm,
    PlayNowForm,
    StandingOrdersForm,
)
from games.models import Match, MatchStatus, MoveSource
from players import limits, match_links

log = logging.getLogger(__name__)
MAX_SEAT = 99  # a seat's number from a form: no game seats a hundred


def _render(request: HttpRequest, template: str, context: dict, status: int = 200) -> HttpResponse:
    """Render now, with times in the viewer's time zone."""
    zone = pages.user_timezone(request.user) if request.user.is_authenticated else "UTC"
    with timezone.override(zone):
        return render(request, template, context, status=status)


# --- home -------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    return _render(request, "site/home.html", {"games": available_games()})


@require_http_methods(["GET", "POST"])
def match_link(request: HttpRequest, pk: int) -> HttpResponse:
    """The link in a match's emails. GET shows a one-button form (mail scanners open
    links); POST spends the link and signs in to this match only (players.match_links)."""
    match = get_object_or_404(Match, pk=pk)
    token = request.POST.get("sesame") or request.GET.get("sesame") or ""
    if request.user.is_authenticated and request.method == "GET":
        return redirect("match_detail", pk=match.pk)  # signed in already: the link is kept
    if request.method == "POST":
        user = match_links.use_match_link(token, match.pk)
        if user is not None:
            if not (request.user.is_authenticated and request.user.pk == user.pk):
                login(request, user, backend="sesame.backends.ModelBackend")
                match_links.record_signin(request, match_links.MATCH, match.pk)
            return redirect("match_detail", pk=match.pk)
    elif match_links.match_link_user(token, match.pk) is not None:
        context = {"match": match, "sesame": token}
        return _render(request, "accounts/match_link_confirm.html", context)
    path = reverse("match_detail", args=[match.pk])
    return _render(
        request,
        "accounts/match_link_invalid.html",
        {"next": path, "hours": match_links.match_link_max_age() // 3600},
        status=400,
    )


# --- lobby and new matches ----------------------------------------------------------------


def _cursor(request: HttpRequest, name: str) -> int | None:
    """A page cursor (a match id) from the query string; anything else is the first page."""
    return read_number(request.GET.get(name, ""), low=1)


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    warning = "notifications/email_warning.html"
    has_warning = pages.template_exists(warning)
    older, open_before = _cursor(request, "older"), _cursor(request, "open_before")
    mine = pages.lobby_page(request.user, older)
    open_matches, open_next = pages.open_matches(request.user, open_before)
    return _render(
        request,
        "play/lobby.html",
        {
            "email_warning": warning if has_warning else None,
            "email_status": pages.email_status(request.user) if has_warning else {},
            "rows": mine.rows,
            "paged": older is not None,
            "older": mine.older,
            "more_turns": mine.more_turns,
            "open_matches": open_matches,
            "takeovers": selectors.takeover_seats(request.user),
            "open_paged": open_before is not None,
            "open_next": open_next,
            "play_now": [(g, range(g.min_players, g.max_players + 1)) for g in available_games()],
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def match_create(request: HttpRequest) -> HttpResponse:
    games = available_games()
    if not games:
        raise Http404("No games are installed.")
    source = request.POST if request.method == "POST" else request.GET
    choice = GameChoiceForm(
        {
            "game": source.get("game") or games[0].slug,
            "players": source.get("players") or games[0].min_players,
        }
    )
    chosen = choice.chosen()
    if chosen is None:
        choice = GameChoiceForm({"game": games[0].slug, "players": games[0].min_players})
        chosen = choice.chosen()
    game, players = chosen
    form = MatchCreateForm(
        request.POST if request.method == "POST" else None, game=game, players=players
    )
    if request.method == "POST" and form.is_valid():
        invited = len(form.cleaned_data["invite_emails"])
        if invited and not limits.allow(
            "invite", str(request.user.pk), limit=limits.INVITATIONS_PER_HOUR, cost=invited
        ):
            form.add_error(
                "invite_emails",
                f"You can invite {limits.INVITATIONS_PER_HOUR} addresses an hour; "
                "try again later or leave the seats open.",
            )
    if request.method == "POST" and form.is_valid():
        try:
            match = services.create_match(
                creator=request.user,
                game_slug=game.slug,
                players=players,
                options=form.options(),
                bots=form.cleaned_data["bots"],
                invite_emails=form.cleaned_data["invite_emails"],
                days_per_move=form.cleaned_data["days_per_move"],
                timeout_policy=form.cleaned_data["timeout_policy"],
                rated=form.cleaned_data["rated"],
                watchable=form.cleaned_data["watchable"],
                takebacks=form.cleaned_data["takebacks"],
                vacation_cap=form.cleaned_data.get("vacation_cap"),  # blank: the default
            )
        except services.ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect("match_detail", pk=match.pk)
    context = {
        "choice": choice,
        "form": form,
        "game": game,
        "players": players,
        "player_counts": range(game.min_players, game.max_players + 1),
        "games": games,
    }
    return _render(request, "play/create.html", context)


@login_required
@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """One click: a match with every other seat a bot."""
    form = PlayNowForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a game and a number of players."))
        return redirect("lobby")
    try:
        match = services.create_match(
            creator=request.user,
            game_slug=form.cleaned_data["game"],
            players=form.cleaned_data["players"],
            bots=form.cleaned_data["players"] - 1,
        )
    except services.ServiceError as error:
        messages.error(request, _(error.message) if error.message else error.message)
        return redirect("lobby")
    return redirect("match_detail", pk=match.pk)


@login_required
@require_POST
def match_join(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    try:
        services.join_match(match_id=match.pk, user=request.user)
    except services.ServiceError as error:
        messages.error(request, _(error.message) if error.message else error.message)
    else:
        messages.success(request, _("You have joined the match."))
    return redirect("match_detail", pk=match.pk)


# --- the match ----------------------------------------------------------------------------


def _watchable_match(request: HttpRequest, pk: int) -> Match:
    """The match, if this visitor may look at it; a private match in play is a 404 to
    anyone else, so its existence tells nothing."""
    match = get_object_or_404(Match, pk=pk)
    if not can_watch(match, request.user):
        raise Http404("No such match.")
    return match


def _seen_on_the_page(request: HttpRequest, match: Match) -> None:
    """A player on the match page plays live: their turn email waits (notifications)."""
    if request.user.is_authenticated and not match.is_over:
        from .presence import seen

        seen(match, request.user.pk)


def _clicks(request: HttpRequest) -> list[str]:
    """The steps clicked so far (?s=, in order), then a trade form's choices, one radio group
    each (?s1=, ?s2=...; games.builder.TradeForm)."""
    clicks = request.GET.getlist("s")
    clicks += [request.GET[f"s{n}"] for n in range(1, 10) if request.GET.get(f"s{n}")]
    return clicks[:20]


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = _watchable_match(request, pk)
    _seen_on_the_page(request, match)
    board_only = bool(getattr(request, "htmx", False)) and request.htmx.target == "board"
    page = pages.match_page(match, request.user, picked=_clicks(request), board_only=board_only)
    chat_template = "games/chat.html"
    context = {
        "page": page,
        "match": match,
        "view": page.view,
        "seat": page.viewer,
        "legal_commands": page.legal_commands,
        "move_token": secrets.token_urlsafe(16),
        "typed_token": secrets.token_urlsafe(16),
        "can_join": _can_join(request, match, page),
        "has_chat": pages.template_exists(chat_template),
        "chat_template": chat_template,
    }
    warning = "notifications/email_warning.html"
    if page.seat is not None and pages.template_exists(warning):
        context["email_warning"] = warning
        context["email_status"] = pages.email_status(request.user)
    if board_only:
        # A step of the move built on the board: only the board is swapped.
        return _render(request, "play/_board.html", context)
    if context["has_chat"]:
        context.update(_chat_context(request, match, page))
    return _render(request, "play/match.html", context)


def _can_join(request: HttpRequest, match: Match, page: pages.MatchPage) -> bool:
    if match.status != MatchStatus.OPEN or page.seat is not None:
        return False
    if not request.user.is_authenticated:
        return True  # the button leads to the login page first
    email = (request.user.email or "").lower()
    return any(s.is_open and s.invited_email in ("", email) for s in page.seats)


def _chat_context(request: HttpRequest, match: Match, page: pages.MatchPage) -> dict:
    try:
        from .chat import chat_for

        chat_messages = chat_for(match)
    except Exception:  # the chat is an extra; the match page must render without it
        log.exception("chat for match %s could not be read", match.pk)
        chat_messages = []
    return {"chat_messages": chat_messages, "can_chat": page.seat is not None}


def match_poll(request: HttpRequest, pk: int) -> HttpResponse:
    """For htmx: 204 while nothing changed since `seq`, else a notice with a reload link."""
    match = _watchable_match(request, pk)
    _seen_on_the_page(request, match)
    seen = read_number(request.GET.get("seq", ""))
    if seen == match.head_seq and request.GET.get("status") == match.status:
        return HttpResponse(status=204)
    return render(request, "play/_moved_on.html", {"match": match})


@login_required
@require_POST
def match_move(request: HttpRequest, pk: int) -> HttpResponse:
    form = MoveForm(request.POST)
    if not form.is_valid() and not Match.objects.filter(pk=pk).exists():
        raise Http404("No such match.")  # the service says so for a valid form
    back = redirect("match_detail", pk=pk)
    if not form.is_valid():
        errors = form.errors.get("command") or ["The form was incomplete; reload the page."]
        messages.error(request, errors[0])
        return back
    command = form.cleaned_data["command"].strip()
    # The service finds the player's seat and reads the command under the match's lock,
    # against the position the move is applied to; it also answers a repeated form (the
    # idempotency key), an outdated position and a move out of turn.
    result = _or_404(
        services.submit_move,
        match_id=pk,
        player=request.user,
        command=command,
        source=MoveSource.WEB,
        seen_seq=form.cleaned_data["seq"],
        idempotency_key=f"web:{request.user.pk}:{form.cleaned_data['token']}",
    )
    if result.outcome == services.Outcome.NOT_A_PLAYER:
        return HttpResponseForbidden(result.message)
    if result.duplicate:
        messages.info(request, result.headline(command))
    elif result.ok:
        messages.success(request, result.headline(command))
    else:
        messages.error(request, result.headline(command))
    return back


def _or_404(service, **arguments) -> services.MoveResult:
    try:
        return service(**arguments)
    except Match.DoesNotExist:
        raise Http404("No such match.") from None


def _answered(request: HttpRequest, pk: int, result: services.MoveResult) -> HttpResponse:
    if result.outcome == services.Outcome.NOT_A_PLAYER:
        return HttpResponseForbidden(result.message)
    (messages.success if result.ok else messages.error)(request, result.headline())
    return redirect("match_detail", pk=pk)


@login_required
@require_POST
def match_orders(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    form = StandingOrdersForm(request.POST, game=match.game)
    if not form.is_valid():
        messages.error(request, _("Unknown standing order."))
        return redirect("match_detail", pk=match.pk)
    result = services.set_standing_orders(
        match_id=match.pk, player=request.user, orders=form.cleaned_data["orders"]
    )
    return _answered(request, pk, result)


@login_required
@require_POST
def match_takeback(request: HttpRequest, pk: int) -> HttpResponse:
    result = _or_404(
        services.take_back,
        match_id=pk,
        player=request.user,
        source=MoveSource.WEB,
        idempotency_key=f"web-undo:{request.user.pk}:{request.POST.get('seq', '')[:20]}",
    )
    return _answered(request, pk, result)


@login_required
@require_http_methods(["GET", "POST"])
def match_resign(request: HttpRequest, pk: int) -> HttpResponse:
    if request.method == "GET":
        match = get_object_or_404(Match, pk=pk)
        seat = selectors.viewer_seat(match, request.user)
        if seat is None:
            return HttpResponseForbidden("You do not play in this match.")
        return _render(request, "play/resign_confirm.html", {"match": match, "seat": seat})
    result = _or_404(
        services.resign,
        match_id=pk,
        player=request.user,
        source=MoveSource.WEB,
        idempotency_key=f"web-resign:{request.user.pk}",
    )
    return _answered(request, pk, result)


def match_replay(request: HttpRequest, pk: int) -> HttpResponse:
    match = _watchable_match(request, pk)
    if match.status == MatchStatus.OPEN:
        messages.info(request, _("The match has not started; there is nothing to replay yet."))
        return redirect("match_detail", pk=match.pk)
    seq = read_number(request.GET.get("n", ""), high=match.head_seq)
    seq = match.head_seq if seq is None else seq
    frame = pages.replay_frame(match, request.user, seq)
    return _render(
        request,
        "play/replay.html",
        {
            "match": match,
            "frame": frame,
            "steps": range(0, match.head_seq + 1),
            "previous": frame.seq - 1 if frame.seq > 0 else None,
            "next": frame.seq + 1 if frame.seq < frame.head_seq else None,
            "play": request.GET.get("play") == "1" and frame.seq < frame.head_seq,
        },
    )


@login_required
@require_POST
def match_chat(request: HttpRequest, pk: int) -> HttpResponse:
    """A line of table talk: the chat fragment again under htmx, else back to the match."""
    match = get_object_or_404(Match, pk=pk)
    error = ""
    try:
        if not limits.allow("chat", str(request.user.pk), limit=limits.CHAT_MESSAGES_PER_HOUR):
            raise ChatError("You have sent many messages this hour; wait a little.")
        post_message(match=match, user=request.user, text=request.POST.get("text", ""))
    except ChatError as problem:
        error = problem.message
    if getattr(request, "htmx", False):
        can_chat = match.seats.filter(user=request.user).exists()
        context = {
            "match": match,
            "chat_messages": chat_for(match),
            "can_chat": can_chat,
            "chat_error": error,
        }
        return render(request, "games/chat.html", context)
    if error:
        messages.error(request, error)
    return redirect(reverse("match_detail", args=[match.pk]) + "#chat")


@login_required
@require_POST
def match_seat_action(request: HttpRequest, pk: int) -> HttpResponse:
    """Another player offers a seat that timed out to a substitute, or votes to skip it."""
    action = request.POST.get("action")
    seat = read_number(request.POST.get("seat", ""), high=MAX_SEAT)
    if seat is None or action not in ("offer", "skip"):
        messages.error(request, _("Choose a seat and what to do with it."))
        return redirect("match_detail", pk=pk)
    try:
        if action == "offer":
            services.offer_seat(match_id=pk, seat=seat, by=request.user)
            messages.success(request, _("The seat is offered in the lobby to a substitute."))
        elif services.vote_to_skip(match_id=pk, seat=seat, voter=request.user):
            messages.success(request, _("The seat is skipped: the rules' default move plays it."))
        else:
            messages.success(request, _("Your vote is counted; more than half of you must agree."))
    except services.ServiceError as error:
        messages.error(request, _(error.message) if error.message else error.message)
    return redirect("match_detail", pk=pk)


@login_required
@require_POST
def match_take_seat(request: HttpRequest, pk: int) -> HttpResponse:
    seat = read_number(request.POST.get("seat", ""), high=MAX_SEAT)
    try:
        services.take_seat(match_id=pk, seat=-1 if seat is None else seat, user=request.user)
    except services.ServiceError as error:
        messages.error(request, _(error.message) if error.message else error.message)
        return redirect("lobby")
    messages.success(request, _("The seat is yours from now on."))
    return redirect("match_detail", pk=pk)
