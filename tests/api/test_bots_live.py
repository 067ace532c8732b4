"""The example bots against a live server as production runs it (issue 29): gunicorn with 2
uvicorn workers (config.asgi, DEBUG off) on a fresh PostgreSQL database and a redis-server
of its own (cache and broker).

- examples/play_bot.py plays three whole matches of each game (nieuwstad and blankenburg
  with 2 players, new-england with 3), one bot process per game, all at once: every bot
  ends, every match is finished, and no answer was a 429.
- Another bot is killed mid-match and started again with its state file: the event ids it
  handled have no gap, and it received every event the server wrote for it, each turn.
- examples/play_bot.mjs (Node's fetch) plays a whole match.
- Every 429 carries Retry-After: a client that spends its minute's budget is told how long
  to wait on each refusal.

    uv run pytest -m services tests/api/test_bots_live.py
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.faults.test_redis_outage import (
    PG_URL,
    ROOT,
    Processes,
    Redis,
    database,
    free_port,
    missing,
    run,
    wait_for,
)

pytestmark = pytest.mark.services

GAMES = {"nieuwstad": 2, "new-england": 3, "blankenburg": 2}
MATCHES = 3
BOT_TIMEOUT = 150  # seconds for every bot to finish its matches

ACCOUNTS = """
import json, sys
import django
django.setup()
from api.tokens import make_bot_account, make_token
from tests.factories import make_user
keys = {}
for name in sys.argv[1:]:
    user = make_user(name)
    if name.startswith("bot"):
        make_bot_account(user=user)
    keys[name] = [user.pk, make_token(user=user, name="live", scope="play")[1]]
print(json.dumps(keys))
"""


def query(env: dict, sql: str, *args) -> list[tuple]:
    import psycopg

    with psycopg.connect(env["DATABASE_URL"].replace("postgres://", "postgresql://")) as db:
        return db.execute(sql, args).fetchall()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if shutil.which("redis-server") is None:
        missing("redis-server is not installed")
    try:
        database("postgres").close()
    except Exception as error:  # noqa: BLE001
        missing(f"PostgreSQL is not reachable at {PG_URL}: {error}")
    folder = tmp_path_factory.mktemp("bots")
    name = f"pbm_bots_{os.getpid()}"
    with database("postgres") as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    redis_server = Redis(folder)
    processes = Processes()
    try:
        redis_server.start()
        port = free_port()
        url = urllib.parse.urlunsplit(urllib.parse.urlsplit(PG_URL)._replace(path=f"/{name}"))
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": url,
            "CACHE_URL": f"redis://127.0.0.1:{redis_server.port}/1",
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{redis_server.port}/0",
            "PBM_VAR_DIR": str(folder / "var"),
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": "bots-live-" + "k3y" * 20,
            "SECURE_SSL_REDIRECT": "false",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "SITE_URL": f"http://127.0.0.1:{port}",
            "LOG_LEVEL": "WARNING",
        }
        run([sys.executable, "manage.py", "migrate", "-v", "0"], env)
        names = [f"bot-{game}" for game in GAMES] + ["bot-resumed", "bot-js", "person"]
        accounts = json.loads(run([sys.executable, "-c", ACCOUNTS, *names], env))
        gunicorn = processes.start(
            "gunicorn",
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.asgi:application",
                "--worker-class",
                "uvicorn_worker.UvicornWorker",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
                "--graceful-timeout",
                "3",  # open streams are cut when it stops; clients reconnect
            ],
            env,
            folder / "gunicorn.log",
        )

        def up() -> bool:
            assert gunicorn.poll() is None, (folder / "gunicorn.log").read_text()[-3000:]
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=2) as r:
                    return r.status == 200
            except OSError:
                return False

        wait_for(up, 90, "gunicorn")
        yield {
            "url": f"http://127.0.0.1:{port}",
            "env": env,
            "accounts": accounts,
            "folder": folder,
            "processes": processes,
        }
        assert "Traceback" not in (folder / "gunicorn.log").read_text()
    finally:
        processes.stop()
        if redis_server.process and redis_server.process.poll() is None:
            redis_server.kill()
        with database("postgres") as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def start_bot(server, name: str, *arguments: str, log: Path | None = None) -> subprocess.Popen:
    key = server["accounts"][name][1]
    command = [sys.executable, "examples/play_bot.py", "--server", server["url"], "--token", key]
    log = log or server["folder"] / f"{name}.log"
    return subprocess.Popen(
        [*command, *arguments],
        cwd=ROOT,
        stdout=open(log, "a"),  # noqa: SIM115
        stderr=subprocess.STDOUT,
    )


def finish(process: subprocess.Popen, log: Path, seconds: float) -> str:
    try:
        code = process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise AssertionError(f"{log.name} did not finish: {log.read_text()[-2000:]}") from None
    text = log.read_text()
    assert code == 0, text[-3000:]
    return text


def statuses(server, user_id: int) -> list[str]:
    return [
        status
        for (status,) in query(
            server["env"],
            "SELECT status FROM games_match WHERE created_by_id = %s ORDER BY id",
            user_id,
        )
    ]


def test_the_bots_finish_every_match_and_one_resumes_without_missing_an_event(server):
    started = time.monotonic()
    bots = {
        game: start_bot(
            server,
            f"bot-{game}",
            "--create",
            f"{game}:{players}",
            "--matches",
            str(MATCHES),
            "--until-finished",
        )
        for game, players in GAMES.items()
    }
    # The resumed bot: killed once it has handled a few events, then started again.
    folder = server["folder"]
    state = folder / "resumed.json"
    resumed_log = folder / "bot-resumed.log"
    arguments = ("--create", "nieuwstad:2", "--until-finished", "--state", str(state))
    first = start_bot(server, "bot-resumed", *arguments)
    wait_for(
        lambda: len(re.findall(r"event \d+: turn", resumed_log.read_text())) >= 5,
        60,
        "the resumed bot's fifth turn",
    )
    first.send_signal(signal.SIGKILL)  # no goodbye: the stream just drops
    first.wait()
    killed_at = max(int(n) for n in re.findall(r"event (\d+):", resumed_log.read_text()))
    second = start_bot(server, "bot-resumed", *arguments)
    finish(second, resumed_log, BOT_TIMEOUT)

    for game, process in bots.items():
        text = finish(process, folder / f"bot-{game}.log", BOT_TIMEOUT)
        assert "rate limited" not in text and "Traceback" not in text, text[-2000:]
        assert text.count("is finished") == MATCHES, text[-2000:]
        user_id = server["accounts"][f"bot-{game}"][0]
        assert statuses(server, user_id) == ["finished"] * MATCHES
    elapsed = time.monotonic() - started

    text = resumed_log.read_text()
    user_id = server["accounts"]["bot-resumed"][0]
    assert statuses(server, user_id) == ["finished"]
    handled = [int(n) for n in re.findall(r"event (\d+):", text)]
    # No gap: every id from the first to the last, across the kill and the restart.
    assert sorted(set(handled)) == list(range(1, max(handled) + 1)), handled
    assert max(handled) > killed_at
    written = query(
        server["env"],
        "SELECT number, kind FROM api_accountevent WHERE user_id = %s ORDER BY number",
        user_id,
    )
    assert [n for n, _ in written] == sorted(set(handled))  # everything the server wrote
    turns = {n for n, kind in written if kind == "turn"}
    assert turns and turns <= set(handled)
    assert re.search(r"event \d+: match_over", text)
    print(f"\nthree bots x {MATCHES} matches and the resumed bot: {elapsed:.0f} s")


def test_the_javascript_bot_plays_a_whole_match(server):
    node = shutil.which("node")
    if node is None:
        missing("node is not installed")
    key = server["accounts"]["bot-js"][1]
    log = server["folder"] / "bot-js.log"
    process = subprocess.Popen(
        [node, "examples/play_bot.mjs", "--server", server["url"], "--token", key]
        + ["--create", "blankenburg:2", "--until-finished"],
        cwd=ROOT,
        stdout=open(log, "w"),  # noqa: SIM115
        stderr=subprocess.STDOUT,
    )
    text = finish(process, log, BOT_TIMEOUT)
    assert "is finished" in text and "every match is over" in text
    assert statuses(server, server["accounts"]["bot-js"][0]) == ["finished"]


def test_every_429_carries_retry_after(server):
    key = server["accounts"]["person"][1]
    refusals = []
    for _ in range(320):
        request = urllib.request.Request(
            server["url"] + "/api/v1/me", headers={"Authorization": f"Bearer {key}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                assert response.headers["RateLimit-Limit"]
        except urllib.error.HTTPError as error:
            assert error.code == 429, error.code
            refusals.append(error.headers.get("Retry-After"))
    assert len(refusals) >= 20
    assert all(wait and 0 < int(wait) <= 60 for wait in refusals), refusals


# --- a bot written here from docs/api.md alone, following only its match streams ---------

# (game, players, seats of the second bot account: the rest are the site's bots)
TWENTY = [
    *[("nieuwstad", 2, 0)] * 3,
    *[("new-england", 3, 0)] * 2,
    ("new-england", 4, 0),
    *[("blankenburg", 2, 0)] * 3,
    ("blankenburg", 3, 0),
    ("blankenburg", 4, 0),
    ("blankenburg", 5, 0),
    ("blankenburg", 6, 0),
    *[("nieuwstad", 2, 1)] * 2,
    *[("blankenburg", 2, 1)] * 2,
    ("nieuwstad", 3, 1),
    ("new-england", 3, 1),
    ("blankenburg", 4, 1),
]
RECONNECT_EVERY = 25  # events: the bot drops its connection and resumes from its last id
STREAM_BOT_TIMEOUT = 420


class StreamBot:
    """What a bot author writes from docs/api.md: per match, GET /matches/{id}/stream
    (NDJSON) with legal=true; on the full position and on each event's `state`, when `legal`
    lists moves, POST one with the position's `seq` and an idempotency key; resume with
    `since` after a dropped connection; stop at `last`."""

    def __init__(self, url: str, key: str, seed: int):
        import random

        self.url, self.key = url, key
        self.rng = random.Random(seed)
        self.seen: dict[int, list[int]] = {}  # match -> every event id received, in order
        self.refused: list[str] = []

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(
            self.url + "/api/v1" + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            if error.code == 429:
                self.refused.append(f"429 on {method} {path}")
            elif error.code != 409:  # 409: the match moved on; the stream says how
                self.refused.append(f"{error.code} on {method} {path}: {error.read()[:300]}")
            return {}

    def decide(self, match_id: int, state: dict) -> None:
        legal = state.get("legal") or []
        if legal:
            seq = state["match"]["seq"]
            choice = self.rng.choice(legal)["move"]
            key = f"{self.key[-6:]}-{match_id}-{seq}"
            self.call(
                "POST",
                f"/matches/{match_id}/moves",
                {"move": choice, "seq": seq, "idempotency_key": key},
            )

    def follow(self, match_id: int) -> None:
        ids = self.seen.setdefault(match_id, [])
        while True:
            since = ids[-1] if ids else 0
            request = urllib.request.Request(
                f"{self.url}/api/v1/matches/{match_id}/stream?legal=true&since={since}",
                headers={"Authorization": f"Bearer {self.key}"},
            )
            with urllib.request.urlopen(request, timeout=60) as response:
                received = 0
                for raw in response:
                    if not raw.strip():
                        continue  # a heartbeat
                    event = json.loads(raw)
                    if event["type"] == "full":
                        if event["match"]["status"] != "active" and event["seq"] == since:
                            return
                        self.decide(match_id, event)
                        continue
                    if "id" in event:
                        ids.append(event["id"])
                    if event.get("last"):
                        return
                    if "state" in event:
                        self.decide(match_id, event["state"])
                    received += 1
                    if received >= RECONNECT_EVERY:
                        break  # a forced reconnect: resume from the last id


def test_a_bot_from_the_docs_plays_twenty_matches_at_once_on_its_match_streams(server):
    import threading

    accounts = json.loads(run([sys.executable, "-c", ACCOUNTS, "docs-a", "docs-b"], server["env"]))
    first = StreamBot(server["url"], accounts["docs-a"][1], seed=1)
    second = StreamBot(server["url"], accounts["docs-b"][1], seed=2)
    for bot in (first, second):
        assert bot.call("POST", "/me/bot")["bot"] is True  # upgraded by the API
    followers = []
    made = []
    for game, players, seconds in TWENTY:
        match = first.call(
            "POST", "/matches",
            {"game": game, "players": players, "bots": players - 1 - seconds, "rated": False},
        )  # fmt: skip
        assert match.get("id"), first.refused
        made.append(match["id"])
        bots = [first]
        if seconds:
            assert second.call("POST", f"/matches/{match['id']}/join")["your_seat"]
            bots.append(second)
        for bot in bots:
            followers.append(threading.Thread(target=bot.follow, args=(match["id"],)))
    started = time.monotonic()
    for thread in followers:
        thread.start()
    for thread in followers:
        thread.join(max(1.0, STREAM_BOT_TIMEOUT - (time.monotonic() - started)))
    assert not any(t.is_alive() for t in followers), "a match stream did not end"
    elapsed = time.monotonic() - started
    assert first.refused == [] and second.refused == [], first.refused + second.refused
    heads = dict(
        query(server["env"], "SELECT id, head_seq FROM games_match WHERE id = ANY(%s)", made)
    )
    done = query(server["env"], "SELECT status FROM games_match WHERE id = ANY(%s)", made)
    assert [s for (s,) in done] == ["finished"] * len(TWENTY)
    for bot in (first, second):
        for match_id, ids in bot.seen.items():
            # Every entry of the log once, in order, across the forced reconnects.
            assert ids == list(range(1, heads[match_id] + 1)), (match_id, ids[:10])
    moves = sum(len(ids) for ids in first.seen.values())
    print(f"twenty matches on their streams: {elapsed:.0f} s, {moves} log entries followed")
