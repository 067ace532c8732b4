"""The fault run (issue 32): Redis stopped for 20 s in the middle of a mixed load.

Everything runs as in production, on this machine: a fresh PostgreSQL database (migrated),
a redis-server of its own on a free port (cache and broker), gunicorn with 2 sync workers
(config.wsgi, DEBUG off) and a Celery worker. Client threads send for LOAD_SECONDS a mix of
password sign-ins, sign-in link requests, API v1 reads, moves by API (idempotency keys, some
sent twice) and by the web Confirm form, and chat by API and the web form. OUTAGE_AT seconds
in, the redis-server is killed (SIGKILL); OUTAGE_FOR seconds later a new one starts on the
same port, empty, as after a crash.

Every response's status and time is recorded (a new connection per request, its connect
included). Then: no 5xx and no request over 1 s; every move a client was told was played
is in the log exactly once under its key, nothing else is, and each match replays to its
stored digests; after Redis is back, sign-in, API, chat and moves work, the cache is in
Redis again, the worker delivers new turn notices, and the sweep (`manage.py send_outbox`,
what beat's sweep does) delivers those written while the broker was down.

    uv run pytest -m faults -s

Needs redis-server on PATH and PostgreSQL at FAULTS_PG_URL (default
postgres://postgres@127.0.0.1:5432/). Skipped without them, except under CI=true, where it
fails.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

import pytest

pytestmark = pytest.mark.faults

ROOT = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("FAULTS_PG_URL", "postgres://postgres@127.0.0.1:5432/")
SECRET_KEY = "fault-run-" + "k3y" * 20
LOAD_SECONDS = 60
OUTAGE_AT = 20
OUTAGE_FOR = 20
SLOWEST = 1.0  # seconds: no request may take longer
CLIENT_TIMEOUT = 10.0
OUTAGE_MOVES = 4  # moves played in each "outage" match while Redis is down


def missing(reason: str):
    """A missing service fails the run in CI and skips it elsewhere."""
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(done, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not within {seconds} s")
        time.sleep(0.2)


# --- the services --------------------------------------------------------------------------


class Redis:
    def __init__(self, folder: Path):
        self.port = free_port()
        self.folder = folder
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=open(self.folder / "redis.log", "a"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )
        wait_for(self.answers, 10, "redis-server")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def dbsize(self, db: int) -> int:
        import redis

        return redis.Redis(port=self.port, db=db, socket_timeout=2).dbsize()


class Processes:
    """gunicorn and the Celery worker; each stopped by its own pid."""

    def __init__(self):
        self.running: list[tuple[str, subprocess.Popen]] = []

    def start(self, name: str, command: list[str], env: dict, log: Path) -> subprocess.Popen:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=open(log, "w"),
            stderr=subprocess.STDOUT,  # noqa: SIM115
        )
        self.running.append((name, process))
        return process

    def stop(self) -> None:
        for _name, process in reversed(self.running):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for _name, process in self.running:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def database(name: str):
    import psycopg

    admin = urllib.parse.urlsplit(PG_URL)._replace(scheme="postgresql", path="/postgres")
    return psycopg.connect(urllib.parse.urlunsplit(admin), autocommit=True, connect_timeout=5)


def run(command: list[str], env: dict, timeout: float = 120) -> str:
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{command}: {done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture
def site(tmp_path):
    with running_site(tmp_path) as running:
        yield running


@contextmanager
def running_site(tmp_path, through=None, asgi: bool = False):
    """Database, Redis, gunicorn and a Celery worker, all of their own; their environment.
    `through(url)`: the database address gunicorn and the worker use instead of `url` (a
    proxy the test can cut); `asgi`: gunicorn's ASGI workers, as production runs them."""
    if shutil.which("redis-server") is None:
        missing("redis-server is not installed")
    try:
        database("postgres").close()
    except Exception as error:  # noqa: BLE001
        missing(f"PostgreSQL is not reachable at {PG_URL}: {error}")
    name = f"pbm_faults_{os.getpid()}"
    with database("postgres") as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    redis_server = Redis(tmp_path)
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
            "PBM_VAR_DIR": str(tmp_path / "var"),
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": SECRET_KEY,
            "SECURE_SSL_REDIRECT": "false",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "SITE_URL": f"http://127.0.0.1:{port}",
            "LOG_LEVEL": "WARNING",
        }
        run([sys.executable, "manage.py", "migrate", "-v", "0"], env)
        run([sys.executable, "-m", "tests.faults.world", "seed", str(tmp_path / "seed.json")], env)
        if through is not None:
            env = {**env, "DATABASE_URL": through(url)}
        served = ["config.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker"]
        gunicorn = processes.start(
            "gunicorn",
            [
                sys.executable,
                "-m",
                "gunicorn",
                *(served if asgi else ["config.wsgi:application"]),
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
                "--timeout",
                "60",
            ],
            env,
            tmp_path / "gunicorn.log",
        )
        worker = processes.start(
            "celery",
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--concurrency",
                "1",
                "--loglevel",
                "WARNING",
                "--without-gossip",
                "--without-mingle",
            ],
            env,
            tmp_path / "celery.log",
        )

        def up() -> bool:
            assert gunicorn.poll() is None, (tmp_path / "gunicorn.log").read_text()[-3000:]
            assert worker.poll() is None, (tmp_path / "celery.log").read_text()[-3000:]
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                connection.request("GET", "/login/")
                return connection.getresponse().status == 200
            except OSError:
                return False

        wait_for(up, 90, "gunicorn")
        yield {
            "port": port,
            "env": env,
            "database_url": url,
            "redis": redis_server,
            "folder": tmp_path,
            "seed": json.loads((tmp_path / "seed.json").read_text()),
        }
    finally:
        processes.stop()
        if redis_server.process and redis_server.process.poll() is None:
            redis_server.kill()
        with database("postgres") as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- the clients ---------------------------------------------------------------------------


@dataclass
class Answer:
    status: int  # 0: no answer (connection refused or reset, or the client's time-out)
    headers: http.client.HTTPMessage | None
    body: bytes

    def cookies(self) -> dict[str, str]:
        jar = SimpleCookie()
        headers = self.headers.get_all("Set-Cookie") if self.headers else None
        for header in headers or []:
            jar.load(header)
        return {name: morsel.value for name, morsel in jar.items()}

    def json(self):
        return json.loads(self.body)


@dataclass
class Record:
    kind: str
    at: float  # seconds since the load started
    seconds: float
    status: int


@dataclass
class Load:
    port: int
    started: float = field(default_factory=time.monotonic)
    down_at: float | None = None
    up_at: float | None = None
    records: list[Record] = field(default_factory=list)
    told: list[dict] = field(default_factory=list)  # every move request and its answer
    problems: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # What a client sends again later (a move under the same key), and the statuses a read
    # or a chat may get besides success: a database outage adds its 503.
    retried: tuple[str, ...] = ("no answer",)
    tolerated: tuple[int, ...] = (429,)

    def now(self) -> float:
        return time.monotonic() - self.started

    def redis_down(self) -> bool:
        return self.down_at is not None and self.up_at is None

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        *,
        body: bytes | None = None,
        headers: dict | None = None,
        client: str = "10.0.0.1",
    ) -> Answer:
        headers = {"X-Forwarded-For": client, **(headers or {})}
        start = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=CLIENT_TIMEOUT)
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            answer = Answer(response.status, response.headers, response.read())
            connection.close()
        except OSError as error:
            answer = Answer(0, None, str(error).encode())
        seconds = time.monotonic() - start
        with self.lock:
            self.records.append(Record(kind, start - self.started, seconds, answer.status))
        return answer


def cookie_header(cookies: dict[str, str]) -> str:
    return "; ".join(f"{k}={v}" for k, v in cookies.items())


def form(fields: dict) -> bytes:
    return urllib.parse.urlencode(fields).encode()


FORM = "application/x-www-form-urlencoded"


class Seat:
    """One player of a seeded match: a play token and a signed-in browser session."""

    def __init__(self, spec: dict):
        self.user = spec["user"]
        self.email = spec["email"]
        self.api = {"Authorization": f"Bearer {spec['token']}"}
        self.web = {
            "Cookie": cookie_header({"sessionid": spec["session"], "csrftoken": spec["csrf"]}),
            "X-CSRFToken": spec["csrf"],
            "Content-Type": FORM,
        }


def shown_messages(answer: Answer) -> list[tuple[int, str]]:
    """The messages a redirect set for the next page (Django's cookie storage), as
    (level, text): how the web Confirm tells what became of the move. The clients never send
    the messages cookie back, so each answer's cookie holds only its own."""
    from django.contrib.messages.storage.cookie import MessageSerializer
    from django.core import signing

    value = answer.cookies().get("messages")
    if not value:
        return []
    signer = signing.TimestampSigner(
        key=b"django.http.cookies" + SECRET_KEY.encode(), salt="django.contrib.messages"
    )
    return [(m.level, m.message) for m in signer.unsign_object(value, serializer=MessageSerializer)]


class MatchPlay:
    """A match's scripted moves, sent in order by one client thread."""

    def __init__(self, spec: dict):
        self.id = spec["id"]
        self.group = spec["group"]
        self.seats = {int(n): Seat(s) for n, s in spec["seats"].items()}
        self.script = spec["script"]
        self.step = 0
        self.stuck = False
        self.played_while_down = 0

    def send(self, load: Load, path: str, seat: Seat, seq: int, command: str, key: str) -> str:
        """Send one move by `path`; what the client was told: applied, repeat, or why not."""
        if path == "api":
            answer = load.request(
                "move:api",
                "POST",
                f"/api/v1/matches/{self.id}/moves",
                body=json.dumps({"command": command, "seq": seq, "idempotency_key": key}).encode(),
                headers={**seat.api, "Content-Type": "application/json"},
            )
            if answer.status == 200:
                return "repeat" if answer.json()["duplicate"] else "applied"
            if answer.status == 0:
                return "no answer"
            try:
                return answer.json()["error"]["code"]
            except (ValueError, KeyError, TypeError):
                return f"status {answer.status}"
        answer = load.request(
            "move:web",
            "POST",
            f"/matches/{self.id}/move/",
            body=form({"command": command, "seq": seq, "token": key}),
            headers=seat.web,
        )
        if answer.status != 302:
            return "no answer" if answer.status == 0 else f"status {answer.status}"
        shown = shown_messages(answer)
        if any(level == 25 and text.startswith("Applied:") for level, text in shown):
            return "applied"
        if any(level == 20 for level, _text in shown):  # the service's "already played"
            return "repeat"
        return f"refused: {shown}"

    def play(self, load: Load, rng: random.Random) -> None:
        if self.stuck or self.step >= len(self.script):
            return
        seat_number, seq, command, _ = self.script[self.step]
        seat = self.seats[seat_number]
        path = "api" if (self.id + self.step) % 2 else "web"
        key = f"fault-{self.id}-{self.step}"
        stored_key = f"{path}:{seat.user}:{key}"
        told = self.send(load, path, seat, seq, command, key)
        entry = {"match": self.id, "step": self.step, "key": stored_key, "told": told}
        with load.lock:
            load.told.append(entry)
        if told in load.retried:
            return  # sent again under the same key next time
        if told not in ("applied", "repeat"):
            load.problems.append(f"match {self.id} step {self.step} by {path}: {told}")
            self.stuck = True
            return
        if rng.random() < 0.2:  # a client that did not see the answer sends it again
            again = self.send(load, path, seat, seq, command, key)
            with load.lock:
                load.told.append({**entry, "told": again, "retry": True})
            if again != "repeat":
                load.problems.append(f"match {self.id} step {self.step} sent again: {again}")
        self.step += 1


def mover(load: Load, matches: list[MatchPlay], seed: int) -> None:
    rng = random.Random(seed)
    while not load.stop.is_set():
        for match in matches:
            if load.stop.is_set():
                return
            if match.group == "outage":
                # Played only while Redis is down, then left: its last turn notices are
                # still owed at the end, and only the sweep can have sent them.
                if not load.redis_down() or match.played_while_down >= OUTAGE_MOVES:
                    continue
                match.played_while_down += 1
            match.play(load, rng)
            time.sleep(rng.uniform(0.15, 0.45))


def reader(load: Load, players: list[tuple[int, Seat]], seed: int) -> None:
    rng = random.Random(seed)
    while not load.stop.is_set():
        match, seat = rng.choice(players)
        path = rng.choice(
            [
                "/api/v1/matches",
                f"/api/v1/matches/{match}",
                "/api/v1/me",
                f"/api/v1/matches/{match}/legal",
                f"/api/v1/matches/{match}/chat",
            ]
        )
        answer = load.request("api:get", "GET", path, headers=seat.api)
        if answer.status != 200 and answer.status not in load.tolerated:
            load.problems.append(f"GET {path}: {answer.status}")
        time.sleep(rng.uniform(0.2, 0.5))


def chatter(load: Load, players: list[tuple[int, Seat]], seed: int) -> None:
    rng = random.Random(seed)
    n = 0
    while not load.stop.is_set():
        match, seat = rng.choice(players)
        n += 1
        if n % 2:
            answer = load.request(
                "chat:api",
                "POST",
                f"/api/v1/matches/{match}/chat",
                body=json.dumps({"text": f"api chat {n}"}).encode(),
                headers={**seat.api, "Content-Type": "application/json"},
            )
            ok = answer.status == 201
        else:
            answer = load.request(
                "chat:web",
                "POST",
                f"/matches/{match}/chat/",
                body=form({"text": f"web chat {n}"}),
                headers=seat.web,
            )
            ok = answer.status == 302
        if not ok and answer.status not in load.tolerated:
            load.problems.append(f"chat in match {match}: {answer.status}")
        time.sleep(rng.uniform(0.3, 0.6))


def post_form(load: Load, kind: str, path: str, fields: dict, client: str) -> Answer:
    """A form as a browser fills it: its page (the CSRF cookie), then the POST."""
    page = load.request("signin:page", "GET", path, client=client)
    csrf = page.cookies().get("csrftoken", "")
    return load.request(
        kind,
        "POST",
        path,
        body=form({**fields, "csrfmiddlewaretoken": csrf}),
        headers={"Cookie": cookie_header({"csrftoken": csrf}), "Content-Type": FORM},
        client=client,
    )


def sign_in(load: Load, account: dict, client: str) -> Answer:
    fields = {"username": account["email"], "password": account["password"]}
    return post_form(load, "signin:password", "/login/", fields, client)


def signer(load: Load, accounts: list[dict], seed: int) -> None:
    rng = random.Random(seed)
    n = 0
    while not load.stop.is_set():
        n += 1
        account = rng.choice(accounts)
        client = f"10.1.{n // 250}.{n % 250}"
        if n % 3 == 0:
            fields = {"email": account["email"]}
            answer = post_form(load, "signin:link", "/login/email/", fields, client)
            ok = answer.status == 200
        else:
            answer = sign_in(load, account, client)
            ok = answer.status == 302 and "sessionid" in answer.cookies()
        if not ok and answer.status != 429:
            load.problems.append(f"sign-in {n}: {answer.status}")
        time.sleep(rng.uniform(0.4, 0.8))


# --- the run -------------------------------------------------------------------------------


def latency_table(records: list[Record]) -> str:
    def quantile(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    by_kind: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        by_kind[record.kind].append(record)
    lines = [f"{'kind':<18}{'n':>6}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}  statuses"]
    for kind, rows in sorted(by_kind.items()) + [("all", records)]:
        seconds = [r.seconds for r in rows]
        statuses = dict(sorted(Counter(r.status for r in rows).items()))
        lines.append(
            f"{kind:<18}{len(rows):>6}{1e3 * statistics.median(seconds):>9.0f}"
            f"{1e3 * quantile(seconds, 0.99):>9.0f}{1e3 * max(seconds):>9.0f}  {statuses}"
        )
    return "\n".join(lines)


def run_with_an_outage(
    load: Load, threads: list, stop, start, at: float, lasting: float, seconds: float
) -> tuple[float, float]:
    """The client threads for `seconds`; `stop()` the service `at` seconds in and `start()`
    it `lasting` seconds later. The wall-clock times it went down and came back."""
    load.started = time.monotonic()
    for thread in threads:
        thread.start()
    try:
        time.sleep(at)
        stop()
        load.down_at, wall_down = load.now(), time.time()
        time.sleep(lasting)
        start()
        load.up_at, wall_up = load.now(), time.time()
        time.sleep(seconds - at - lasting)
    finally:
        load.stop.set()
        for thread in threads:
            thread.join(CLIENT_TIMEOUT + 5)
    return wall_down, wall_up


def check_database(site: dict, wall_down: float, wall_up: float, *, worker_sends: int) -> dict:
    given, out = site["folder"] / "check-in.json", site["folder"] / "check-out.json"
    given.write_text(json.dumps({"outage": [wall_down, wall_up], "worker_sends": worker_sends}))
    run([sys.executable, "-m", "tests.faults.world", "check", str(given), str(out)], site["env"])
    return json.loads(out.read_text())


def test_redis_stopped_for_20_seconds_under_load(site):
    seed = site["seed"]
    load = Load(site["port"])
    plays = [MatchPlay(spec) for spec in seed["matches"]]
    players = [(play.id, seat) for play in plays for seat in play.seats.values()]
    threads = [
        threading.Thread(target=mover, args=(load, plays[0::2], 1)),
        threading.Thread(target=mover, args=(load, plays[1::2], 2)),
        threading.Thread(target=reader, args=(load, players, 3)),
        threading.Thread(target=chatter, args=(load, players, 4)),
        threading.Thread(target=signer, args=(load, seed["accounts"], 5)),
    ]
    machine_load = [Path("/proc/loadavg").read_text().split()[0]]
    wall_down, wall_up = run_with_an_outage(
        load, threads, site["redis"].kill, site["redis"].start, OUTAGE_AT, OUTAGE_FOR, LOAD_SECONDS
    )
    load_records = list(load.records)
    machine_load.append(Path("/proc/loadavg").read_text().split()[0])

    # After: each kind of request works, with the cache in Redis again.
    account = seed["accounts"][0]
    answer = sign_in(load, account, "10.2.0.1")
    assert answer.status == 302, answer.status
    lobby = load.request(
        "after:lobby", "GET", "/lobby/", headers={"Cookie": cookie_header(answer.cookies())}
    )
    assert lobby.status == 200, lobby.status
    steady = next(p for p in plays if p.group == "steady" and not p.stuck)
    seat = next(iter(steady.seats.values()))
    assert load.request("after:api", "GET", "/api/v1/me", headers=seat.api).status == 200
    said = load.request(
        "after:chat",
        "POST",
        f"/api/v1/matches/{steady.id}/chat",
        body=b'{"text": "back"}',
        headers={**seat.api, "Content-Type": "application/json"},
    )
    assert said.status == 201, said.status
    before_after_moves = len(load.told)
    for _ in range(2):  # one move by each path
        steady.play(load, random.Random(6))
    assert [t["told"] for t in load.told[before_after_moves:] if not t.get("retry")] == [
        "applied",
        "applied",
    ], load.told[before_after_moves:]
    assert site["redis"].dbsize(1) > 0, "the cache did not go back to Redis"

    # The worker sends what was handed to it after the outage (the turn notices those two
    # moves wrote); the sweep sends what the outage left unsent.
    facts = check_database(site, wall_down, wall_up, worker_sends=steady.id)
    before_sweep = facts["before_sweep"]

    records = load.records
    print(
        f"\nfault run: Redis killed at {load.down_at:.1f} s, back at {load.up_at:.1f} s; "
        f"load average {' then '.join(machine_load)} on {os.cpu_count()} cores"
    )
    print(latency_table(records))
    by_phase = defaultdict(list)
    for r in load_records:
        phase = "up" if r.at < load.down_at else "down" if r.at < load.up_at else "back"
        by_phase[phase].append(r)
    for phase, rows in by_phase.items():
        slowest = 1e3 * max(r.seconds for r in rows)
        statuses = dict(Counter(r.status for r in rows))
        print(f"  {phase:<5} {len(rows):>5} requests, max {slowest:.0f} ms, statuses {statuses}")
    told = Counter(t["told"] for t in load.told)
    print(f"  moves told: {dict(told)}")
    print(f"  turn notices before the sweep: {before_sweep['turns']}")
    print(f"  send_outbox: {facts['sweep'].strip()}")
    print(f"  turn notices after: {facts['turns']}; all notifications: {facts['statuses']}")

    assert facts["worker_sent"], "the worker sent no turn notice after the outage"
    # 0 x 5xx.
    errors = [r for r in records if r.status >= 500 or r.status == 0]
    assert not errors, errors[:20]
    assert not load.problems, load.problems[:20]
    # The load went through the outage: each kind was answered while Redis was down.
    down_kinds = {r.kind for r in load_records if load.down_at <= r.at < load.up_at}
    assert {
        "move:api",
        "move:web",
        "chat:api",
        "chat:web",
        "signin:password",
        "signin:link",
        "api:get",
    } <= down_kinds, down_kinds

    # No move lost or doubled: the log holds exactly the moves clients were told were
    # played, each once, in the order they were sent; repeats only of those.
    applied = defaultdict(list)
    for t in load.told:
        if t["told"] == "applied":
            applied[t["match"]].append(t["key"])
    for t in load.told:
        if t["told"] == "repeat":
            assert t["key"] in applied[t["match"]], t
    for play in plays:
        logged = facts["matches"][str(play.id)]
        keys = [m["key"] for m in logged["moves"] if m["key"]]
        assert keys == applied[play.id], (play.id, keys, applied[play.id])
        assert logged["verified"], (play.id, logged["problem"])
        if play.step < len(play.script):  # the position the next move would be sent from
            assert logged["head_seq"] == play.script[play.step][1], (play.id, logged["head_seq"])

    # Turn notices: those the outage left unsent were sent by the sweep; none is left
    # waiting or failed.
    owed_during = [o for o in before_sweep["owed"] if o["when"] == "during"]
    assert owed_during, "no turn notice was written while Redis was down"
    assert all(o["status"] == "pending" for o in owed_during), owed_during
    assert all(o["status"] == "sent" for o in facts["owed"]), facts["owed"]
    left = {k: v for k, v in facts["statuses"].items() if k not in ("sent", "skipped")}
    assert not left, facts["statuses"]

    # And every request answered within the bound (last: a slow answer on a loaded machine
    # must not hide whether anything was lost).
    slow = [r for r in records if r.seconds > SLOWEST]
    assert not slow, (
        f"{len(slow)} requests over {SLOWEST} s ({dict(Counter(r.kind for r in slow))}); load "
        f"average {' then '.join(machine_load)} on {os.cpu_count()} cores: {slow[:10]}"
    )
