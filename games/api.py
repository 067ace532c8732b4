"""A small JSON API: a player's view of a match, and moves.

Reads accept the session. Writes accept the session (with its CSRF token) or a bearer
token from `api_token(user)` (a django-sesame token scoped to the API), for scripts and
bots of players' own.
"""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.http import HttpRequest, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import get_object_or_404
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST
from sesame.tokens import parse_token
from sesame.utils import get_token, get_user

from community.access import can_watch
from games import selectors, services
from games.commands import interpret, menu
from games.engine import IllegalMove
from games.models import Match, Move, MoveSource, Seat
from games.rows import seats_with_people

API_SCOPE = "api"


def api_token(user) -> str:
    return get_token(user, scope=API_SCOPE)


def _user(request: HttpRequest):
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return get_user(header.removeprefix("Bearer ").strip(), scope=API_SCOPE)
    return request.user if request.user.is_authenticated else None


def _error(status: int, message: str) -> JsonResponse:
    return JsonResponse({"ok": False, "error": message}, status=status)


def match_json(match: Match, seat: int | None) -> dict:
    """Everything `seat` (None: a spectator) may know about the match, as JSON."""
    game = match.game
    data = {
        "match": match.pk,
        "game": match.game_slug,
        "title": game.title,
        "status": match.status,
        "seq": match.head_seq,
        "to_act": match.to_act,
        "prompt": match.prompt,
        "your_seat": seat,
        "players": selectors.seat_names(match),
        "seed_commitment": match.seed_commitment,
        "seed": match.seed if match.is_over else None,
        "result": match.result,
    }
    if match.status == "open":
        return data
    state = selectors.load_state(match)
    view = game.view(state, seat)
    data["view"] = view
    data["board_text"] = game.render_text(view)
    data["legal"] = []
    if seat is not None and seat in match.to_act:
        entries = menu(game, state, seat)
        data["legal"] = [{"number": e.number, "command": e.command} for e in entries]
    data["history"] = [
        {"seq": h["seq"], "seat": h["seat"], "text": h["text"], "source": h["source"]}
        for h in selectors.history(match, seat)
    ]
    return data


@require_GET
def match_detail(request: HttpRequest, pk: int) -> JsonResponse:
    user = _user(request)
    if user is None:
        return _error(401, "Sign in, or send an API token.")
    match = get_object_or_404(Match, pk=pk)
    if not can_watch(match, user):
        return _error(404, "No such match.")
    seat = selectors.viewer_seat(match, user)
    return JsonResponse(match_json(match, seat.number if seat else None))


def _player_and_seat(request: HttpRequest, pk: int) -> tuple[object | None, Seat | None]:
    """The requesting user and their seat in match `pk` (with the match): a bearer token's
    user and seat are read together in one query."""
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        user = request.user if request.user.is_authenticated else None
        seat = _players_seat(pk, user.pk) if user else None
        return user, seat
    found: dict[str, Seat] = {}

    def user_with_seat(user_pk):
        seat = _players_seat(pk, user_pk)
        if seat is not None:
            found["seat"] = seat
            user = seat.user
        else:
            user = get_user_model()._default_manager.filter(pk=user_pk).first()
        return user if user is not None and user.is_active else None

    user = parse_token(header.removeprefix("Bearer ").strip(), user_with_seat, scope=API_SCOPE)
    return user, found.get("seat") if user is not None else None


def _players_seat(pk: int, user_pk: int) -> Seat | None:
    """The player's first seat in match `pk`, with the match and the player."""
    seats = seats_with_people(pk, user_id=user_pk)
    return seats[0] if seats else None


@csrf_exempt
@require_POST
def match_move(request: HttpRequest, pk: int) -> JsonResponse:
    bearer = request.headers.get("Authorization", "").startswith("Bearer ")
    if not bearer:
        rejected = CsrfViewMiddleware(lambda r: None).process_view(request, None, (), {})
        if rejected is not None:
            return _error(403, "CSRF check failed; send the CSRF token or an API token.")
    user, seat = _player_and_seat(request, pk)
    if user is None:
        return _error(401, "Sign in, or send an API token.")
    if seat is None:  # the 404/403 split only when there is no seat
        get_object_or_404(Match, pk=pk)
        return _error(403, "You do not play in this match.")
    match = seat.match
    try:
        body = json.loads(request.body or b"{}")
        command = str(body["command"])
        expected = body.get("seq")
        expected = None if expected is None else int(expected)
        key = body.get("idempotency_key")
        key = None if key is None else f"api:{user.pk}:{str(key)[:200]}"
    except (ValueError, KeyError, TypeError):
        return _error(400, 'Send JSON: {"command": "...", "seq": N, "idempotency_key": "..."}.')
    # submit_move answers a repeated idempotency key (its unique index does); here it is
    # looked up only when the request would otherwise be refused (the match moved on since
    # the first attempt), so the usual move costs no extra query. The command is read under
    # the lock, from the position the move is applied to.
    if match.status != "active":
        return _duplicate(match, key, seat.number, command) or _error(
            409, "The match is not in play."
        )
    if seat.number not in match.to_act:
        return _duplicate(match, key, seat.number, command) or _error(409, "It is not your turn.")
    result = services.submit_move(
        match_id=match.pk,
        seat=seat.number,
        command=command,
        source=MoveSource.API,
        idempotency_key=key,
        expected_seq=expected,
    )
    if not result.ok:
        conflict = "moved on" in result.message or result.message == "It is not your turn."
        return _error(409 if conflict else 400, result.message)
    if result.duplicate and not _same_move(result.match, result.applied[0], seat.number, command):
        return _key_reused(result.applied[0])
    return _moved(result.match, result.duplicate)


def _moved(match: Match, duplicate: bool) -> JsonResponse:
    return JsonResponse(
        {
            "ok": True,
            "duplicate": duplicate,
            "seq": match.head_seq,
            "to_act": match.to_act,
            "status": match.status,
        }
    )


def _duplicate(match: Match, key: str | None, seat: int, command: str) -> JsonResponse | None:
    """The answer to a repeated idempotency key, or None if the key is new."""
    first = match.moves.filter(idempotency_key=key).first() if key else None
    if first is None:
        return None
    if not _same_move(match, first, seat, command):
        return _key_reused(first)
    return _moved(match, True)


def _same_move(match: Match, first: Move, seat: int, command: str) -> bool:
    """Whether `command` means the move applied under its key: read against the position
    that move was applied to (only a repeated key costs this replay)."""
    if first.seat != seat:
        return False
    state = selectors.position_after(match, first.seq - 1)
    try:
        return interpret(match.game, state, seat, command) == first.payload
    except (IllegalMove, ValueError, KeyError, IndexError, TypeError):
        return False


def _key_reused(first: Move) -> JsonResponse:
    return _error(
        409,
        f"This idempotency key was already used for another move (move {first.seq}); "
        "nothing was applied. Send a new key with a new move.",
    )
