import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import tests.sealed_cards  # noqa: E402,F401  registers the platform's test game


@pytest.fixture(autouse=True)
def _empty_cache():
    """Rate limits live in the cache: every test starts with none counted."""
    from django.core.cache import cache

    cache.clear()
    yield
