import os

import pytest
from django.db.backends.signals import connection_created

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import tests.sealed_cards  # noqa: E402,F401  registers the platform's test game

DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server"}


def pytest_addoption(parser):
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="run only the tests that use the database or the cache (.ci/run's PostgreSQL "
        "and Redis pass: a test of the pure rules learns nothing from a second run there)",
    )


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--database-tests-only"):
        return
    kept, dropped = [], []
    for item in items:
        uses = (
            item.get_closest_marker("django_db")
            or item.get_closest_marker("cache")
            or DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
        ) and not item.get_closest_marker("once")
        (kept if uses else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


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
def _english_to_start_with():
    """Each test starts in the site's default language: a request (LocaleMiddleware) or a
    mail rendered for a Dutch player leaves its language active in the thread, which would
    carry into the next test on the same worker."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _no_night_unless_asked(request, settings):
    """Tests run at any hour of the day, and a player's night (22:00 to 07:00 in their zone)
    holds their mail and moves their deadlines: a test has no night but quiet hours unless
    it is marked `night` (and sets its clock)."""
    if request.node.get_closest_marker("night") is None:
        settings.PBM_NIGHT_START = settings.PBM_NIGHT_END = None
    yield


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


@pytest.fixture
def no_vacation_bank(settings):
    """Players whose vacation bank is empty: a passed deadline times out at once (a bank
    would spend a day instead, games.vacation_bank)."""
    settings.PBM_VACATION_DAYS_PER_YEAR = 0
    settings.PBM_VACATION_DAYS_EARNED_CAP = 0
