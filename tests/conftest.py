import os

import pytest
from django.db.backends.signals import connection_created

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import tests.sealed_cards  # noqa: E402,F401  registers the platform's test game


def pytest_configure(config):
    """Under xdist with a Redis cache (.ci/run), each worker gets a Redis database of its
    own: every test empties the cache, which must not empty another worker's."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    from django.conf import settings

    default = settings.CACHES["default"]
    location = str(default.get("LOCATION", ""))
    if not worker.startswith("gw") or not location.startswith("redis://"):
        return
    base, _, number = location.rpartition("/")
    own = f"{base}/{int(number or 0) + 8 + int(worker[2:])}"
    settings.CACHES = {**settings.CACHES, "default": {**default, "LOCATION": own}}
    from django.test.signals import clear_cache_handlers

    clear_cache_handlers(setting="CACHES")


@pytest.fixture(autouse=True)
def _empty_cache():
    """Rate limits live in the cache: every test starts with none counted."""
    from django.core.cache import cache

    cache.clear()
    yield


def _allow_the_test_flush(sender, connection, **kwargs):
    """Django empties tables with TRUNCATE between transactional tests; the move table's
    trigger refuses TRUNCATE unless the session says it means it (games migration 0005)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET pbm.allow_truncate = 'on'")


connection_created.connect(_allow_the_test_flush)
