"""Celery's Redis transport, publishing through one kept client.

kombu's Redis channel makes a new `redis.Redis` for every publish (`conn_or_acquire`), and
each copies its ~170 response callbacks: about a third of a publish's CPU on a web worker's
hand-off thread (docs/benchmarks.md, "A move over HTTP"). A `redis.Redis` is only a front
for the channel's connection pool and is safe to share between threads, so this channel keeps
one per pool. The consuming side (the worker's asynchronous client) is kombu's own.
"""

from __future__ import annotations

from kombu.transport import redis


class Channel(redis.Channel):
    _publisher: redis.redis.Redis | None = None

    def _create_client(self, asynchronous: bool = False):
        if asynchronous:
            return super()._create_client(asynchronous=True)
        pool = self.pool
        client = self._publisher
        if client is None or client.connection_pool is not pool:  # a reconnect makes a new pool
            client = self._publisher = super()._create_client()
        return client


class Transport(redis.Transport):
    Channel = Channel
