"""With the cache's Redis unreachable, every request that uses the cache still answers: API
throttles, login throttling, rate limits, chat and moves (config.resilient_cache), and Redis
is tried once, not by every call (each try may wait for a time-out). Nothing listens on the
discard port, as when Redis has stopped."""

import time

import pytest
from django.core.cache import caches
from django.test import Client

from api.tokens import make_token
from config import resilient_cache
from games.models import Move
from tests.factories import two_player_match

pytestmark = pytest.mark.django_db

DEAD_REDIS = {
    "default": {
        "BACKEND": "config.resilient_cache.ResilientRedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


@pytest.fixture
def redis_down(settings):
    settings.CACHES = DEAD_REDIS
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    yield
    caches["default"]._local.clear()


def test_the_site_answers_without_redis(redis_down, monkeypatch, caplog):
    monkeypatch.setattr(resilient_cache, "RETRY_AFTER", 3600.0)
    match, anna, _bram = two_player_match()
    user = match.seats.select_related("user").get(number=anna).user
    _token, key = make_token(user=user, name="outage", scope="play")
    api = Client(headers={"Authorization": f"Bearer {key}"})
    web = Client()
    answers = [
        (lambda: Client().post("/login/", {"username": user.email, "password": "wrong"})),
        (lambda: Client().post("/login/email/", {"email": user.email})),
        (lambda: Client().post("/signup/", {"email": "new@example.com", "name": "New"})),
        (lambda: api.get("/api/v1/me")),
        (
            lambda: api.post(
                f"/api/v1/matches/{match.pk}/chat",
                {"text": "hello"},
                content_type="application/json",
            )
        ),
        (
            lambda: api.post(
                f"/api/v1/matches/{match.pk}/moves",
                {"command": "1"},
                content_type="application/json",
            )
        ),
    ]
    web.force_login(user)
    answers.append(lambda: web.get(f"/matches/{match.pk}/"))
    for request in answers:
        answer = request()
        assert answer.status_code < 500, answer
    tries = [r for r in caplog.records if "Redis unreachable" in r.getMessage()]
    assert len(tries) == 1
    assert Move.objects.filter(match=match, source="api").count() == 1


def test_limits_still_count_in_each_process(redis_down):
    from players.limits import allow

    assert all(allow("test", "someone", limit=3) for _ in range(3))
    assert not allow("test", "someone", limit=3)


def test_redis_is_tried_again_after_a_while(redis_down, monkeypatch):
    cache = caches["default"]
    cache.set("k", 1)  # fails over to local memory and leaves Redis alone for a while
    down_until = cache._down_until
    assert down_until > time.monotonic()
    assert cache.get("k") == 1 and cache._down_until == down_until  # not tried meanwhile
    later = down_until + 1
    monkeypatch.setattr(resilient_cache.time, "monotonic", lambda: later)
    assert cache.get("k") == 1  # tried again, failed again, answered locally
    assert cache._down_until == later + resilient_cache.RETRY_AFTER
