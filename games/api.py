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


class _Claim:
    """Who is asking to move, checked against the seats `submit_move` reads under the match
    lock, so the asker and their seat cost no query of their own: a bearer token's user (its
    signature checked against the seat's player as read there) or the session's user."""

    def __init__(self, request: HttpRequest):
        header = request.headers.get("Authorization", "")
        bearer = header.startswith("Bearer ")
        self.token = header.removeprefix("Bearer ").strip() if bearer else None
        self.user_pk = None
        if self.token is None:
            self.user = request.user if request.user.is_authenticated else None
            self.user_pk = self.user.pk if self.user else None
        else:
            self.user = None
            # Only the user id the token names (no user is fetched, nothing is trusted yet).
            parse_token(self.token, self._note_pk, scope=API_SCOPE)
        self.seat: int | None = None

    def _note_pk(self, user_pk):
        self.user_pk = user_pk

    def __call__(self, seats: list[Seat]) -> int | None:
        """The asker's first seat among `seats`, if the token is good for its player."""
        seat = next((s for s in seats if self.user_pk and s.user_id == self.user_pk), None)
        if seat is not None and self.token is not None:
            player = seat.user if seat.user.is_active else None
            self.user = parse_token(self.token, lambda pk: player, scope=API_SCOPE)
        if seat is None or self.user is None:
            return None
        self.seat = seat.number
        return seat.number

    def checked_user(self):
        """The asker, read on their own: for answers that do not come from a seat."""
        if self.token is None:
            return self.user

        def active(user_pk):
            user = get_user_model()._default_manager.filter(pk=user_pk).first()
            return user if user is not None and user.is_active else None

        return parse_token(self.token, active, scope=API_SCOPE)


@csrf_exempt
@require_POST
def match_move(request: HttpRequest, pk: int) -> JsonResponse:
    claim = _Claim(request)
    if claim.token is None:
        rejected = CsrfViewMiddleware(lambda r: None).process_view(request, None, (), {})
        if rejected is not None:
            return _error(403, "CSRF check failed; send the CSRF token or an API token.")
    if claim.user_pk is None:
        return _error(401, "Sign in, or send an API token.")
    try:
        body = json.loads(request.body or b"{}")
        command = str(body["command"])
        expected = body.get("seq")
        expected = None if expected is None else int(expected)
        key = body.get("idempotency_key")
        key = None if key is None else f"api:{claim.user_pk}:{str(key)[:200]}"
    except (ValueError, KeyError, TypeError):
        return _error(400, 'Send JSON: {"command": "...", "seq": N, "idempotency_key": "..."}.')
    # Who is asking is settled under the lock, from the seats it reads; a repeated
    # idempotency key is answered by its unique index, or looked up when the move is refused.
    try:
        result = services.submit_move(
            match_id=pk,
            seat=claim,
            command=command,
            source=MoveSource.API,
            idempotency_key=key,
            expected_seq=expected,
        )
    except Match.DoesNotExist:
        if claim.checked_user() is None:
            return _error(401, "Sign in, or send an API token.")
        return _error(404, "No such match.")
    if result.message == services.NOT_A_PLAYER:
        if claim.checked_user() is None:
            return _error(401, "Sign in, or send an API token.")
        return _error(403, result.message)
    if not result.ok:
        return _error(409 if result.message in services.CONFLICTS else 400, result.message)
    if result.duplicate and not _same_move(result.match, result.applied[0], claim.seat, command):
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
