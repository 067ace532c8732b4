"""The open API, version 1, described by OpenAPI at /api/v1/openapi.json (docs at /api/v1/docs).

Bearer tokens (made on /account/tokens/) carry one scope each: read, play or bot. A browser
session may use the API too. Every error has one shape, `{"error": {"code", "message"}}`.
Seats are counted from 1, as players read them. Thin: games.services writes, selectors read.
"""

from __future__ import annotations

import math
import time
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.core.handlers.asgi import ASGIRequest
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, StreamingHttpResponse
from ninja import NinjaAPI, Query, Router, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.errors import Throttled as NinjaThrottled
from ninja.security import HttpBearer

from api import schemas, stream
from api.account_events import challenge_out, legal_moves
from api.models import BotSummary, Scope
from api.throttles import (
    NEW_MATCHES_PER_HOUR,
    PER_HOUR,
    PER_MATCH_HOUR,
    PER_MATCH_MINUTE,
    PER_MINUTE,
    REFUSED_MOVES_PER_MINUTE,
    AccountThrottle,
    forget_matches_in_play,
)
from api.tokens import TokenError, grants, is_bot_account, make_bot_account, user_for
from community import selectors as community
from community.access import can_watch
from community.names import public_name
from games import challenges, pages, selectors, services
from games.engine import available_games, get_game
from games.engine.numbers import read_number
from games.models import (
    Challenge,
    ChallengeStatus,
    ChatMessage,
    Match,
    MatchStatus,
    MoveSource,
    Seat,
)

LONG_POLL_MAX = 25  # seconds: under the usual 30 s proxy and gunicorn time-outs
PAGE_SIZE = 25


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class TokenAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str):
        found = user_for(token)
        if found is None:
            return None
        request.user, request.api_token = found
        return request.user


def session_auth(request: HttpRequest):
    """A signed-in browser may call the API; writes still need the CSRF token."""
    if request.user.is_authenticated:
        request.api_token = None
        return request.user
    return None


api = NinjaAPI(
    title="Postal Boards API",
    version="1",
    urls_namespace="api_v1",
    description=__doc__,
    auth=[TokenAuth(), session_auth],
    throttle=[
        AccountThrottle("minute", PER_MINUTE, 60, per_match=PER_MATCH_MINUTE),
        AccountThrottle("hour", PER_HOUR, 3600, per_match=PER_MATCH_HOUR),
    ],
)


def _error(request, status: int, code: str, message: str):
    return api.create_response(
        request, {"error": {"code": code, "message": message}}, status=status
    )


@api.exception_handler(ApiError)
def _api_error(request, exc: ApiError):
    return _error(request, exc.status, exc.code, exc.message)


@api.exception_handler(ValidationError)
def _invalid(request, exc: ValidationError):
    parts = []
    for error in exc.errors[:5]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body", "query"))
        parts.append(f"{where}: {error.get('msg', 'invalid')}" if where else error.get("msg", ""))
    return _error(request, 422, "invalid_request", "; ".join(parts) or "The request is invalid.")


@api.exception_handler(AuthenticationError)
def _unauthenticated(request, exc):
    return _error(request, 401, "unauthenticated", "Send a bearer token or sign in.")


@api.exception_handler(NinjaThrottled)
def _throttled(request, exc):
    response = _error(request, 429, "rate_limited", "Too many requests; slow down and retry.")
    if exc.wait is not None:  # ninja sets it again for its own checks; a view's is set here
        response["Retry-After"] = str(math.ceil(exc.wait))
    return response


@api.exception_handler(Http404)
def _not_found(request, exc):
    return _error(request, 404, "not_found", "No such thing here.")


@api.exception_handler(HttpError)
def _http_error(request, exc: HttpError):
    return _error(request, exc.status_code, "error", str(exc))


ERRORS = {
    400: schemas.ErrorOut,
    401: schemas.ErrorOut,
    403: schemas.ErrorOut,
    404: schemas.ErrorOut,
    409: schemas.ErrorOut,
    422: schemas.ErrorOut,
    429: schemas.ErrorOut,
    501: schemas.ErrorOut,
}


def _need(request: HttpRequest, scope: str) -> None:
    token = getattr(request, "api_token", None)
    if not grants(token, scope):
        raise ApiError(403, "scope", f"This token's scope does not allow that (needs {scope}).")
    if token is None and scope != Scope.READ:
        from django.middleware.csrf import CsrfViewMiddleware

        if CsrfViewMiddleware(lambda r: None).process_view(request, None, (), {}) is not None:
            raise ApiError(403, "csrf", "Send the CSRF token with a session, or use a token.")


def _visible_match(request: HttpRequest, match_id: int) -> Match:
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not can_watch(match, request.auth):
        raise ApiError(404, "not_found", "No such match.")
    return match


def _seat_out(seat: Seat) -> dict[str, Any]:
    name = seat.display_name or (public_name(seat.user) if seat.user_id else "Open seat")
    return {"seat": seat.number + 1, "name": name, "bot": seat.is_bot or _bot_account(seat)}


def _bot_account(seat: Seat) -> bool:
    """Whether a person's seat is held by a bot account (a program playing through the API)."""
    if seat.user_id is None:
        return False
    try:
        return seat.user.bot_account is not None
    except ObjectDoesNotExist:
        return False


def _summary(match: Match, user) -> dict[str, Any]:
    seats = sorted(match.seats.all(), key=lambda s: s.number)
    mine = next((s for s in seats if user is not None and s.user_id == user.pk), None)
    your_turn = bool(
        mine is not None
        and match.status == MatchStatus.ACTIVE
        and mine.number in match.to_act
        and mine.deadline_at is not None  # an asked seat; a forced one waits unasked
        and not mine.resigned
    )
    return {
        "id": match.pk,
        "game": match.game_slug,
        "title": match.game_title,
        "status": match.status,
        "seq": match.head_seq,
        "your_seat": mine.number + 1 if mine else None,
        "your_turn": your_turn,
        "prompt": match.prompt if your_turn else "",
        "deadline_at": mine.deadline_at if your_turn else None,
        "players": [_seat_out(s) for s in seats],
        "rated": match.rated,
        "watchable": match.watchable,
    }


# --- who am I, what games ------------------------------------------------------------------

account = Router(tags=["account"])


@account.post("/me/bot", response={200: schemas.MeOut, **ERRORS})
def become_bot(request):
    """Turn this account into a bot account, for good (as on lichess): its seats say "(bot)"
    everywhere and its matches are never rated. Refused for an account that has sat at a
    table: make a new account for your bot."""
    _need(request, Scope.PLAY)
    try:
        make_bot_account(user=request.auth, note="by the API")
    except TokenError as error:
        raise ApiError(409, "refused", error.message) from None
    return me(request)


@account.get("/me", response={200: schemas.MeOut, **ERRORS})
def me(request):
    token = getattr(request, "api_token", None)
    return {
        "id": request.auth.pk,
        "name": public_name(request.auth),
        "bot": is_bot_account(request.auth),
        "scope": token.scope if token else None,
    }


@account.put("/me/summary", response={200: schemas.SummaryOut, **ERRORS})
def daily_summary(request, body: schemas.SummaryIn):
    """A bot account's owner asks for one email a day about the bot's matches (started,
    finished with its place, turns left waiting over an hour), sent to the bot account's own
    address; `daily: false` stops it. A bot account gets no other mail."""
    _need(request, Scope.PLAY)
    if not is_bot_account(request.auth):
        raise ApiError(409, "refused", "Only a bot account has a daily summary.")
    BotSummary.objects.update_or_create(bot=request.auth, defaults={"daily": body.daily})
    return {"daily": body.daily}


@account.get("/games", response={200: list[schemas.GameOut], **ERRORS})
def games(request):
    return [
        {
            "slug": g.slug,
            "title": g.title,
            "min_players": g.min_players,
            "max_players": g.max_players,
            "version": g.version,
            "options": [
                {
                    "key": o.key,
                    "label": o.label,
                    "default": o.default,
                    "choices": list(o.choices),
                    "player_counts": list(o.player_counts),
                }
                for o in g.options
            ],
        }
        for g in available_games()
    ]


# --- matches -------------------------------------------------------------------------------

matches = Router(tags=["matches"])


@matches.get("/matches", response={200: schemas.MatchPage, **ERRORS})
def my_matches(request, page: int = Query(1, ge=1, le=100000), active: bool = False):
    """Your matches, newest first; `active=true` for those in play only."""
    rows = Match.objects.filter(seats__user=request.auth).order_by("-created_at", "-pk")
    if active:
        rows = rows.filter(status=MatchStatus.ACTIVE)
    paged = Paginator(rows.prefetch_related("seats__user__bot_account"), PAGE_SIZE).get_page(page)
    return {
        "items": [_summary(m, request.auth) for m in paged.object_list],
        "page": paged.number,
        "pages": paged.paginator.num_pages,
    }


@matches.get("/turns", response={200: schemas.TurnsOut, **ERRORS})
def turns(request, wait: int = Query(0, ge=0, le=LONG_POLL_MAX)):
    """The matches where you are asked to decide now. With `wait`, the answer waits up to
    that many seconds for one to appear (long-poll), so a client need not poll hard."""
    started = time.monotonic()
    while True:
        asked = (
            Match.objects.filter(
                status=MatchStatus.ACTIVE,
                seats__user=request.auth,
                seats__deadline_at__isnull=False,
                seats__resigned=False,
            )
            .order_by("pk")
            .prefetch_related("seats__user__bot_account")[:PAGE_SIZE]
        )
        found = [s for s in (_summary(m, request.auth) for m in asked) if s["your_turn"]]
        waited = time.monotonic() - started
        if found or waited >= wait:
            return {"matches": found, "waited": round(waited, 3)}
        time.sleep(min(1.0, wait - waited))


STREAM_DOC = {
    "responses": {
        200: {
            "description": "One event a line (NDJSON), or Server-Sent Events",
            "content": {
                stream.NDJSON: {
                    "schema": {
                        "type": "object",
                        "description": "An event (every line but the first, `hello`, has an id)",
                        "properties": {
                            "type": {"type": "string"},
                            "id": {"type": "integer"},
                            "match": {"type": ["integer", "null"]},
                        },
                        "required": ["type"],
                    }
                },
                stream.SSE: {
                    "schema": {
                        "type": "object",
                        "description": "A Server-Sent Event: `data` is the NDJSON line's object",
                        "properties": {
                            "event": {"type": "string"},
                            "data": {"type": "string"},
                            "id": {"type": "string"},
                        },
                        "required": ["event", "data"],
                    }
                },
            },
        }
    },
    "parameters": [
        {
            "in": "header",
            "name": "Last-Event-ID",
            "required": False,
            "schema": {"type": "string"},
            "description": "The id of the last event you received (as `since`).",
        }
    ],
}


def _stream_may_be_held(request) -> None:
    """Refused at once, with the alternative, where a stream would hold a whole worker."""
    if not isinstance(request, ASGIRequest) and stream.holds_a_worker(request.META):
        raise ApiError(501, "streams_unavailable", stream.SYNC_WORKERS)


@matches.get("/stream", response=ERRORS, openapi_extra=STREAM_DOC)
def event_stream(
    request,
    since: int | None = Query(None, ge=0, le=2**53),
    hold: int = Query(stream.MAX_HOLD_SECONDS, ge=0, le=stream.MAX_HOLD_SECONDS),
    format: str | None = Query(None, pattern="^(ndjson|sse)$"),  # noqa: A002
):
    """Your events, as they happen, one JSON object a line (or Server-Sent Events with
    `format=sse` or `Accept: text/event-stream`): `turn` (match, seq, prompt, legal moves),
    `match_started`, `chat`, `takeback`, `invitation`, `match_over`. Each has an `id`,
    numbered 1, 2, 3... for your account; `since` (or `Last-Event-ID`) resumes after the one
    you saw last, losing none. Without either the stream starts now. Its first line,
    `hello`, says the newest id (`last_event_id`) and the one the events follow (`after`).
    Held open `hold` seconds (an hour at most), then closed: connect again with your last
    id. A blank line (`: keep-alive`) every 15 s while quiet."""
    _stream_may_be_held(request)
    resume = request.headers.get("Last-Event-ID", "").strip()
    if resume:
        since = read_number(resume)
        if since is None:
            raise ApiError(422, "invalid_request", "Last-Event-ID: send an event's id.")
    newest, connection = stream.connect(request.auth.pk)
    after = newest if since is None else min(since, newest)
    wanted = format or ("sse" if stream.SSE in request.headers.get("Accept", "") else "ndjson")
    fmt = stream.SSE if wanted == "sse" else stream.NDJSON
    if isinstance(request, ASGIRequest):
        lines = stream.async_stream(request.auth.pk, after, hold, fmt, newest, connection)
    else:
        lines = stream.sync_stream(request.auth.pk, after, hold, fmt, newest, connection)
    response = StreamingHttpResponse(lines, content_type=fmt)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return response


MATCH_STREAM_DOC = {
    "responses": STREAM_DOC["responses"],
    "parameters": STREAM_DOC["parameters"],
}


@matches.get("/matches/{match_id}/stream", response=ERRORS, openapi_extra=MATCH_STREAM_DOC)
def match_stream(
    request,
    match_id: int,
    since: int | None = Query(None, ge=0, le=2**53),
    legal: bool = False,
    hold: int = Query(stream.MAX_HOLD_SECONDS, ge=0, le=stream.MAX_HOLD_SECONDS),
    format: str | None = Query(None, pattern="^(ndjson|sse)$"),  # noqa: A002
):
    """One match as your seat sees it (a watcher: as anyone may), as it is played. First
    `full`: the match's summary, your seat's view, the board as text, the recent history,
    your legal moves (with `legal=true`, when you are asked) and `seq`, the position's
    number. Then one `move` event a log entry, moves the server plays for a seat (timeouts,
    forced moves, bots) and takebacks included, narrated for your seat: its `id` is the
    entry's seq; the newest also carries `state` (summary, view, board, legal moves as in
    `full`). `since` (or `Last-Event-ID`) resumes after the entry you saw last: the entries
    you missed follow `full`. When the match is over the last event says so (`last: true`,
    with `state`) and the stream closes. Held `hold` seconds at most, like /stream."""
    _stream_may_be_held(request)
    match = _visible_match(request, match_id)
    resume = request.headers.get("Last-Event-ID", "").strip()
    if resume:
        since = read_number(resume)
        if since is None:
            raise ApiError(422, "invalid_request", "Last-Event-ID: send an event's id.")
    seat = selectors.viewer_seat(match, request.auth)
    viewer = seat.number if seat else None
    head = match.head_seq
    after = head if since is None else min(since, head)
    full = {
        "seq": head,
        **_match_state(match, request.auth, viewer, legal),
        "history": _history(match, viewer) if match.status != MatchStatus.OPEN else [],
    }
    wanted = format or ("sse" if stream.SSE in request.headers.get("Accept", "") else "ndjson")
    fmt = stream.SSE if wanted == "sse" else stream.NDJSON
    first = stream.full_line(fmt, full)
    read = MatchReader(match.pk, request.auth, viewer, legal)
    if match.is_over and after == head:
        lines = iter([first])  # nothing more will happen
    elif isinstance(request, ASGIRequest):
        lines = stream.async_lines(first, read, after, hold, fmt, match.pk, "match")
    else:
        lines = stream.sync_lines(first, read, after, hold, fmt)
    response = StreamingHttpResponse(lines, content_type=fmt)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


class MatchReader:
    """What a match's stream reads each time: the chat posted since its last read (not part
    of the log: chat events have no id; what came before the connection is on GET
    /matches/{id}/chat), then the log entries after the cursor (`_match_events`)."""

    def __init__(self, match_id: int, user, viewer: int | None, legal: bool):
        self.match_id, self.user, self.viewer, self.legal = match_id, user, viewer, legal
        newest = ChatMessage.objects.filter(match_id=match_id).order_by("-pk").first()
        self.chat_after = newest.pk if newest else 0

    def __call__(self, after: int) -> list[dict[str, Any]]:
        posted = list(
            ChatMessage.objects.filter(match_id=self.match_id, pk__gt=self.chat_after).order_by(
                "pk"
            )[: stream.BATCH]
        )
        said = []
        if posted:
            self.chat_after = posted[-1].pk
            names = selectors.seat_names(Match.objects.get(pk=self.match_id))
            said = [
                {
                    "type": "chat",
                    "seat": m.seat + 1,
                    "author": names[m.seat] if m.seat < len(names) else "?",
                    "text": m.text,
                    "at": m.created_at,
                }
                for m in posted
            ]
        return said + _match_events(self.match_id, self.user, self.viewer, self.legal, after)


def _match_state(match: Match, user, viewer: int | None, legal: bool) -> dict[str, Any]:
    """What the seat `viewer` (None: a watcher) may know of the match now."""
    summary = _summary(match, user)
    out = {
        "match": summary,
        "result": match.result,
        "seed": match.seed if match.is_over else None,
        "view": None,
        "board_text": "",
        "legal": None,
    }
    if match.status != MatchStatus.OPEN:
        game = match.game
        position = selectors.load_state(match)
        out["view"] = game.view(position, viewer)
        out["board_text"] = game.render_text(out["view"])
        if legal and viewer is not None and summary["your_turn"]:
            out["legal"] = legal_moves(game, position, viewer)
    return out


def _match_events(match_id: int, user, viewer: int | None, legal: bool, after: int) -> list:
    """The match's log entries after `after` (a batch at most), narrated for `viewer`; the
    newest, when it is the head, with the state after it, and `last` when the match is over."""
    match = Match.objects.prefetch_related("seats__user__bot_account").get(pk=match_id)
    head = match.head_seq
    if head <= after:
        if not match.is_over:
            return []
        # Over without a move of its own (abandoned): the end, without an id of its own.
        return [{"type": "over", "last": True, "state": _match_state(match, user, viewer, legal)}]
    upto = min(head, after + stream.BATCH)
    events = [
        {
            "id": e["seq"],
            "type": "move",
            "seat": None if e["seat"] is None else e["seat"] + 1,
            "text": e["text"],
            "at": e["created_at"],
        }
        for e in selectors.history(match, viewer, since=after, upto=upto)
    ]
    if events and upto == head:
        events[-1]["state"] = _match_state(match, user, viewer, legal)
        if match.is_over:
            events[-1]["last"] = True
    return events


@matches.post(
    "/matches",
    response={201: schemas.MatchSummary, **ERRORS},
    throttle=[
        AccountThrottle("minute", PER_MINUTE, 60, per_match=PER_MATCH_MINUTE),
        AccountThrottle("hour", PER_HOUR, 3600, per_match=PER_MATCH_HOUR),
        AccountThrottle("new-match", NEW_MATCHES_PER_HOUR, 3600),
    ],
)
def create(request, body: schemas.CreateIn):
    """Make a match of `game` for `players` seats: you take the first, `bots` are the site's
    bots, `invite_emails` are kept for those addresses (each is mailed an invitation), the
    rest are open to anyone who joins (`GET /matches/open` lists them). It starts when no
    seat is left open; against bots alone, at once."""
    _need(request, Scope.PLAY)
    try:
        match = services.create_match(
            creator=request.auth,
            game_slug=body.game,
            players=body.players,
            bots=body.bots,
            options=body.options,
            invite_emails=body.invite_emails,
            days_per_move=body.days_per_move,
            rated=body.rated,
            watchable=body.watchable,
            takebacks=body.takebacks,
        )
    except services.ServiceError as error:
        raise ApiError(400, "refused", error.message) from None
    forget_matches_in_play(request.auth.pk)
    return Status(201, _summary(match, request.auth))


@matches.post("/matches/{match_id}/join", response={200: schemas.MatchSummary, **ERRORS})
def join(request, match_id: int):
    """Take the seat kept for your (verified) address in an open match, or else an open
    seat; the match starts when none is left."""
    _need(request, Scope.PLAY)
    match = _visible_match(request, match_id)
    try:
        services.join_match(match_id=match.pk, user=request.auth)
    except services.ServiceError as error:
        raise ApiError(409, "refused", error.message) from None
    forget_matches_in_play(request.auth.pk)
    match.refresh_from_db()
    return _summary(match, request.auth)


@matches.post(
    "/challenges",
    response={201: schemas.ChallengeOut, **ERRORS},
    throttle=[
        AccountThrottle("minute", PER_MINUTE, 60, per_match=PER_MATCH_MINUTE),
        AccountThrottle("hour", PER_HOUR, 3600, per_match=PER_MATCH_HOUR),
        AccountThrottle("new-match", NEW_MATCHES_PER_HOUR, 3600),
    ],
)
def challenge(request, body: schemas.ChallengeIn):
    """Challenge a player by name (their public name, or '#' and their account's number) to
    a match of `game` for `players` (the seats beyond two are the site's bots), with its
    options and days per move. They get a `challenge` event; you get `challenge_accepted`
    (with the match) or `challenge_declined`."""
    _need(request, Scope.PLAY)
    try:
        made = challenges.make(
            challenger=request.auth,
            player=body.player,
            game_slug=body.game,
            players=body.players,
            options=body.options,
            days_per_move=body.days_per_move,
            rated=body.rated,
        )
    except services.ServiceError as error:
        raise ApiError(409, "refused", error.message) from None
    return Status(201, challenge_out(made))


@matches.get("/challenges", response={200: schemas.ChallengesOut, **ERRORS})
def challenges_waiting(request):
    """The open challenges you received and made, oldest first."""
    mine = Challenge.objects.filter(status=ChallengeStatus.OPEN).select_related(
        "challenger", "challenged"
    )
    return {
        "received": [challenge_out(c) for c in mine.filter(challenged=request.auth).order_by("pk")],
        "made": [challenge_out(c) for c in mine.filter(challenger=request.auth).order_by("pk")],
    }


@matches.post("/challenges/{challenge_id}/accept", response={200: schemas.MatchSummary, **ERRORS})
def challenge_accept(request, challenge_id: int):
    """Accept a challenge made to you: the match is made with both of you seated and starts."""
    _need(request, Scope.PLAY)
    try:
        match = challenges.accept(challenge_id=challenge_id, user=request.auth)
    except services.ServiceError as error:
        raise ApiError(409, "refused", error.message) from None
    forget_matches_in_play(request.auth.pk)
    return _summary(match, request.auth)


@matches.post("/challenges/{challenge_id}/decline", response={200: schemas.ChallengeOut, **ERRORS})
def challenge_decline(request, challenge_id: int, body: schemas.DeclineIn | None = None):
    """Decline a challenge made to you, with a reason if you like."""
    _need(request, Scope.PLAY)
    reason = body.reason if body else ""
    try:
        done = challenges.decline(challenge_id=challenge_id, user=request.auth, reason=reason)
    except services.ServiceError as error:
        raise ApiError(409, "refused", error.message) from None
    return challenge_out(done)


@matches.post("/challenges/{challenge_id}/cancel", response={200: schemas.ChallengeOut, **ERRORS})
def challenge_cancel(request, challenge_id: int):
    """Withdraw a challenge you made, while it is open."""
    _need(request, Scope.PLAY)
    try:
        done = challenges.cancel(challenge_id=challenge_id, user=request.auth)
    except services.ServiceError as error:
        raise ApiError(409, "refused", error.message) from None
    return challenge_out(done)


@matches.get("/matches/open", response={200: schemas.OpenMatchesOut, **ERRORS})
def open_matches(request, before: int | None = Query(None, ge=1, le=2**53)):
    """Matches waiting for players that you may join (an open seat, or one your address is
    invited to), newest first, 25 at a time: pass `next` as `before` for the following page.
    Join one with `POST /matches/{id}/join`."""
    found, following = pages.open_matches(request.auth, before)
    found = Match.objects.filter(pk__in=[m.pk for m in found]).prefetch_related(
        "seats__user__bot_account"
    )
    listed = sorted((_summary(m, request.auth) for m in found), key=lambda m: -m["id"])
    return {"matches": listed, "next": following}


@matches.post("/matches/{match_id}/abort", response={200: schemas.MatchSummary, **ERRORS})
def abort(request, match_id: int):
    """Call a match off before anyone has played a move of their own: it is abandoned,
    unrated, and nobody loses. After a move, resign instead."""
    _need(request, Scope.PLAY)
    match = _visible_match(request, match_id)
    try:
        services.abort_match(match_id=match.pk, user=request.auth)
    except services.ServiceError as error:
        raise ApiError(409, "refused", error.message) from None
    match.refresh_from_db()
    return _summary(match, request.auth)


@matches.post("/matches/{match_id}/decline", response={200: schemas.MatchSummary, **ERRORS})
def decline(request, match_id: int):
    """Say no to an invitation (a seat kept for your address, the `invitation` event): the
    match, still waiting for its players, is called off and its players are told."""
    _need(request, Scope.PLAY)
    try:
        services.decline_invitation(match_id=match_id, user=request.auth)
    except Match.DoesNotExist:
        raise ApiError(404, "not_found", "No such match.") from None
    except services.ServiceError as error:
        raise ApiError(409, "refused", error.message) from None
    return _summary(Match.objects.get(pk=match_id), request.auth)


@matches.get("/matches/{match_id}", response={200: schemas.MatchView, **ERRORS})
def match_view(request, match_id: int):
    """The match as your seat sees it (a watcher: the public view)."""
    match = _visible_match(request, match_id)
    seat = selectors.viewer_seat(match, request.auth)
    viewer = seat.number if seat else None
    data = {
        "match": _summary(match, request.auth),
        "seed_commitment": match.seed_commitment,
        "seed": match.seed if match.is_over else None,
        "result": match.result,
        "view": None,
        "board_text": "",
        "history": [],
    }
    if match.status != MatchStatus.OPEN:
        game = match.game
        view = game.view(selectors.load_state(match), viewer)
        data["view"] = view
        data["board_text"] = game.render_text(view)
        data["history"] = _history(match, viewer)
    return data


def _history(match: Match, viewer: int | None, since: int | None = None) -> list[dict]:
    entries = (
        selectors.recent_history(match, viewer)
        if since is None
        else selectors.history(match, viewer, since=since, upto=min(match.head_seq, since + 200))
    )
    return [
        {
            "seq": e["seq"],
            "seat": None if e["seat"] is None else e["seat"] + 1,
            "text": e["text"],
            "at": e["created_at"],
        }
        for e in entries
    ]


@matches.get("/matches/{match_id}/history", response={200: list[schemas.HistoryEntry], **ERRORS})
def history(request, match_id: int, since: int = Query(0, ge=0)):
    """The log narrated for your seat, 200 entries at most after `since`."""
    match = _visible_match(request, match_id)
    seat = selectors.viewer_seat(match, request.auth)
    since = min(since, match.head_seq)
    return _history(match, seat.number if seat else None, since=since)


@matches.get("/matches/{match_id}/legal", response={200: list[schemas.LegalMove], **ERRORS})
def legal(request, match_id: int):
    """Every legal move of your current decision (empty when you are not asked)."""
    match = _visible_match(request, match_id)
    seat = selectors.viewer_seat(match, request.auth)
    summary = _summary(match, request.auth)
    if seat is None or not summary["your_turn"]:
        return []
    return legal_moves(match.game, selectors.load_state(match), seat.number)


@matches.post("/matches/{match_id}/moves", response={200: schemas.MoveOut, **ERRORS}, throttle=[])
def play(request, match_id: int, body: schemas.MoveIn):
    """Play a move, as a text command or as JSON from the legal list. `seq` refuses the move
    if the match moved on since you looked; `idempotency_key` makes a retry safe (the same
    key with another move is refused with 409)."""
    _need(request, Scope.PLAY)
    if any(budget.spent(request) for budget in MOVE_BUDGET):
        raise NinjaThrottled(wait=max(budget.wait() for budget in MOVE_BUDGET))
    if (body.command is None) == (body.move is None):
        _charge(request)
        raise ApiError(400, "bad_move", "Send either a command or a move.")
    key = f"api:{request.auth.pk}:{body.idempotency_key}" if body.idempotency_key else None
    try:
        result = _served(
            request,
            match_id,
            services.submit_move,
            command=body.command,
            move=body.move,
            source=MoveSource.API,
            idempotency_key=key,
            seen_seq=body.seq,
        )
    except ApiError:
        _charge(request)  # a refused move counts against the budget; one asked for does not
        raise
    if result.duplicate:
        _charge(request)
    return _moved(result, body.command or "")


# A move the player was asked for is never refused for speed, whatever else they asked for
# (the game paces moves: each needs a decision of theirs). Refused and repeated moves have a
# budget of their own, looked at before the move and charged after it.
MOVE_BUDGET = [AccountThrottle("refused-moves", REFUSED_MOVES_PER_MINUTE, 60)]


def _charge(request) -> None:
    for budget in MOVE_BUDGET:
        budget.allow_request(request)


@matches.post("/matches/{match_id}/takeback", response={200: schemas.MoveOut, **ERRORS})
def takeback(request, match_id: int, idempotency_key: str | None = Query(None, max_length=200)):
    """Take back your last decision, where the match allows it (docs/takebacks.md)."""
    return _seat_request(request, match_id, services.take_back, "api-undo", idempotency_key)


@matches.post("/matches/{match_id}/resign", response={200: schemas.MoveOut, **ERRORS})
def resign(request, match_id: int, idempotency_key: str | None = Query(None, max_length=200)):
    """Resign: leave the match; a bot plays your seat on to the end (as on the match page
    and by mail). Repeated under one `idempotency_key`, it is answered as the first was."""
    return _seat_request(request, match_id, services.resign, "api-resign", idempotency_key)


def _seat_request(request, match_id: int, service, kind: str, idempotency_key: str | None):
    """A request about the asker's own seat (a takeback, a resignation) under its key."""
    _need(request, Scope.PLAY)
    key = f"{kind}:{request.auth.pk}:{idempotency_key}" if idempotency_key else None
    result = _served(request, match_id, service, source=MoveSource.API, idempotency_key=key)
    return _moved(result)


# How each refusal of the service is answered: (HTTP status, error code).
REFUSALS = {
    services.Outcome.KEY_REUSED: (409, "key_reused"),
    services.Outcome.MOVED_ON: (409, "moved_on"),
    services.Outcome.NOT_YOUR_TURN: (409, "not_your_turn"),
    services.Outcome.NOT_IN_PLAY: (409, "not_in_play"),
    services.Outcome.NOT_A_PLAYER: (403, "not_a_player"),
    services.Outcome.ILLEGAL: (400, "illegal"),
    services.Outcome.REFUSED: (409, "refused"),
}


def _served(request, match_id: int, service, **arguments) -> services.MoveResult:
    """Call the service for the asking player; a refusal becomes the API's error."""
    try:
        result = service(match_id=match_id, player=request.auth, **arguments)
    except Match.DoesNotExist:
        raise ApiError(404, "not_found", "No such match.") from None
    if result.ok:
        return result
    if result.outcome == services.Outcome.NOT_A_PLAYER:
        _visible_match(request, match_id)  # a match the asker may not see is not found
    status, code = REFUSALS[result.outcome]
    raise ApiError(status, code, result.headline())


def _moved(result: services.MoveResult, command: str = "") -> dict:
    """The answer to an applied (or repeated) request, from what the service left in memory:
    the match's projections and the player's seat as the transaction wrote them."""
    match, seat = result.match, result.seat
    your_turn = bool(
        seat is not None
        and match.status == MatchStatus.ACTIVE
        and seat.number in match.to_act
        and seat.deadline_at is not None
        and not seat.resigned
    )
    return {
        "message": result.headline(command),
        "duplicate": result.duplicate,
        "seq": match.head_seq,
        "status": match.status,
        "your_turn": your_turn,
    }


@matches.get("/matches/{match_id}/chat", response={200: list[schemas.ChatEntry], **ERRORS})
def chat(request, match_id: int):
    from games.chat import chat_for

    match = _visible_match(request, match_id)
    return [
        {
            "author": m["author"],
            "seat": None if m["seat"] is None else m["seat"] + 1,
            "text": m["text"],
            "at": m["created_at"],
        }
        for m in chat_for(match)
    ]


@matches.post("/matches/{match_id}/chat", response={201: schemas.ChatEntry, **ERRORS})
def say(request, match_id: int, body: schemas.ChatIn):
    from games.chat import ChatError, post_message

    _need(request, Scope.PLAY)
    match = _visible_match(request, match_id)
    try:
        message = post_message(match=match, user=request.auth, text=body.text, source="api")
    except ChatError as error:
        raise ApiError(400, "refused", error.message) from None
    seat = match.seats.get(number=message.seat)
    return Status(
        201,
        {
            "author": _seat_out(seat)["name"],
            "seat": message.seat + 1,
            "text": message.text,
            "at": message.created_at,
        },
    )


# --- archive and ratings -------------------------------------------------------------------

public = Router(tags=["archive and ratings"])


@public.get("/archive", response={200: schemas.ArchivePage, **ERRORS})
def archive(request, filters: Query[schemas.ArchiveFilter]):
    """Finished matches, newest first; each replays at /matches/{id}/replay/ on the site.
    Page on with `cursor` (each answer's `next`); `page` numbers are kept for clients that
    count pages."""
    chosen = community.ArchiveFilters(
        game=filters.game,
        player=filters.player,
        finished_from=filters.finished_from,
        finished_to=filters.finished_to,
    )
    if filters.cursor:
        page = community.archive(chosen, older_than=filters.cursor)
    else:
        page = community.archive(chosen, page=filters.page)
    return {
        "items": [
            {
                "id": m.pk,
                "game": m.game_slug,
                "title": m.game_title,
                "finished_at": m.finished_at,
                "rated": m.rated,
                "placings": m.placings,
            }
            for m in page.matches
        ],
        "next": page.older,
        "page": page.number,
        "pages": page.pages,
    }


@public.get("/ratings/{game}", response={200: schemas.RatingPage, **ERRORS})
def ratings(request, game: str, page: int = Query(1, ge=1, le=100000)):
    try:
        slug = get_game(game).slug
    except KeyError:
        raise ApiError(404, "not_found", "No such game.") from None
    board = community.leaderboard(slug, page)
    return {
        "game": slug,
        "items": [
            {
                "place": r.place,
                "player": r.name,
                "profile": r.user_id if r.linked else None,
                "rating": r.ordinal,
                "mu": r.mu,
                "sigma": r.sigma,
                "matches": r.matches,
            }
            for r in board.object_list
        ],
        "page": board.number,
        "pages": board.paginator.num_pages,
    }


api.add_router("/", account)
api.add_router("/", matches)
api.add_router("/", public)
