"""The API's request budget per account, counted atomically in the shared cache.

Each window's count is one cache key, raised with `incr` (an atomic INCR in Redis), so any
number of web processes together let through no more than the limit: a throttle that reads
its history and writes it back lets concurrent requests all pass on the same reading.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from django.http import HttpRequest
from ninja.throttling import BaseThrottle

from players.limits import client_address


class AccountThrottle(BaseThrottle):
    """At most `limit` requests per `seconds` per account, in a window that starts with its
    first request; a request with no account (refused anyway) is counted by its address."""

    def __init__(self, scope: str, limit: int, seconds: int):
        self.scope, self.limit, self.seconds = scope, limit, seconds
        self._wait = 0.0

    def allow_request(self, request: HttpRequest) -> bool:
        user = getattr(request, "auth", None)
        who = f"user:{user.pk}" if user is not None else f"address:{client_address(request)}"
        name = f"api-throttle:{self.scope}:{who}"
        now = time.time()
        # The window starts with its first request and ends with the counter's key.
        if cache.add(name, 0, timeout=self.seconds):
            cache.set(f"{name}:start", now, timeout=self.seconds)
        try:
            count = cache.incr(name)
        except ValueError:  # the window ended between add and incr
            cache.add(name, 1, timeout=self.seconds)
            count = 1
        if count <= self.limit:
            return True
        started = cache.get(f"{name}:start", now)
        self._wait = max(1.0, started + self.seconds - now)
        return False

    def wait(self) -> float:
        """Seconds until the window that refused the request ends (ninja's Retry-After)."""
        return self._wait
