"""Rate limits on what costs us mail or accounts. The counters live in Django's cache, which
is Redis in production (CACHE_URL), so every web process counts against the same limit."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

HOUR = 3600
INVITATIONS_PER_HOUR = 20  # addresses one person may invite
CHAT_MESSAGES_PER_HOUR = 60  # each one mails the other seats


def allow(scope: str, key: str, *, limit: int, window: int = HOUR, cost: int = 1) -> bool:
    """Count `cost` more uses of `scope` by `key`; False once more than `limit` fall in the
    window (a fixed window that starts with the first use)."""
    name = f"limit:{scope}:{key.lower()}"
    cache.add(name, 0, timeout=window)
    try:
        return cache.incr(name, cost) <= limit
    except ValueError:  # the counter expired between add and incr
        cache.add(name, cost, timeout=window)
        return cost <= limit


def client_address(request: HttpRequest) -> str:
    """The address the request came from. Behind PROXY_COUNT proxies it is the entry the
    outermost of ours added to X-Forwarded-For; entries further left are the client's say."""
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    proxies = settings.PROXY_COUNT
    if proxies and len([h for h in hops if h]) >= proxies:
        return hops[-proxies]
    return request.META.get("REMOTE_ADDR", "") or "unknown"
