"""Benchmark 3: a move by each path players use, each against its floor in the same run.

For each game, matches between people are started in the bench database (each match with
accounts of its own) and each one's script of legal moves is worked out (bench.moves). Then,
game by game:

- the web Confirm and API v1, against gunicorn (4 sync workers, DEBUG off, as in
  production) with wrk on 127.0.0.1 for a fixed number of seconds over 32 active matches
  (bench/wrk/pbm.lua): POST /matches/<id>/move/ as a form with a signed-in session's cookie
  and the CSRF token, and POST /api/v1/matches/<id>/moves as JSON with a play token. Their
  floor, run just before them at the same concurrency over the same matches: a minimal
  Django view in the same gunicorn that locks the match row and inserts one row
  (bench/floors.py).
- an email reply, as an MTA delivers it: one `manage.py receive_email` process per message,
  several at a time (bench/mta.py). Its floor, run side by side with it: as many `manage.py
  bench_floor` processes at a time, each reading its message and locking and inserting one
  row. A process's start (Python, Django's setup and system checks) is most of both.

The workers share the position cache through Redis when CACHE_URL (or BENCH_CACHE_URL) names
one, and then publish the notification tasks to Redis too (the next database number, or
BENCH_BROKER_URL), as in production; wrk's connections are not tied to a worker (no sticky
routing). Each run's moves are the ones the database holds afterwards, so a move a path
answered without playing it counts as an error. The queries per move are counted in this
process on matches of their own (Django's test client, `inbound.receive_raw`): every
statement of the request, and those of `submit_move` among them.

    uv run python -m bench.http [--quick] [--game SLUG] [--path web|api|email]
        [--seconds S] [--connections C] [--workers W] [--active N] [--pipes P]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from bench import mta
from bench.common import RESULTS, ROOT, bench_seed, games, report, table
from bench.db import bench_database
from bench.moves import API_URL, PATHS, WEB_URL, Player, api_key, start_matches, web_session

LUA = ROOT / "bench" / "wrk" / "pbm.lua"
CACHE_URL = os.environ.get("BENCH_CACHE_URL") or os.environ.get("CACHE_URL", "")
# The matches are provisioned for this share of the floor's moves per second, more than a
# path reaches: a run never runs out of them (a wrk thread without one sends idle requests).
PROVISION_SHARE = 0.4
TRANSACTION_CONTROL = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def broker_url(cache_url: str) -> str:
    """Where the notification tasks go, as in production: Redis (the cache's server, the
    next database number) when the cache is in Redis; BENCH_BROKER_URL overrides. Nothing
    consumes them during the run; `drain_broker` drops them after it."""
    if os.environ.get("BENCH_BROKER_URL"):
        return os.environ["BENCH_BROKER_URL"]
    if not cache_url.startswith("redis"):
        return "memory://"
    base, _, db = cache_url.rpartition("/")
    return f"{base}/{int(db) + 1 if db.isdigit() else 1}"


BROKER_URL = broker_url(CACHE_URL)


def drain_broker() -> None:
    """Drop the tasks the run published (Celery's default queue) from the bench's broker."""
    if BROKER_URL.startswith("redis"):
        import redis

        redis.Redis.from_url(BROKER_URL).delete("celery")


def site_env(url: str, site: str = "http://127.0.0.1") -> dict:
    """The environment of the site's processes (gunicorn, manage.py) on the bench database."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="bench.settings",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=os.environ["DJANGO_SECRET_KEY"],  # tokens, sessions, reply addresses
        SECURE_SSL_REDIRECT="false",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        SITE_URL=site,
        CELERY_BROKER_URL=BROKER_URL,
        CACHE_URL=CACHE_URL,
        LOG_LEVEL="WARNING",
    )
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gunicorn:
    """gunicorn on 127.0.0.1 with the bench database; stopped (by its own pid) on exit."""

    def __init__(self, url: str, workers: int):
        self.port = free_port()
        database = urllib.parse.urlsplit(url).path.lstrip("/")
        self.marks = {"web": f"127.0.0.1:{self.port}", "postgres": f" {database} "}
        self.log = open(RESULTS / "gunicorn.log", "w")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "bench.wsgi:application",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(workers),
                "--worker-class",
                "sync",
                "--log-level",
                "warning",
                # A worker importing Django on a saturated box may take longer than the
                # default 30 s to boot; gunicorn would kill it and start again forever.
                "--timeout",
                "300",
            ],
            cwd=ROOT,
            env=site_env(url, f"http://127.0.0.1:{self.port}"),
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def __enter__(self) -> Gunicorn:
        deadline = time.time() + 180  # four workers importing Django on a loaded box
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited; see {RESULTS}/gunicorn.log")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=2).read()
                return self
            except urllib.error.HTTPError:  # it answers
                return self
            except OSError:
                time.sleep(0.3)
        self.__exit__()  # stop it: a gunicorn left behind would load the box for hours
        raise RuntimeError("gunicorn did not answer within 180 s")

    def __exit__(self, *exc) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def cpu_seconds(marks: dict[str, str]) -> dict[str, dict[int, float]]:
    """CPU seconds (user + system, reaped children's included) used so far by each process
    whose command line holds a group's mark, by group and pid (Linux /proc). The marks pick
    this run's own processes on a box others use too: gunicorn's by its port, PostgreSQL's
    backends by the bench database's name in their process title."""
    tick = os.sysconf("SC_CLK_TCK")
    found: dict[str, dict[int, float]] = {group: {} for group in marks}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # it ended meanwhile
            continue
        for group, mark in marks.items():
            if mark in command:
                found[group][int(pid)] = sum(int(n) for n in fields[11:15]) / tick
    return found


def cpu_used(before: dict, after: dict) -> dict[str, float]:
    """Per group, the CPU seconds used between two readings (a process started meanwhile
    counts from zero; one that ended meanwhile is lost)."""
    return {
        group: sum(spent - before[group].get(pid, 0.0) for pid, spent in pids.items())
        for group, pids in after.items()
    }


def wrk(server: Gunicorn, args: list[str], seconds: float, connections: int) -> dict:
    command = [
        "wrk",
        f"-t{connections}",
        f"-c{connections}",
        f"-d{max(1, round(seconds))}s",
        "--timeout",
        "10s",
        "-s",
        str(LUA),
        f"http://127.0.0.1:{server.port}",
        "--",
        *args,
    ]
    before = cpu_seconds(server.marks)
    out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    used = cpu_used(before, cpu_seconds(server.marks))
    line = next((x for x in out.stdout.splitlines() if x.startswith("JSON ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no figures:\n{out.stdout}\n{out.stderr}")
    figures = json.loads(line[5:])
    figures["refusals"] = [x for x in out.stdout.splitlines() if x.startswith("move refused")]
    figures["per_s"] = figures["requests"] / (figures["duration_us"] / 1e6)
    figures["errors"] += figures["socket_errors"]
    if args[0] == "post":  # the floor: every answered request is its move
        figures["moves"] = figures["requests"] - figures["errors"]
    figures["cpu_ms"] = {g: 1e3 * t / max(1, figures["moves"]) for g, t in used.items()}
    return figures


def asked_per_match(game, players: int) -> float:
    from games.engine import playout

    runs = [
        playout.play(game, players, seed=bench_seed(f"bench-http-estimate:{n}")) for n in range(3)
    ]
    return max(1.0, sum(r.asked for r in runs) / len(runs))


def lua_data(matches: list[dict], path: str) -> str:
    """Each match's URL, its seats' headers and its moves' bodies, as a Lua table."""

    def quoted(text: str) -> str:
        return f"[==[{text}]==]"

    def entry(m: dict) -> str:
        headers = {}
        for seat, user in m["users"].items():
            if path == "web":
                session, csrf = web_session(user)
                fields = {
                    "Cookie": f"sessionid={session}; csrftoken={csrf}",
                    "X-CSRFToken": csrf,
                    "Content-Type": "application/x-www-form-urlencoded",
                }
            else:
                fields = {
                    "Authorization": f"Bearer {api_key(user)}",
                    "Content-Type": "application/json",
                }
            pairs = ", ".join(f'["{k}"] = {quoted(v)}' for k, v in fields.items())
            headers[seat] = f"[{seat}] = {{{pairs}}}"
        bodies = []
        for seat, seq, command, key in m["script"]:
            if path == "web":
                body = urllib.parse.urlencode({"command": command, "seq": seq, "token": key})
            else:
                body = json.dumps({"command": command, "seq": seq, "idempotency_key": key})
            bodies.append(f"{{{seat}, {quoted(body)}}}")
        url = (WEB_URL if path == "web" else API_URL).format(id=m["id"])
        return (
            f'  {{url = "{url}", headers = {{{", ".join(headers.values())}}}, '
            f"moves = {{{', '.join(bodies)}}}}},"
        )

    return "return {\n" + "\n".join(entry(m) for m in matches) + "\n}\n"


def count_queries(game, players: int, path: str, moves: int) -> dict:
    """Statements per move by `path`, in this process, on matches of its own: the whole
    request's, and `submit_move`'s among them (transaction control not counted)."""
    from django.db import connection

    from games import services

    matches = start_matches(game, players, 1, label=f"count-{path}")
    length = max(1, len(matches[0]["script"]))
    matches += start_matches(game, players, math.ceil(moves / length), label=f"more-{path}")
    player = Player(path)
    if path != "email":
        for m in matches:
            for user in m["users"].values():
                player.client(user)  # the session or the token made before, as in play
    sent: list[str] = []

    def keep(execute, sql, params, many, context):
        if not sql.startswith(TRANSACTION_CONTROL):
            sent.append(sql)
        return execute(sql, params, many, context)

    submit, inner, whole = services.submit_move, [], []

    def counted_submit(**arguments):
        before = len(sent)
        try:
            return submit(**arguments)
        finally:
            inner.append(len(sent) - before)

    services.submit_move = counted_submit
    try:
        for m in matches:
            for seat, seq, command, key in m["script"][: moves - len(whole)]:
                before = len(sent)
                with connection.execute_wrapper(keep):
                    answer = player.send(m, seat, seq, command, key)
                if not player.played(answer):
                    raise RuntimeError(f"{path}: {game.slug}: {command!r} was not played")
                whole.append(len(sent) - before)
    finally:
        services.submit_move = submit
    return {
        "moves": len(whole),
        "request": sum(whole) / len(whole),
        "submit_move": sum(inner) / len(inner),
        "max": max(whole),
    }


def check(run: dict, matches: list[dict], path: str) -> None:
    """Count as errors the moves the path answered as played that the database does not
    hold (the web Confirm answers a refusal with the same redirect). It may hold a few
    more: the requests in flight when wrk stopped."""
    from games.models import Move

    ids = [m["id"] for m in matches]
    run["applied"] = Move.objects.filter(match_id__in=ids, source=path).count()
    run["errors"] += max(0, run["moves"] - run["applied"])


def prepare(game, paths: list[str], args, server: Gunicorn | None) -> dict:
    """A game's matches for each path (the active ones, then enough in reserve for the
    run), wrk's data files, and the queries per move."""
    players = game.min_players
    plan: dict = {"game": game, "players": players, "matches": {}, "queries": {}}
    t = time.perf_counter()
    for path in paths:
        window = args.pipes if path == "email" else args.active
        plan["matches"][path] = start_matches(game, players, window, label=path)
    if args.quick:
        expected = dict.fromkeys(paths, 0.0)  # a reserve as large as the window
    else:
        # Moves per second to provision for: more than the paths reach. The HTTP ones from
        # a short run of their floor; an email lane from one process a second.
        rate = 0.0
        if server is not None:
            floor = ["post", "/bench/floor/", floor_ids(plan, args.active)]
            probe = wrk(server, floor, 2, args.connections)
            rate = PROVISION_SHARE * probe["per_s"]
        expected = {p: args.pipes if p == "email" else rate for p in paths}
    asked = asked_per_match(game, players)
    for path in paths:
        window = len(plan["matches"][path])
        reserve = window if args.quick else math.ceil(expected[path] * args.seconds / asked)
        more = start_matches(game, players, reserve, label=f"{path}-reserve")
        plan["matches"][path] += more
        if path != "email":
            data = RESULTS / f"wrk-{game.slug}-{path}.lua"
            data.write_text(lua_data(plan["matches"][path], path))
            plan[f"data-{path}"] = data
        plan["queries"][path] = count_queries(game, players, path, 3 if args.quick else 12)
    started = ", ".join(f"{p} {len(m)}" for p, m in plan["matches"].items())
    print(
        f"{game.slug}: matches started ({started}) in {time.perf_counter() - t:.0f} s",
        file=sys.stderr,
        flush=True,
    )
    return plan


def floor_ids(plan: dict, active: int) -> str:
    """The floor's matches: the first path's active ones, comma separated."""
    return ",".join(str(m["id"]) for m in next(iter(plan["matches"].values()))[:active])


def run_http(server: Gunicorn, plan: dict, paths: list[str], args, figures: dict) -> None:
    """The floor, then each HTTP path, for one game."""
    floor = ["post", "/bench/floor/", floor_ids(plan, args.active)]
    base = wrk(server, floor, args.seconds, args.connections)
    record(figures, plan, "floor: Django view", base, base)
    for path in paths:
        matches = plan["matches"][path]
        window = min(args.active, len(matches))
        status = "302" if path == "web" else "200"  # the Confirm redirects to the match
        script = ["moves", str(plan[f"data-{path}"]), str(window), str(args.connections), status]
        run = wrk(server, script, args.seconds, args.connections)
        check(run, matches, path)
        run["per_s"] = run["moves"] / (run["duration_us"] / 1e6)
        record(figures, plan, path, run, base)


def run_email(url: str, plan: dict, args, figures: dict) -> None:
    """The email path and its floor side by side, `args.pipes` processes at a time each,
    for one game."""
    matches = plan["matches"]["email"]
    message = next(mta.email_jobs(matches[:1]))[1]
    ids = [m["id"] for m in matches]
    lanes = {
        "floor": [mta.floor_jobs(ids[n :: args.pipes], message) for n in range(args.pipes)],
        "email": [mta.email_jobs(matches[n :: args.pipes]) for n in range(args.pipes)],
    }
    done = mta.run(lanes, seconds=args.seconds, env=site_env(url))
    record(figures, plan, "floor: manage.py", done["floor"], done["floor"])
    check(done["email"], matches, "email")
    record(figures, plan, "email", done["email"], done["floor"])


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--game", action="append", help="only this slug (repeatable)")
    parser.add_argument("--path", action="append", choices=PATHS, help="only this path")
    parser.add_argument("--seconds", type=float, default=None, help="per run (10)")
    parser.add_argument("--connections", type=int, default=8, help="wrk's")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--active", type=int, default=None, help="active matches (32)")
    parser.add_argument(
        "--pipes", type=int, default=None, help="manage.py processes at a time, each kind (2)"
    )
    args = parser.parse_args(argv)
    paths = [p for p in PATHS if not args.path or p in args.path]
    http = [p for p in paths if p != "email"]
    if http and shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk (bench/run_all.sh does)")
    args.seconds = args.seconds or (1.0 if args.quick else 10.0)
    args.active = args.active or (4 if args.quick else 32)
    args.pipes = args.pipes or 2
    args.connections = min(args.connections, args.active)
    chosen = [g for g in games() if not args.game or g.slug in args.game]
    RESULTS.mkdir(parents=True, exist_ok=True)
    # Sessions, tokens and reply addresses are signed here and checked by the site's
    # processes: one key for all. This process counts queries with the site's settings.
    os.environ.update(
        DJANGO_SECRET_KEY="bench-" + os.urandom(24).hex(),
        DJANGO_DEBUG="false",
        SECURE_SSL_REDIRECT="false",
        CELERY_BROKER_URL=BROKER_URL,
        CACHE_URL=CACHE_URL,  # the matches started here leave their positions in it
    )
    figures: dict = {
        "seconds": args.seconds,
        "connections": args.connections,
        "active": args.active,
        "workers": args.workers,
        "pipes": args.pipes,
        "position_cache": "redis" if CACHE_URL.startswith("redis") else "per process",
        "broker": "redis" if BROKER_URL.startswith("redis") else "in memory (no Redis given)",
        "runs": [],
    }
    started = time.perf_counter()
    with bench_database() as url:
        from bench.floors import create_table

        create_table()
        plans = []
        with Gunicorn(url, args.workers) if http else contextlib.nullcontext() as server:
            for game in chosen:
                plan = prepare(game, paths, args, server)
                plans.append(plan)
                if http:
                    if len(plans) == 1:  # warm up
                        wrk(server, ["post", "/bench/floor/", floor_ids(plan, args.active)], 1, 1)
                    run_http(server, plan, http, args, figures)
        if "email" in paths:
            for plan in plans:
                run_email(url, plan, args, figures)
        drain_broker()
    figures["wall_s"] = time.perf_counter() - started
    report("http", "A move by each path players use, against its floor", summary(figures), figures)
    return figures


def record(figures: dict, plan: dict, path: str, run: dict, base: dict) -> None:
    run.update(
        game=plan["game"].slug,
        players=plan["players"],
        path=path,
        floor_per_s=base["per_s"],
        ratio=run["per_s"] / base["per_s"] if base["per_s"] else float("nan"),
        queries=plan["queries"].get(path),
    )
    if "cpu_ms" in run:
        run["serving_ms"] = run["cpu_ms"]["web"] + run["cpu_ms"]["postgres"]
        base_ms = base["cpu_ms"]["web"] + base["cpu_ms"]["postgres"]
        run["serving_ratio"] = run["serving_ms"] / base_ms if base_ms else float("nan")
    figures["runs"].append(run)


def summary(figures: dict) -> str:
    rows, cpu_rows = [], []
    for run in figures["runs"]:
        queries = run["queries"]
        floor = run["path"].startswith("floor")
        rows.append(
            [
                f"{run['game']} ({run['players']})",
                run["path"],
                run["moves"],
                f"{run['per_s']:,.1f}" if run["per_s"] >= 10 else f"{run['per_s']:.3f}",
                f"{run['p50_us'] / 1e3:,.0f}",
                f"{run['p99_us'] / 1e3:,.0f}",
                f"{run['errors']}" + (f" ({run['idle']} idle)" if run.get("idle") else ""),
                "" if floor else f"**{run['ratio']:.2f}**",
                f"{queries['request']:.1f} ({queries['submit_move']:.1f})" if queries else "",
            ]
        )
        if "cpu_ms" in run:
            cpu = run["cpu_ms"]
            cpu_rows.append(
                [
                    run["game"],
                    run["path"],
                    f"{cpu['web']:.1f}",
                    f"{cpu['postgres']:.1f}",
                    "" if floor else f"{run['serving_ratio']:.2f}",
                ]
            )
    http = (
        f"Web Confirm and API v1: gunicorn {figures['workers']} sync workers, position cache "
        f"{figures['position_cache']}, tasks to a broker: {figures['broker']}, wrk "
        f"{figures['connections']} connections over {figures['active']} active matches on "
        "127.0.0.1. "
    )
    email = (
        f"Email: {figures['pipes']} `manage.py receive_email` and as many `bench_floor` "
        "processes at a time, side by side. "
    )
    paths = {r["path"] for r in figures["runs"]}
    text = (
        (http if "floor: Django view" in paths else "")
        + (email if "email" in paths else "")
        + f"{figures['seconds']:.0f} s per run; {figures['wall_s']:.0f} s in all; load average "
        f"at the end {os.getloadavg()[0]:.1f}. Queries per move: the whole request's (for an "
        "email, the whole message's), `submit_move`'s in brackets.\n\n"
        + table(
            [
                "game (players)",
                "path",
                "moves",
                "moves/s",
                "p50 ms",
                "p99 ms",
                "errors (idle)",
                "÷ floor",
                "queries per move",
            ],
            rows,
        )
    )
    if cpu_rows:
        text += (
            "\n\nCPU ms per move of the HTTP paths, from /proc over each wrk run: this run's "
            "gunicorn and the PostgreSQL backends of its database; the last column is both "
            "over the floor's just before, which moves less with what else the box does.\n\n"
            + table(["game", "path", "web", "PostgreSQL", "CPU ÷ floor"], cpu_rows)
        )
    return text


if __name__ == "__main__":
    main()
