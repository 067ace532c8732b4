"""Django's Redis cache, falling back to this process's memory while Redis is unreachable.

Redis speeds things up and shares counters between processes; no answer may depend on it
(DESIGN.md). Every caller of the cache (API throttles, django-axes, rate limits, the position
cache, presence) would otherwise raise, and the site answer 500, the moment Redis stops.
Here a failing call is answered by a local in-memory cache instead: limits count per process
until Redis is back, positions are replayed or cached locally, presence is local. After a
failure Redis is left alone for `RETRY_AFTER` seconds, so a request never waits on a dead
server more than once per interval.
"""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

log = logging.getLogger(__name__)

RETRY_AFTER = 5.0  # seconds without trying Redis after it failed


class KeptClient(RedisCacheClient):
    """Django's client builds a `redis.Redis` for every call (its table of ~170 reply
    callbacks: a millisecond a call under load); this one keeps one per connection pool for
    the life of the process. A `redis.Redis` is safe to share between threads."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        # One retry at once (a connection Redis dropped is made again), none with backoff
        # (redis-py's default waits seconds): a call that still fails goes to local memory.
        options = {"retry": Retry(NoBackoff(), 1), **params.get("OPTIONS", {})}
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = KeptClient
        self._local = LocMemCache(f"fallback-{server}", {"OPTIONS": {"MAX_ENTRIES": 10_000}})
        self._down_until = 0.0


def _resilient(name: str):
    redis_call = getattr(RedisCache, name)

    def call(self, *args, **kwargs):
        local = getattr(self._local, name)
        if time.monotonic() < self._down_until:
            return local(*args, **kwargs)
        try:
            return redis_call(self, *args, **kwargs)
        except RedisError as error:
            if self._down_until == 0.0 or time.monotonic() >= self._down_until:
                log.warning("cache: Redis unreachable (%s); this process counts alone", error)
            self._down_until = time.monotonic() + RETRY_AFTER
            return local(*args, **kwargs)

    call.__name__ = name
    call.__doc__ = redis_call.__doc__
    return call


for _name in (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
    "clear",
):
    setattr(ResilientRedisCache, _name, _resilient(_name))
