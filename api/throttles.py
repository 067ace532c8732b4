"""The API's request budget per account, counted atomically in the shared cache.

Each window's count is one cache key, raised with `incr` (an atomic INCR in Redis), so any
number of web processes together let through no more than the limit: a throttle that reads
its history and writes it back lets concurrent requests all pass on the same reading.

Every answer says how much of the budget is left (`RateLimitHeaders`: `RateLimit-Limit`,
`RateLimit-Remaining`, `RateLimit-Reset` of the window nearest its end), and a refusal
carries `Retry-After` (django-ninja sets it from `wait`), so a client never has to guess.
"""

from __future__ import annotations

import math
import time

from django.core.cache import cache
from django.http import HttpRequest
from ninja.throttling import BaseThrottle

from players.limits import client_address

# The budget per account (docs/api.md): a bot that makes two or three requests a decision
# plays at the speed of the server's own bots without meeting it; and as much again per
# match in play (up to MATCHES_COUNTED of them), so a bot in many matches at once is not
# throttled for playing them.
PER_MINUTE = 300
PER_HOUR = 6000
PER_MATCH_MINUTE = 60
PER_MATCH_HOUR = 1200
MATCHES_COUNTED = 50
MATCHES_CACHED_FOR = 30  # seconds: the count of matches in play is read again after this
NEW_MATCHES_PER_HOUR = 60  # creating matches has its own budget, however many are in play
REFUSED_MOVES_PER_MINUTE = 120  # moves asked for are not counted; refused or repeated ones are


class AccountThrottle(BaseThrottle):
    """At most `limit` requests per `seconds` per account, in a window that starts with its
    first request; a request with no account (refused anyway) is counted by its address."""

    def __init__(self, scope: str, limit: int, seconds: int, per_match: int = 0):
        self.scope, self.limit, self.seconds = scope, limit, seconds
        self.per_match = per_match
        self._wait = 0.0

    def _window(self, request: HttpRequest) -> tuple[str, int]:
        """The cache key of the asker's window and the limit that applies to them."""
        user = getattr(request, "auth", None)
        who = f"user:{user.pk}" if user is not None else f"address:{client_address(request)}"
        limit = self.limit
        if self.per_match and user is not None:
            limit += self.per_match * matches_in_play(user.pk)
        return f"api-throttle:{self.scope}:{who}", limit

    def spent(self, request: HttpRequest) -> bool:
        """Whether the window is used up, without counting this request (a move is counted
        only if it is refused: POST /matches/{id}/moves)."""
        name, limit = self._window(request)
        count = cache.get(name) or 0
        started = cache.get(f"{name}:start", time.time())
        reset = max(1.0, started + self.seconds - time.time())
        _remember(request, limit, max(0, limit - count), reset)
        self._wait = reset
        return count >= limit

    def allow_request(self, request: HttpRequest) -> bool:
        name, limit = self._window(request)
        now = time.time()
        # The window starts with its first request and ends with the counter's key.
        if cache.add(name, 0, timeout=self.seconds):
            cache.set(f"{name}:start", now, timeout=self.seconds)
        try:
            count = cache.incr(name)
        except ValueError:  # the window ended between add and incr
            cache.add(name, 1, timeout=self.seconds)
            count = 1
        started = cache.get(f"{name}:start", now)
        reset = max(1.0, started + self.seconds - now)
        _remember(request, limit, max(0, limit - count), reset)
        if count <= limit:
            return True
        self._wait = reset
        return False

    def wait(self) -> float:
        """Seconds until the window that refused the request ends (ninja's Retry-After)."""
        return self._wait


def matches_in_play(user_id: int) -> int:
    """The matches the account sits in that are being played (at most MATCHES_COUNTED), as
    counted in the last MATCHES_CACHED_FOR seconds: one COUNT a while, not one a request."""
    key = f"api-matches-in-play:{user_id}"
    found = cache.get(key)
    if found is None:
        from games.models import MatchStatus, Seat

        playing = Seat.objects.filter(
            user_id=user_id, resigned=False, match__status=MatchStatus.ACTIVE
        )
        found = min(playing.count(), MATCHES_COUNTED)
        cache.set(key, found, timeout=MATCHES_CACHED_FOR)
    return found


def forget_matches_in_play(user_id: int) -> None:
    """The account joined or made a match: count its matches again at its next request."""
    cache.delete(f"api-matches-in-play:{user_id}")


def _remember(request: HttpRequest, limit: int, remaining: int, reset: float) -> None:
    """Keep the tightest window's budget on the request, for RateLimitHeaders."""
    current = getattr(request, "rate_limit", None)
    if current is None or remaining < current[1]:
        request.rate_limit = (limit, remaining, reset)


class RateLimitHeaders:
    """Writes the budget an API answer was counted against into its headers."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        budget = getattr(request, "rate_limit", None)
        if budget is not None:
            limit, remaining, reset = budget
            response["RateLimit-Limit"] = str(limit)
            response["RateLimit-Remaining"] = str(remaining)
            response["RateLimit-Reset"] = str(math.ceil(reset))
        return response
