"""Input no database column can hold is refused where it enters, before any view reads it.

PostgreSQL refuses a NUL character in text and JSON, and a lone UTF-16 surrogate (which a
JSON body can spell as an escape) cannot be encoded at all: either would reach the database
as an error, a 500, after the request had been half handled. SQLite stores both, so a suite
run only there never sees it. One check here covers every form, query string and JSON body
of the site and the API; email is read by its own pipeline (replies.reading.decode).
"""

from __future__ import annotations

import json
import re

from django.http import HttpRequest, HttpResponse, JsonResponse

SURROGATE = re.compile("[\ud800-\udfff]")
# An ESP's inbound webhook posts whole messages: the mail pipeline decodes and cleans them,
# and a refusal would only make the ESP send the message again and again.
EXEMPT = ("/anymail/",)
MESSAGE = "The request holds a character that cannot be stored (NUL or a lone surrogate)."


def unstorable(text: str) -> bool:
    return "\x00" in text or SURROGATE.search(text) is not None


class RefuseUnstorableInput:
    """400 for a request whose parameters or JSON body hold what cannot be stored; the API
    gets its documented error shape, a page a short plain answer."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._refused(request):
            if request.path.startswith("/api/"):
                error = {"error": {"code": "invalid_request", "message": MESSAGE}}
                return JsonResponse(error, status=400)
            return HttpResponse(MESSAGE, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)

    def _refused(self, request: HttpRequest) -> bool:
        if unstorable(request.path) or _any_unstorable(request.GET):
            return True
        if request.method not in ("POST", "PUT", "PATCH") or request.path.startswith(EXEMPT):
            return False
        if request.content_type == "application/json":
            try:
                return _holds_unstorable(json.loads(request.body))
            except Exception:  # not JSON, or too large: the view answers that itself
                return False
        if request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            try:
                return _any_unstorable(request.POST)
            except Exception:  # a malformed body: the view's form answers it
                return False
        return False


def _holds_unstorable(value) -> bool:
    """Whether a parsed JSON value holds an unstorable string, as a key or a value."""
    if isinstance(value, str):
        return unstorable(value)
    if isinstance(value, dict):
        return any(unstorable(k) or _holds_unstorable(v) for k, v in value.items())
    if isinstance(value, list):
        return any(map(_holds_unstorable, value))
    return False


def _any_unstorable(params) -> bool:
    return any(unstorable(key) or any(map(unstorable, values)) for key, values in params.lists())
