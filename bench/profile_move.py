"""Where a move spends its time on the web Confirm and on API v1, in-process.

Django's test client (no network, no gunicorn) against the bench PostgreSQL database, with
the site's production settings (DEBUG off), the position cache in Redis when CACHE_URL or
BENCH_CACHE_URL names one, and the same requests bench.http sends (bench.moves): for each
path, the CPU per move of this process and of its PostgreSQL backend, the SQL of one move
with each statement's time, and cProfile's top functions.

    uv run python -m bench.profile_move [--game SLUG] [--path web|api] [--moves N] [--quick]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import time

from bench.common import ROOT, games, report, table
from bench.db import bench_database
from bench.http import CACHE_URL

PROJECT = ("games/", "notifications/", "api/", "players/", "config/", "community/")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--game", default=None, help="slug (default: the first real game)")
    parser.add_argument("--path", action="append", choices=("web", "api"), help="repeatable")
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--dump", help="also write each path's cProfile stats to DUMP.<path>")
    args = parser.parse_args(argv)
    os.environ.update(
        DJANGO_SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY", "bench-" + os.urandom(24).hex()),
        DJANGO_DEBUG="false",
        SECURE_SSL_REDIRECT="false",
        CACHE_URL=CACHE_URL,  # the position cache in Redis when given, as bench.http's
    )
    chosen = [g for g in games() if g.slug == args.game] if args.game else games()
    game = next((g for g in chosen if g.slug != "sealed-cards"), chosen[0])
    moves = 6 if args.quick else args.moves
    figures: dict = {"game": game.slug, "moves": moves, "paths": {}}
    text = ""
    with bench_database():
        for path in args.path or ["web", "api"]:
            figures["paths"][path], section = profile(game, path, moves, args.dump)
            text += section
    report(
        "profile_move", "Profile of one move, web Confirm and API v1 (in-process)", text, figures
    )
    return figures


def profile(game, path: str, moves: int, dump: str | None) -> tuple[dict, str]:
    from django.db import connection

    from bench.moves import Player, start_matches

    # Every block below plays `moves` moves from matches of their own, round robin (so each
    # account stays within the API's budget of 120 requests a minute).
    blocks = 3
    matches = start_matches(game, game.min_players, 4, label=f"profile-{path}")
    length = min(len(m["script"]) for m in matches)
    more = max(0, -(-(blocks * moves + 8) // max(1, length)) - len(matches))
    matches += start_matches(game, game.min_players, more, label=f"profile-{path}-more")
    player = Player(path)
    for m in matches:
        for user in m["users"].values():
            player.client(user)
    sent = [0]

    def move() -> None:
        live = [m for m in matches if m["script"]]
        m = live[sent[0] % len(live)]
        sent[0] += 1
        seat, seq, command, key = m["script"].pop(0)
        answer = player.send(m, seat, seq, command, key)
        assert player.played(answer), (path, command, getattr(answer, "content", b"")[:300])

    for _ in range(4):  # warm: the first requests import and build what later ones reuse
        move()
    captured: list[tuple[float, str]] = []

    def record(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            captured.append((time.perf_counter() - started, sql))

    with connection.execute_wrapper(record):
        move()
    backend = backend_pid(connection)
    started, cpu, pg_cpu = time.perf_counter(), time.process_time(), cpu_seconds(backend)
    for _ in range(moves):
        move()
    per_move = (time.perf_counter() - started) / moves
    cpu_per_move = (time.process_time() - cpu) / moves
    pg_per_move = (cpu_seconds(backend) - pg_cpu) / moves
    # CPU time, not wall time: waiting on PostgreSQL and a busy box's other processes are
    # left out, so the shares say where this process's own work goes.
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for _ in range(moves):
        move()
    profiler.disable()
    if dump:
        profiler.dump_stats(f"{dump}.{path}")
    stats = pstats.Stats(profiler, stream=io.StringIO())

    def top(key: int, keep, count: int) -> list[list]:
        rows = []
        for (filename, line, name), entry in sorted(stats.stats.items(), key=lambda i: -i[1][key]):
            where = filename.replace(str(ROOT) + "/", "").split("site-packages/")[-1]
            if keep(where):
                ms_per_move = 1e3 / moves
                rows.append(
                    [
                        f"`{where}:{line}({name})`",
                        f"{entry[1] / moves:g}",
                        f"{entry[2] * ms_per_move:.2f}",
                        f"{entry[3] * ms_per_move:.2f}",
                    ]
                )
            if len(rows) == count:
                break
        return rows

    headers = ["function", "calls per move", "own ms per move", "cumulative ms per move"]
    sql = "\n".join(f"    {t * 1e3:6.2f} ms  {q[:150]}" for t, q in captured)
    label = {"web": "the web Confirm", "api": "API v1"}[path]
    text = (
        f"\n### {label}: {game.slug}, {game.min_players} players\n\n"
        f"{per_move * 1e3:.2f} ms per move in-process ({moves} moves); CPU per move: this "
        f"process {cpu_per_move * 1e3:.2f} ms, its PostgreSQL backend "
        + (f"{pg_per_move * 1e3:.2f} ms" if backend else "not readable (not on this host)")
        + f".\n\nThe SQL of one move ({len(captured)} statements):\n\n{sql}\n\n"
        "cProfile (CPU time) of as many moves again; the project's functions by cumulative "
        "time:\n\n"
        + table(headers, top(3, lambda w: w.startswith(PROJECT), 20))
        + "\n\nEverything, by own time:\n\n"
        + table(headers, top(2, lambda w: True, 15))
        + "\n"
    )
    figures = {
        "per_move_s": per_move,
        "cpu_per_move_s": cpu_per_move,
        "pg_cpu_per_move_s": pg_per_move if backend else None,
        "statements": len(captured),
    }
    return figures, text


def backend_pid(connection) -> int | None:
    """The PostgreSQL backend serving `connection`, where its CPU time can be read here."""
    if connection.vendor != "postgresql":
        return None
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    return pid if os.path.exists(f"/proc/{pid}/stat") else None


def cpu_seconds(pid: int | None) -> float:
    """User and system CPU seconds a process has used (Linux /proc), 0 if unknown."""
    if pid is None:
        return 0.0
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
