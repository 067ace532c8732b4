"""Serving an account's event stream (GET /api/v1/stream) without a worker per client.

Under ASGI (gunicorn with uvicorn workers, `config/asgi.py`) the stream is an async
iterator: an idle stream is a coroutine waiting on an `asyncio.Event`, holding no thread and
no database connection. One task per process (`Hub`) asks the database, every
`STREAM_POLL_SECONDS`, for the newest event number of each account that has a stream open
in this process (one indexed query for all of them) and wakes the streams whose number moved.
The database is the only source, so every process sees every event whatever process or
worker wrote it, and nothing depends on Redis.

Database calls run with `sync_to_async(thread_sensitive=False)`, in the event loop's small
shared thread pool: Django's async ORM (and `thread_sensitive=True`) would run them in a
thread of the request's own, one per open stream.

Django runs each ASGI request's sync code (here: the middleware, the token check and the view
that opens the stream) in a thread made for that request, which lives as long as the request,
so every open stream would keep one idle thread. `StreamASGIHandler` serves the stream's path
without that per-request context: its few milliseconds of sync code run on the process's one
shared thread for sync code, and an open stream holds no thread.

Under WSGI (runserver, `manage.py serve`, the test server) the same stream is a plain
iterator that sleeps between reads and holds its thread; it closes after at most
`WSGI_HOLD_SECONDS`, like the /turns long-poll, and the client resumes from its last id.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from functools import partial
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import Max

from api.models import AccountEvent, EventStream
from games.models import Match

log = logging.getLogger(__name__)

BATCH = 100  # events read at a time
HEARTBEAT_SECONDS = 15  # a blank line (a comment in SSE) so proxies and clients see life
MAX_HOLD_SECONDS = 3600  # a client reconnects with its last id after this
WSGI_HOLD_SECONDS = 25  # a WSGI thread is held at most as long as the /turns long-poll

NDJSON = "application/x-ndjson"
SSE = "text/event-stream"


def poll_seconds() -> float:
    return getattr(settings, "STREAM_POLL_SECONDS", 0.25)


STREAM_PATH = "/api/v1/stream"
MATCH_STREAM_PATH = re.compile(r"/api/v1/matches/[0-9]+/stream")


class StreamASGIHandler(ASGIHandler):
    """Django's ASGI handler, but the event stream's requests run outside a per-request
    ThreadSensitiveContext (see the module's docstring); every other request as Django does."""

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and (
            scope["path"] == STREAM_PATH or MATCH_STREAM_PATH.fullmatch(scope["path"])
        ):
            await self.handle(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


# --- reading (plain Django, run in a thread) -----------------------------------------------


def open_stream(user_id: int) -> int:
    """The account's stream, made on its first connection; the number of its newest event."""
    stream, _ = EventStream.objects.get_or_create(user_id=user_id)
    return stream.last_id


def connect(user_id: int) -> tuple[int, int]:
    """A new connection of the account's stream: (the newest event's number, this
    connection's number). Any older connection sees it is no longer the newest and closes."""
    open_stream(user_id)
    with transaction.atomic():
        stream = EventStream.objects.select_for_update().get(user_id=user_id)
        stream.connection += 1
        stream.save(update_fields=["connection"])
    return stream.last_id, stream.connection


REPLACED = {
    "type": "closed",
    "reason": "replaced: another connection of this account opened the stream",
    "last": True,
}


def events_after(user_id: int, after: int, connection: int | None = None) -> list[dict[str, Any]]:
    """The account's events after `after`; for a `connection` another has replaced, the
    closing event instead."""
    if connection is not None:
        newest = EventStream.objects.filter(user_id=user_id).values_list("connection", flat=True)
        if newest.first() != connection:
            return [REPLACED]
    rows = AccountEvent.objects.filter(user_id=user_id, number__gt=after).order_by("number")
    return [
        {"id": e.number, "type": e.kind, "match": e.match_id, **e.data}
        for e in rows[:BATCH].only("number", "kind", "match_id", "data")
    ]


def newest_ids(user_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Each account's newest event and connection: a stream wakes when either moves."""
    rows = EventStream.objects.filter(user_id__in=user_ids)
    return {
        user: (last, conn)
        for user, last, conn in rows.values_list("user_id", "last_id", "connection")
    }


def match_heads(match_ids: list[int]) -> dict[int, tuple]:
    """Each match's head seq, status and newest chat message: a stream wakes when one moves."""
    rows = (
        Match.objects.filter(pk__in=match_ids)
        .annotate(last_chat=Max("chat_messages__id"))
        .values_list("pk", "head_seq", "status", "last_chat")
    )
    return {pk: (head, status, chat) for pk, head, status, chat in rows}


def full_line(fmt: str, full: dict[str, Any]) -> str:
    """A match stream's first line: the whole position the seat may see. It has no `id`
    (SSE: no id line), so resuming stays with the moves' ids."""
    full = {"type": "full", **full}
    return f"event: full\ndata: {_json(full)}\n\n" if fmt == SSE else _json(full) + "\n"


def _pooled(function: Callable) -> Callable:
    """`function` in the event loop's shared pool of threads, on that thread's connection,
    kept between calls (a few threads, a few connections) and closed after an error, so the
    next call connects afresh."""

    def run(*args):
        try:
            return function(*args)
        except Exception:
            connection.close()
            raise

    return sync_to_async(run, thread_sensitive=False)


def holds_a_worker(environ: dict) -> bool:
    """Whether a stream here would hold a whole web worker while it waits: gunicorn's sync
    workers serve one request at a time (two open streams on two workers stalled the
    site). Threaded servers (runserver, gthread, `manage.py serve`) and ASGI do not."""
    server = str(environ.get("SERVER_SOFTWARE", ""))
    return server.startswith("gunicorn") and not environ.get("wsgi.multithread", False)


SYNC_WORKERS = (
    "This server runs sync workers, where a stream would hold a whole worker while it waits. "
    "Use GET /api/v1/turns?wait=25 instead (it answers as soon as you are asked), or ask the "
    "operator to run ASGI workers (README, 'Production')."
)


# --- the wire formats ----------------------------------------------------------------------


def _json(value: Any) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder, separators=(",", ":"))


def hello_line(fmt: str, last_id: int, after: int) -> str:
    """The stream's first line: the newest id of the account's events, and the id after
    which this stream's events follow (the one resumed from; the newest for a new stream)."""
    hello = {"type": "hello", "last_event_id": last_id, "after": after}
    return f"event: hello\ndata: {_json(hello)}\n\n" if fmt == SSE else _json(hello) + "\n"


def event_line(fmt: str, event: dict[str, Any]) -> str:
    if fmt == SSE:
        said = f"id: {event['id']}\n" if "id" in event else ""
        return f"{said}event: {event['type']}\ndata: {_json(event)}\n\n"
    return _json(event) + "\n"


def heartbeat_line(fmt: str) -> str:
    return ": keep-alive\n\n" if fmt == SSE else "\n"


# --- WSGI: a plain iterator ----------------------------------------------------------------


def sync_stream(
    user_id: int,
    after: int,
    hold: float,
    fmt: str,
    newest: int | None = None,
    connection: int | None = None,
) -> Iterator[str]:
    first = hello_line(fmt, after if newest is None else newest, after)
    read = partial(events_after, user_id, connection=connection)
    return sync_lines(first, read, after, hold, fmt)


def sync_lines(
    first: str, read: Callable[[int], list[dict]], after: int, hold: float, fmt: str
) -> Iterator[str]:
    """`first`, then the events `read` finds after `after`, for `hold` seconds at most (an
    event marked `last` ends the stream)."""
    ends = time.monotonic() + min(hold, WSGI_HOLD_SECONDS)
    yield first
    quiet_since = time.monotonic()
    while True:
        found = read(after)
        for event in found:
            yield event_line(fmt, event)
            after = event.get("id", after)
        if found and found[-1].get("last"):
            return
        now = time.monotonic()
        if found:
            quiet_since = now
            if len(found) == BATCH:
                continue
        if now >= ends:
            return
        if now - quiet_since >= HEARTBEAT_SECONDS:
            yield heartbeat_line(fmt)
            quiet_since = now
        time.sleep(min(poll_seconds(), ends - now))


# --- ASGI: an async iterator woken by the process's hub ------------------------------------


class Hub:
    """The one task per event loop and kind of stream that watches the open streams' newest
    numbers: accounts' newest event ids (`newest_ids`), or matches' head seqs
    (`match_heads`)."""

    def __init__(self, newest: Callable[[list[int]], dict[int, int]] = None):
        self.newest = newest or newest_ids
        self.waiting: dict[int, set[asyncio.Event]] = {}
        self.seen: dict[int, int] = {}
        self.task: asyncio.Task | None = None

    def listen(self, user_id: int) -> asyncio.Event:
        woken = asyncio.Event()
        self.waiting.setdefault(user_id, set()).add(woken)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.watch())
        return woken

    def leave(self, user_id: int, woken: asyncio.Event) -> None:
        waiting = self.waiting.get(user_id, set())
        waiting.discard(woken)
        if not waiting:
            self.waiting.pop(user_id, None)
            self.seen.pop(user_id, None)

    async def watch(self) -> None:
        read = _pooled(self.newest)
        while self.waiting:
            try:
                newest = await read(list(self.waiting))
            except Exception:  # the database is away: the streams wait, then read again
                log.exception("event stream: could not read the newest events")
                await asyncio.sleep(5)
                continue
            for user_id, last_id in newest.items():
                if self.seen.get(user_id) != last_id:
                    self.seen[user_id] = last_id
                    for woken in self.waiting.get(user_id, ()):
                        woken.set()
            await asyncio.sleep(poll_seconds())


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, Hub]]
_hubs = weakref.WeakKeyDictionary()


def hub(kind: str = "account") -> Hub:
    """This event loop's hub of accounts' streams, or (`kind="match"`) of matches'."""
    hubs = _hubs.setdefault(asyncio.get_running_loop(), {})
    if kind not in hubs:
        hubs[kind] = Hub(match_heads if kind == "match" else newest_ids)
    return hubs[kind]


async def async_stream(
    user_id: int,
    after: int,
    hold: float,
    fmt: str,
    newest: int | None = None,
    connection: int | None = None,
) -> AsyncIterator[str]:
    first = hello_line(fmt, after if newest is None else newest, after)
    read = partial(events_after, user_id, connection=connection)
    async for line in async_lines(first, read, after, hold, fmt, user_id):
        yield line


async def async_lines(
    first: str,
    read: Callable[[int], list[dict]],
    after: int,
    hold: float,
    fmt: str,
    key: int,
    kind: str = "account",
) -> AsyncIterator[str]:
    """`first`, then the events `read` finds after `after`, as they commit, for `hold`
    seconds (an event marked `last` ends the stream); woken by the hub of `kind` when the
    number it watches for `key` moves. When the client goes away Django cancels this
    coroutine where it waits; `finally` leaves the hub."""
    ends = time.monotonic() + min(hold, MAX_HOLD_SECONDS)
    read = _pooled(read)
    watching = hub(kind)
    woken = watching.listen(key)
    try:
        yield first
        while True:
            woken.clear()  # cleared before reading: a wake-up after the read is kept
            found = await read(after)
            for event in found:
                yield event_line(fmt, event)
                after = event.get("id", after)
            if found and found[-1].get("last"):
                return
            if len(found) == BATCH:
                continue
            left = ends - time.monotonic()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(woken.wait(), timeout=min(HEARTBEAT_SECONDS, left))
            except TimeoutError:
                if time.monotonic() < ends:
                    yield heartbeat_line(fmt)
    finally:
        watching.leave(key, woken)
