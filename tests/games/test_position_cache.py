"""The position cache shared by every process: keyed by match, seq and digest, so a stale
entry is never served; a cache that is down only costs the fallback to snapshots."""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Move
from games.selectors import POSITIONS, PositionCache, load_state, verify_match
from tests.factories import two_player_match

ROOT = Path(__file__).resolve().parents[2]
DOWN = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:6390/0",  # nothing listens there
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


def play_lowest(match, seat):
    match.refresh_from_db()
    card = min(load_state(match)["hands"][seat])
    return services.submit_move(
        match_id=match.pk, seat=seat, move={"type": "play", "card": card}, source="web"
    )


def two_clients() -> tuple[PositionCache, PositionCache]:
    """Two caches with clients (and connections) of their own, as two processes have."""
    return (
        PositionCache(cache=caches.create_connection("default")),
        PositionCache(cache=caches.create_connection("default")),
    )


@pytest.mark.cache
def test_two_clients_see_each_others_entries():
    writer, reader = two_clients()
    match_id = uuid.uuid4().int % 10**9
    writer.put(match_id, 7, "d" * 64, {"trick": 2, "hands": [[1], [2]]})
    assert reader.get(match_id, 7, "d" * 64) == {"trick": 2, "hands": [[1], [2]]}
    reader.put(match_id, 8, "e" * 64, {"trick": 3})
    assert writer.get(match_id, 8, "e" * 64) == {"trick": 3}


@pytest.mark.cache
def test_another_seq_or_digest_is_never_served():
    cache, _ = two_clients()
    match_id = uuid.uuid4().int % 10**9
    cache.put(match_id, 5, "a" * 64, {"at": 5})
    assert cache.get(match_id, 6, "a" * 64) is None  # the match moved on
    assert cache.get(match_id, 5, "b" * 64) is None  # another position at the same seq
    assert cache.get(match_id + 1, 5, "a" * 64) is None
    # An entry whose contents do not belong to its key is not served either.
    caches["default"].set(cache.key(match_id, 9, "c" * 64), ((match_id, 8, "c" * 64), {}))
    assert cache.get(match_id, 9, "c" * 64) is None


@pytest.mark.cache
def test_every_reader_gets_its_own_copy():
    cache, _ = two_clients()
    match_id = uuid.uuid4().int % 10**9
    cache.put(match_id, 1, "f" * 64, {"hands": [[1, 2]]})
    cache.get(match_id, 1, "f" * 64)["hands"][0].pop()
    assert cache.get(match_id, 1, "f" * 64) == {"hands": [[1, 2]]}


@pytest.mark.django_db
def test_a_move_reads_its_position_from_the_cache_and_leaves_the_next_one():
    match, first, second = two_player_match()
    with CaptureQueriesContext(connection) as queries:
        assert play_lowest(match, first).ok
    assert not any("games_snapshot" in q["sql"] for q in queries)  # warm: no replay
    match.refresh_from_db()
    assert POSITIONS.get(match.pk, match.head_seq, match.head_digest) == load_state(match)


@pytest.mark.django_db
def test_an_old_entry_for_the_match_is_not_used_after_a_move():
    match, first, second = two_player_match()
    stale = load_state(match)
    assert play_lowest(match, first).ok
    match.refresh_from_db()
    # A poisoned entry at the new head under another digest: never read.
    POSITIONS.put(match.pk, match.head_seq, "0" * 64, stale)
    assert load_state(match) != stale
    assert load_state(match)["plays"][first] is not None


@pytest.mark.django_db
def test_with_the_cache_down_moves_still_work():
    match, first, second = two_player_match()
    with override_settings(CACHES=DOWN):
        for _ in range(2):
            assert play_lowest(match, first).ok
            assert play_lowest(match, second).ok
    match.refresh_from_db()
    assert match.is_over
    assert Move.objects.filter(match=match).count() == match.head_seq
    assert verify_match(match).ok


@pytest.mark.django_db
def test_a_cold_cache_falls_back_to_the_snapshots_and_the_log():
    match, first, second = two_player_match()
    assert play_lowest(match, first).ok
    match.refresh_from_db()
    warm = load_state(match)
    caches["default"].clear()
    with CaptureQueriesContext(connection) as queries:
        cold = load_state(match)
    assert cold == warm
    assert any("games_move" in q["sql"] for q in queries)


CHILD = """
import sys
import time
import django
django.setup()
from django.core.cache import caches
from games.selectors import PositionCache
cache = PositionCache()
match_id = int(sys.argv[1])
print(caches["default"].__class__.__name__, flush=True)
deadline = time.monotonic() + 60
seen = None
while seen is None and time.monotonic() < deadline:
    seen = cache.get(match_id, 1, "p" * 64)
    time.sleep(0.05)
print(seen, flush=True)
for _ in range(100):  # kept there until the parent has read it
    cache.put(match_id, 2, "q" * 64, {"from": "child"})
    time.sleep(0.05)
"""


@pytest.mark.services
def test_two_processes_share_positions_through_redis():
    backend = settings.CACHES["default"]["BACKEND"]
    assert backend.endswith("RedisCache"), "run the services suite with CACHE_URL=redis://..."
    match_id = uuid.uuid4().int % 10**9
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings")
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(match_id)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # Written again and again: a parallel test run may clear the shared Redis meanwhile.
        from_child, deadline = None, time.monotonic() + 90
        while from_child is None and time.monotonic() < deadline and child.poll() is None:
            POSITIONS.put(match_id, 1, "p" * 64, {"from": "parent"})
            from_child = POSITIONS.get(match_id, 2, "q" * 64)
            time.sleep(0.05)
    finally:
        out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err[-2000:]
    assert out.splitlines()[:2] == ["ResilientRedisCache", "{'from': 'parent'}"]
    assert from_child == {"from": "child"}


@pytest.mark.services
def test_the_cache_reconnects_after_redis_drops_its_connection():
    cache = caches.create_connection("default")
    client = cache._cache.get_client()
    key = f"pbm:test:{uuid.uuid4().hex}"
    cache.set(key, {"n": 1}, 60)
    client.client_kill_filter(_id=client.client_id())  # only this connection
    answers = []
    for _ in range(2):  # a command may fail on the dead connection; the next reconnects
        try:
            answers.append(cache.get(key))
        except Exception as error:  # noqa: BLE001 - whatever redis-py raises for it
            answers.append(type(error).__name__)
    assert answers[-1] == {"n": 1}, answers


@pytest.mark.django_db
@override_settings(SNAPSHOT_EVERY=4)
def test_a_position_read_again_at_a_snapshot_tells_its_last_move_in_the_readers_words():
    """The snapshot keeps what the last move told as English; a position read at the
    snapshot's seq replays that move from the one before, so its news can be said in Dutch."""
    import random

    from games.engine.words import Text
    from games.language import localize
    from games.models import Snapshot
    from tests.factories import make_user

    anna, bram = make_user("Anna"), make_user("Bram")
    match = services.create_match(
        creator=anna, game_slug="blankenburg", players=2, invite_emails=[bram.email], seed="news"
    )
    services.join_match(match_id=match.pk, user=bram)
    rng = random.Random(2)
    for _ in range(200):  # to a snapshot whose last move told something
        match.refresh_from_db()
        seat = match.to_act[0]
        move = match.game.bot_move(load_state(match), seat, rng)
        assert services.submit_move(match_id=match.pk, seat=seat, move=move, source="web").ok
        match.refresh_from_db()
        at = match.head_seq
        if Snapshot.objects.filter(match=match, seq=at).exists() and load_state(match)["news"]:
            break
    caches["default"].clear()
    news = load_state(match, upto=at)["news"]
    assert news and all(isinstance(item, Text) for item in news)
    assert localize(news, "nl") != [str(item) for item in news]
