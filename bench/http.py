"""Benchmark 3: a move over HTTP, against gunicorn and PostgreSQL, with wrk on loopback.

For each game: matches between people (every seat a user with an API token) are started
in the bench database; gunicorn serves the site (DEBUG off, as in production); wrk, on
127.0.0.1 only and for a fixed number of seconds, submits legal moves (command "1", the first
entry of the numbered menu, with the seq the player saw and an idempotency key) through
POST /api/matches/<pk>/moves/ over 100 active matches (bench/wrk/pbm.lua). When a match
ends, a reserve match takes its place.

In the same run, at the same concurrency and over the same matches, wrk drives two floors
that do a move's essential work (lock the match row, insert one row, commit; bench/floors.py):
a minimal Django view in the same gunicorn, and a raw-SQL WSGI app in a gunicorn of its own
with as many workers. Both floors run just before each game's moves, and that game's moves
per second and latency are given as ratios to them (the load of a shared box changes
within minutes). The workers
share the position cache through Redis when CACHE_URL (or BENCH_CACHE_URL) names one, as in
production; wrk's connections are not tied to a worker (no sticky routing).

    uv run python -m bench.http [--quick] [--game SLUG] [--seconds S] [--connections C]
"""

from __future__ import annotations

import argparse
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
import urllib.request

from bench.common import RESULTS, ROOT, bench_seed, games, report, table
from bench.db import bench_database

LUA = ROOT / "bench" / "wrk" / "pbm.lua"
CACHE_URL = os.environ.get("BENCH_CACHE_URL") or os.environ.get("CACHE_URL", "")


def broker_url(cache_url: str) -> str:
    """Where the workers publish their notification tasks, as in production: Redis (the
    cache's server, the next database number) when the cache is in Redis; BENCH_BROKER_URL
    overrides. Nothing consumes them during the run; `drain_broker` drops them after it."""
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gunicorn:
    """gunicorn on 127.0.0.1 with the bench database; stopped (by its own pid) on exit."""

    def __init__(self, url: str, workers: int, app: str = "bench.wsgi:application"):
        self.port = free_port()
        self.name = app.split(":")[0]
        env = dict(os.environ)
        env.update(
            DATABASE_URL=url,
            DJANGO_DEBUG="false",
            DJANGO_SECRET_KEY=os.environ["DJANGO_SECRET_KEY"],  # the tokens' and sessions'
            SECURE_SSL_REDIRECT="false",
            DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
            SITE_URL=f"http://127.0.0.1:{self.port}",
            CELERY_BROKER_URL=BROKER_URL,
            CACHE_URL=CACHE_URL,
            BENCH_RAW_DATABASE_URL=url,
            LOG_LEVEL="WARNING",
        )
        self.log = open(RESULTS / f"gunicorn-{self.name}.log", "w")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                app,
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
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def __enter__(self) -> Gunicorn:
        deadline = time.time() + 180  # four workers importing Django on a loaded box
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited; see {RESULTS}/gunicorn-{self.name}.log")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=2).read()
                return self
            except urllib.error.HTTPError:  # it answers (the raw floor has no page at /)
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


CPU_GROUPS = (("gunicorn", "web"), ("postgres", "postgres"), ("redis-server", "redis"))


def cpu_seconds_by_group() -> dict[str, float]:
    """CPU seconds (user + system) used so far by the web workers, PostgreSQL and Redis, and by
    the whole box (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    totals: dict[str, float] = {}
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
        name = next((g for key, g in CPU_GROUPS if key in command), None)
        if name:
            # Its own time and its reaped children's (cutime, cstime): a PostgreSQL backend
            # or gunicorn worker that exits mid-run moves from its own line to its parent's.
            used = sum(int(n) for n in fields[11:15])
            totals[name] = totals.get(name, 0.0) + used / tick
    with open("/proc/stat") as f:  # the whole box, processes that ended included
        jiffies = [int(n) for n in f.readline().split()[1:9]]
    busy = sum(jiffies) - jiffies[3] - jiffies[4]  # all but idle and iowait
    totals["box"] = busy / tick
    return totals


def wrk(port: int, args: list[str], *, seconds: float, connections: int) -> dict:
    command = [
        "wrk",
        f"-t{connections}",
        f"-c{connections}",
        f"-d{max(1, round(seconds))}s",
        "--timeout",
        "10s",
        "-s",
        str(LUA),
        f"http://127.0.0.1:{port}",
        "--",
        *args,
    ]
    before = cpu_seconds_by_group()
    out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    after = cpu_seconds_by_group()
    line = next((x for x in out.stdout.splitlines() if x.startswith("JSON ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no figures:\n{out.stdout}\n{out.stderr}")
    figures = json.loads(line[5:])
    figures["per_s"] = figures["requests"] / (figures["duration_us"] / 1e6)
    figures["connections"] = connections
    figures["cpu_s"] = {g: after.get(g, 0.0) - before.get(g, 0.0) for g in after}
    serving = sum(figures["cpu_s"].get(g, 0.0) for g in ("web", "postgres", "redis"))
    figures["cpu_s"]["rest"] = figures["cpu_s"]["box"] - serving  # wrk and anything else
    return figures


def users(count: int, prefix: str) -> list:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    return [
        User.objects.create_user(
            username=f"{prefix}{n}@bench.invalid", email=f"{prefix}{n}@bench.invalid"
        )
        for n in range(count)
    ]


def asked_per_match(game, players: int) -> float:
    from games.engine import playout

    runs = [
        playout.play(game, players, seed=bench_seed(f"bench-http-estimate:{n}")) for n in range(3)
    ]
    return sum(r.asked for r in runs) / len(runs)


def start_matches(game, players: int, count: int) -> list[dict]:
    """`count` started matches between people, and for each the moves wrk will send.

    The script of each match is worked out here, the way the platform plays it: forced
    decisions resolve themselves, and each person answers with the first legal move, as
    "1" (the first entry of the numbered menu) or, when there is no numbered menu (too long
    to number, or a number is the game's own command there, as New England's "3" cards),
    as the game's own command for that move.
    """
    from games import services
    from games.api import api_token
    from games.commands import menu
    from games.engine import event_rng, next_automatic
    from games.models import Match
    from games.selectors import load_state

    people = users(players, f"{game.slug}-")
    tokens = {u.pk: api_token(u) for u in people}
    out = []
    for n in range(count):
        match = services.create_match(
            creator=people[0],
            game_slug=game.slug,
            players=players,
            seed=bench_seed(f"bench-http:{n}"),
        )
        for user in people[1:]:
            services.join_match(match_id=match.pk, user=user)
        match = Match.objects.get(pk=match.pk)
        if match.status != "active":
            continue
        state, seq, script = load_state(match), match.head_seq, []
        while game.result(state) is None:
            automatic = next_automatic(game, state)
            if automatic is not None:
                seat, move = automatic.seat, automatic.move
            else:
                seat = game.to_act(state)[0]
                legal = game.legal_moves(state, seat)
                move = legal[0]
                command = "1" if menu(game, state, seat) else game.format_move(state, seat, move)
                script.append((seat, seq, command))
            seq += 1
            state = game.apply(state, seat, move, event_rng(match.seed, seq))
        seats = {s.number: tokens[s.user_id] for s in match.seats.all()}
        out.append({"id": match.pk, "tokens": seats, "script": script})
    return out


def lua_data(matches: list[dict]) -> str:
    def entry(m: dict) -> str:
        tokens = ", ".join(f'[{seat}] = "{token}"' for seat, token in m["tokens"].items())
        moves = ", ".join(
            f"{{{seat}, {seq}, [==[{json.dumps(command)}]==]}}"
            for seat, seq, command in m["script"]
        )
        return f"  {{id = {m['id']}, tokens = {{{tokens}}}, moves = {{{moves}}}}},"

    return "return {\n" + "\n".join(entry(m) for m in matches) + "\n}\n"


def row(label: str, run: dict, moves_per_s: float, base: dict) -> list:
    return [
        label,
        run["requests"],
        f"{moves_per_s:,.0f}",
        f"{run['p50_us'] / 1e3:,.1f}",
        f"{run['p99_us'] / 1e3:,.1f}",
        run["errors"] + run["socket_errors"] + run.get("idle", 0),
        f"{moves_per_s / base['django']['per_s']:.2f}",
        f"{moves_per_s / base['raw']['per_s']:.2f}",
        f"{run['p50_us'] / base['django']['p50_us']:.2f}",
        f"{run['p99_us'] / base['django']['p99_us']:.2f}",
    ]


def serving_ms(run: dict) -> float:
    """CPU ms the web workers, PostgreSQL and Redis spent per request of `run`."""
    count = run.get("moves") or run["requests"]
    return sum(run["cpu_s"].get(g, 0.0) for g in ("web", "postgres", "redis")) * 1e3 / count


def cpu_row(label: str, run: dict, floors: dict) -> list:
    count = run.get("moves") or run["requests"]
    per = {g: run["cpu_s"].get(g, 0.0) * 1e3 / count for g in ("web", "postgres", "redis", "rest")}
    run["cpu_ms_per_request"] = per
    return [
        label,
        f"{per['web']:.2f}",
        f"{per['postgres']:.2f}",
        f"{per['redis']:.2f}",
        f"{per['rest']:.2f}",
        f"{serving_ms(run) / serving_ms(floors['django']):.2f}",
    ]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--game", action="append", help="only this slug (repeatable)")
    parser.add_argument("--seconds", type=float, default=None, help="per wrk run")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--active", type=int, default=None, help="active matches (100)")
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk (bench/run_all.sh does)")
    seconds = args.seconds or (1.0 if args.quick else 10.0)
    active = args.active or (4 if args.quick else 100)
    connections = min(args.connections, active)
    chosen = [g for g in games() if not args.game or g.slug in args.game]
    if not args.game and any(g.slug != "sealed-cards" for g in chosen) and not args.quick:
        # The test game ends after a few moves; the real ones are what a move costs.
        chosen = [g for g in chosen if g.slug != "sealed-cards"]
    RESULTS.mkdir(parents=True, exist_ok=True)
    # API tokens are signed here and checked by gunicorn: one key for both.
    os.environ["DJANGO_SECRET_KEY"] = "bench-" + os.urandom(24).hex()
    figures: dict = {
        "seconds": seconds,
        "connections": connections,
        "active": active,
        "workers": args.workers,
        "position_cache": "redis" if CACHE_URL.startswith("redis") else "per process",
        "broker": "redis" if BROKER_URL.startswith("redis") else "in memory (no Redis given)",
    }
    if CACHE_URL:  # the matches started here leave their positions where gunicorn reads them
        os.environ["CACHE_URL"] = CACHE_URL
    with bench_database() as url:
        from bench.floors import create_table

        create_table()
        plans = []
        for game in chosen:
            players = game.min_players
            asked = max(1.0, asked_per_match(game, players))
            # Enough matches to keep `active` of them going for the whole run at up to 800
            # moves per second; a short game needs a reserve.
            wanted = min(active + 2000, max(active, math.ceil(seconds * 800 / asked)))
            matches = start_matches(game, players, 8 if args.quick else wanted)
            data = RESULTS / f"wrk-{game.slug}.lua"
            data.write_text(lua_data(matches))
            plans.append((game, players, len(matches), data, matches))
        ids = ",".join(str(m["id"]) for m in plans[0][4][:active])
        rows, cpu_rows = [], []
        with (
            Gunicorn(url, args.workers) as server,
            Gunicorn(url, args.workers, app="bench.floors:raw_application") as raw,
        ):
            floor_ports = (("django", server.port, "/bench/floor/"), ("raw", raw.port, "/floor/"))
            for _name, port, prefix in floor_ports:
                wrk(port, ["post", prefix, ids], seconds=1, connections=1)  # warm up
            for game, players, count, data, _ in plans:
                # The floors again just before each game's moves: on a shared box the load
                # changes within minutes, and each ratio is to the floors next to it.
                floors = {
                    name: wrk(port, ["post", prefix, ids], seconds=seconds, connections=connections)
                    for name, port, prefix in floor_ports
                }
                run = wrk(
                    server.port,
                    ["moves", str(data), str(active), str(connections)],
                    seconds=seconds,
                    connections=connections,
                )
                run.update(game=game.slug, players=players, matches=count, floors=floors)
                run["per_s"] = run["moves"] / (run["duration_us"] / 1e6)
                figures.setdefault("moves", []).append(run)
                rows += [
                    row(
                        f"floor: {label}, before {game.slug}",
                        floors[name],
                        floors[name]["per_s"],
                        floors,
                    )
                    for name, label in (
                        ("django", "minimal Django view"),
                        ("raw", "raw-SQL WSGI app"),
                    )
                ]
                label = f"moves: {game.slug} ({players} players, {min(active, count)} active)"
                rows.append(row(label, run, run["per_s"], floors))
                cpu_rows += [
                    cpu_row(f"floor: {name}, before {game.slug}", floors[name], floors)
                    for name in ("django", "raw")
                ]
                cpu_rows.append(cpu_row(f"moves: {game.slug}", run, floors))
        drain_broker()
    text = (
        f"gunicorn {args.workers} sync workers (the moves and the Django floor in one, the raw "
        f"floor in another), position cache: {figures['position_cache']}, notification tasks "
        f"published to a broker: {figures['broker']}, wrk {connections} "
        f"connections, {seconds:.0f} s per run, 127.0.0.1, load average at the end "
        f"{os.getloadavg()[0]:.1f}\n\n"
        + table(
            [
                "requests",
                "count",
                "per second",
                "p50 ms",
                "p99 ms",
                "errors",
                "per s ÷ Django floor",
                "per s ÷ raw floor",
                "p50 ÷ Django floor",
                "p99 ÷ Django floor",
            ],
            rows,
        )
    )
    text += (
        "\n\nCPU per request, in ms, from /proc over each wrk run: the web workers (both "
        "gunicorns), PostgreSQL, Redis, and the rest of the box (wrk and anything else running); "
        "the last column is the serving side (web + PostgreSQL + Redis) over the Django floor's "
        "just before it. Unlike requests per second, it barely depends on what else the box "
        "is doing.\n\n"
        + table(
            [
                "requests",
                "web ms",
                "PostgreSQL ms",
                "Redis ms",
                "rest of the box ms",
                "serving ms ÷ Django floor's",
            ],
            cpu_rows,
        )
    )
    title = "A move over HTTP against its floors (gunicorn + PostgreSQL, wrk)"
    report("http", title, text, figures)
    return figures


if __name__ == "__main__":
    main()
