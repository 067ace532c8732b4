"""The database going away, met calmly: while PostgreSQL cannot be reached (stopped,
restarting, a network cut), pages and the API answer 503 with Retry-After, which a browser,
a bot and a proxy understand, instead of a 500 and a traceback per request; the log gets one
line every few seconds saying how many were turned away. Nothing is half done: a request's
writes are in one transaction that the lost connection rolled back, and the next request
connects again (CONN_HEALTH_CHECKS, a connect timeout of a few seconds: config/settings.py).

A view's exception is answered by the middleware (in DEBUG too); one raised elsewhere in the
request (a middleware reading the session) reaches Django's 500 handler, `server_error`.
"""

from __future__ import annotations

import logging
import sys
import threading
import time

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.defaults import server_error as django_server_error

log = logging.getLogger("config.database")

RETRY_AFTER = 5  # seconds: a restart takes about that long
LOG_EVERY = 10.0  # seconds between two lines about the same outage
MESSAGE = "The database is not answering; try again in a few seconds."
PAGE = (
    "<!doctype html><html lang='{lang}'><head><meta charset='utf-8'><title>{title}</title>"
    "</head><body><h1>{title}</h1><p>{text}</p></body></html>"
)


def unreachable(error: BaseException | None) -> bool:
    """Whether `error` says the database could not be reached or was lost mid-request (not a
    query's own fault: those are ProgrammingError, IntegrityError, DataError)."""
    return isinstance(error, (OperationalError, InterfaceError))


class _Tally:
    """Requests turned away since the last line logged, per process."""

    def __init__(self):
        self.lock = threading.Lock()
        self.count = 0
        self.logged_at = float("-inf")

    def note(self, error: BaseException) -> None:
        with self.lock:
            self.count += 1
            now = time.monotonic()
            if now - self.logged_at < LOG_EVERY:
                return
            count, self.count, self.logged_at = self.count, 0, now
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        log.warning(
            "database unreachable, %s request(s) answered 503: %s: %s",
            count,
            type(error).__name__,
            first_line,
        )


tally = _Tally()


def answer(request: HttpRequest, error: BaseException) -> HttpResponse:
    tally.note(error)
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": {"code": "unavailable", "message": MESSAGE}}, status=503)
    else:
        # The browser's language (LocaleMiddleware): the player's own is in the database.
        page = PAGE.format(
            lang=get_language(),
            title=escape(_("Back in a moment")),
            text=escape(
                _(
                    "The server cannot reach its database just now. Nothing you sent was "
                    "half done: try again in a few seconds."
                )
            ),
        )
        response = HttpResponse(page, status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseOutage:
    """503 with Retry-After for a view that lost its database."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        return answer(request, exception) if unreachable(exception) else None


def server_error(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    """Django's 500 handler: a 503 when what failed was the database's connection."""
    error = sys.exc_info()[1]
    if unreachable(error):
        return answer(request, error)
    return django_server_error(request, *args, **kwargs)


class QuietOutage(logging.Filter):
    """Drops django.request's traceback for a request answered 503 for an outage: the
    tally's line says it once for many."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not unreachable(error) and getattr(record, "status_code", None) != 503
