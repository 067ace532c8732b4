"""Where a move over the JSON API spends its time: queries and the top functions.

In-process (Django's test client, no network, no gunicorn) against the bench PostgreSQL
database, the same request bench/http.py sends: POST /api/matches/<pk>/moves/ with a bearer
token. Prints the mean time per move, the SQL of one move, and cProfile's top entries.

    uv run python -m bench.profile_move [--game SLUG] [--moves N] [--quick]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import time

from bench.common import ROOT, bench_seed, games, report, table
from bench.db import bench_database


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--game", default=None, help="slug (default: the first real game)")
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--dump", help="also write cProfile's stats to this file (pstats)")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-" + os.urandom(24).hex())
    chosen = [g for g in games() if g.slug == args.game] if args.game else games()
    game = next((g for g in chosen if g.slug != "sealed-cards"), chosen[0])
    moves = 10 if args.quick else args.moves
    with bench_database():
        from django.db import connection
        from django.test import Client

        from bench.http import start_matches
        from games.engine import playout

        # Every block below plays about eight times `moves` in all: enough matches for that
        # at half a bot game's length each (a match's script ends with the match, and counts
        # a person's moves only).
        length = min(
            playout.play(game, game.min_players, seed=bench_seed(f"p{n}")).moves for n in range(3)
        )
        needed = 4 + (9 * moves + 10) // max(1, length // 2)
        matches = start_matches(game, game.min_players, 2 if args.quick else needed)
        client = Client()
        sent = [0]

        def move() -> bool:
            live = [m for m in matches if m["script"]]
            if not live:
                return False
            m = live[sent[0] % len(live)]
            seat, seq, command = m["script"].pop(0)
            sent[0] += 1
            body = {"command": command, "seq": seq, "idempotency_key": f"p{sent[0]}"}
            response = client.post(
                f"/api/matches/{m['id']}/moves/",
                data=json.dumps(body),
                content_type="application/json",
                HTTP_AUTHORIZATION="Bearer " + m["tokens"][seat],
            )
            assert response.status_code == 200, response.content
            return True

        for _ in range(5):
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
        executed = [0]

        def count(execute, sql, params, many, context):
            executed[0] += 1
            return execute(sql, params, many, context)

        backend = backend_pid(connection)
        with connection.execute_wrapper(count):
            started, cpu, pg_cpu = time.perf_counter(), time.process_time(), cpu_seconds(backend)
            done = sum(move() for _ in range(moves))
            per_move = (time.perf_counter() - started) / max(1, done)
            cpu_per_move = (time.process_time() - cpu) / max(1, done)
            pg_per_move = (cpu_seconds(backend) - pg_cpu) / max(1, done)
        queries_per_move = executed[0] / max(1, done)

        # Queries per move by kind: what the move wrote tells which kind it was.
        kinds: dict[str, list[tuple[int, int]]] = {}  # (queries, round trips) per move
        for _ in range(moves):
            statements: list[str] = []

            piped: list[bool] = []

            def keep(execute, sql, params, many, context, statements=statements, piped=piped):
                statements.append(sql)
                raw = connection.connection  # PostgreSQL: a statement sent in a pipeline
                piped.append(bool(getattr(getattr(raw, "pgconn", None), "pipeline_status", 0)))
                return execute(sql, params, many, context)

            with connection.execute_wrapper(keep):
                if not move():
                    break
            finished = ('"status"' in q for q in statements if q.startswith('UPDATE "games_match"'))
            if any(finished):
                kind = "ends the match"
            elif any(q.startswith('INSERT INTO "notifications_notification"') for q in statements):
                kind = "asks someone new (deadlines, turn notices)"
            else:
                kind = "asks nobody new"
            # Round trips: BEGIN, COMMIT, each statement sent alone, each pipeline once.
            trips = 2 + sum(1 for i, p in enumerate(piped) if not p or i == 0 or not piped[i - 1])
            kinds.setdefault(kind, []).append((len(statements), trips))

        # The position cache off and on, in alternating blocks of the same run.
        from games.selectors import POSITIONS

        spent, count = {False: 0.0, True: 0.0}, {False: 0, True: 0}
        for _ in range(2 if args.quick else 5):
            for cache in (False, True):
                POSITIONS.enabled = cache
                started = time.perf_counter()
                count[cache] += sum(move() for _ in range(max(1, moves // 5)))
                spent[cache] += time.perf_counter() - started
        POSITIONS.enabled = True
        off, on = (spent[c] / max(1, count[c]) for c in (False, True))

        # The writes' pipeline (games.rows.one_round_trip) and the prepared statements
        # (games.rows._cursor) off and on, the same way: CPU of this process and of its
        # PostgreSQL backend, which the round trips and the parsing cost both.
        from django.conf import settings

        def off_and_on(setting: str) -> tuple[dict[bool, list[float]], int]:
            spent = {False: [0.0, 0.0], True: [0.0, 0.0]}
            moved = {False: 0, True: 0}
            for _ in range(2 if args.quick else 6):
                for on in (False, True):
                    setattr(settings, setting, on)
                    cpu, pg_cpu = time.process_time(), cpu_seconds(backend)
                    moved[on] += sum(move() for _ in range(max(1, moves // 6)))
                    spent[on][0] += time.process_time() - cpu
                    spent[on][1] += cpu_seconds(backend) - pg_cpu
            setattr(settings, setting, True)
            per_move = {on: [1e3 * t / max(1, moved[on]) for t in spent[on]] for on in spent}
            return per_move, moved[True]

        piped, piped_count = off_and_on("DATABASE_PIPELINE")
        prepared, prepared_count = off_and_on("DATABASE_PREPARED_STATEMENTS")
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_prepared_statements")
            prepared_now = cursor.fetchone()[0]
        # CPU time, not wall time: waiting on PostgreSQL and a busy box's other processes
        # are left out, so the shares say where this process's own work goes.
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
        profiled = sum(move() for _ in range(moves))
        profiler.disable()
    if args.dump:
        profiler.dump_stats(args.dump)
    stats = pstats.Stats(profiler, stream=io.StringIO())

    def top(key: int, keep, count: int) -> list[list]:
        rows = []
        for (filename, line, name), entry in sorted(stats.stats.items(), key=lambda i: -i[1][key]):
            where = filename.replace(str(ROOT) + "/", "").split("site-packages/")[-1]
            if keep(where):
                rows.append(
                    [f"`{where}:{line}({name})`", entry[1], f"{entry[2]:.3f}", f"{entry[3]:.3f}"]
                )
            if len(rows) == count:
                break
        return rows

    ours = top(3, lambda w: w.startswith(("games/", "notifications/")), 20)
    own = top(2, lambda w: True, 15)
    sql = "\n".join(f"    {t * 1e3:6.2f} ms  {q[:150]}" for t, q in captured)
    text = (
        f"{game.slug}, {game.min_players} players: {per_move * 1e3:.2f} ms per move "
        f"in-process ({done} moves), {queries_per_move:.1f} queries per move on average "
        f"({len(captured)} in the move shown below).\n\n"
        f"CPU per move (what a busy box cannot hide, unlike wall time): this process "
        f"{cpu_per_move * 1e3:.2f} ms, its PostgreSQL backend "
        + (f"{pg_per_move * 1e3:.2f} ms" if backend else "not readable (not on this host)")
        + ".\n\n"
        + table(
            [
                "kind of move",
                "moves",
                "queries per move (mean)",
                "min",
                "max",
                "round trips per move (mean)",
            ],
            [
                [
                    k,
                    len(v),
                    f"{sum(q for q, _ in v) / len(v):.1f}",
                    min(q for q, _ in v),
                    max(q for q, _ in v),
                    f"{sum(t for _, t in v) / len(v):.1f}",
                ]
                for k, v in sorted(kinds.items())
            ],
        )
        + "\n\nQueries: the statements sent (BEGIN and COMMIT not counted). Round trips: BEGIN "
        "and COMMIT, each statement sent alone, and one for the statements sent together in "
        "pipeline mode (`games.rows.one_round_trip`).\n\n"
        f"Position cache off: {off * 1e3:.2f} ms per move; on: {on * 1e3:.2f} ms "
        f"(off ÷ on = {off / on:.2f}, alternating blocks of {count[True]} moves each).\n\n"
        f"The writes' pipeline off: CPU per move {piped[False][0]:.2f} ms here, "
        f"{piped[False][1]:.2f} ms in PostgreSQL; on: {piped[True][0]:.2f} ms and "
        f"{piped[True][1]:.2f} ms (alternating blocks, {piped_count} moves each way).\n\n"
        f"Prepared statements off (SQL with its parameters quoted in): CPU per move "
        f"{prepared[False][0]:.2f} ms here, {prepared[False][1]:.2f} ms in PostgreSQL; on "
        f"(prepared once per connection, parameters bound on the server): "
        f"{prepared[True][0]:.2f} ms and {prepared[True][1]:.2f} ms (alternating blocks, "
        f"{prepared_count} moves each way); {prepared_now} statements prepared on the "
        "connection at the end.\n\n"
        "The SQL of one move:\n\n"
        f"{sql}\n\ncProfile (CPU time) of {profiled} moves; the project's functions by "
        "cumulative time:\n\n"
        + table(["function", "calls", "own s", "cumulative s"], ours)
        + "\n\nEverything, by own time:\n\n"
        + table(["function", "calls", "own s", "cumulative s"], own)
    )
    figures = {
        "game": game.slug,
        "per_move_s": per_move,
        "cpu_per_move_s": cpu_per_move,
        "pg_cpu_per_move_s": pg_per_move if backend else None,
        "queries_per_move": queries_per_move,
        "queries_by_kind": kinds,
        "pipeline_cpu_ms": {"off": piped[False], "on": piped[True]},
        "prepared_cpu_ms": {"off": prepared[False], "on": prepared[True]},
        "prepared_on_connection": prepared_now,
        "cache_off_s": off,
        "cache_on_s": on,
    }
    report("profile_move", "Profile of one move over the JSON API (in-process)", text, figures)
    return figures


def backend_pid(connection) -> int | None:
    """The PostgreSQL backend serving `connection`, where its CPU time can be read here."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
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
