"""Benchmark 4: deadlines with 100,000 active matches in PostgreSQL.

For each game one real match between people is started through the service layer; it is
then cloned in SQL (INSERT ... SELECT) until the bench database holds 100,000 active matches
(split evenly between the games), every seat that must act with a deadline: 1% of them
overdue, the rest spread over the next three days. Then:

- the sweep's overdue query (`notifications.clock._seats_with_deadline_before`, what
  the beat task runs, served by the partial index "seat_deadline_due"): wall time from
  Python and PostgreSQL's own EXPLAIN ANALYZE execution time; and the plain
  `Seat.objects.filter(deadline_at__lte=now, match__status="active")` for comparison;
- `notifications.clock.overdue(now)`: the query plus each seat's effective deadline
  (vacations, quiet hours);
- `games.services.enforce_timeout` on overdue seats: timeouts enforced per second, per game,
  one process.

    uv run python -m bench.deadlines [--quick] [--matches N] [--game SLUG]
"""

from __future__ import annotations

import argparse
import time
from datetime import timedelta

from bench.common import games, median, ms, repeat, report, table
from bench.db import bench_database

OVERDUE_SHARE = 0.01


def clone(template, copies: int) -> None:
    """`copies` more active matches like `template`, deadlines drawn at random."""
    from django.db import connection

    from games.models import Match, Seat

    match_columns = [
        f.column for f in Match._meta.concrete_fields if f.column not in ("id", "created_at")
    ]
    seat_columns = [
        f.column
        for f in Seat._meta.concrete_fields
        if f.column not in ("id", "match_id", "deadline_at", "waiting_since")
    ]
    m_cols = ", ".join(f'"{c}"' for c in match_columns)
    s_cols = ", ".join(f'"{c}"' for c in seat_columns)
    s_from = ", ".join(f's."{c}"' for c in seat_columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            WITH made AS (
                INSERT INTO games_match ({m_cols}, created_at)
                SELECT {m_cols}, now() FROM games_match, generate_series(1, %s)
                WHERE games_match.id = %s
                RETURNING id
            )
            INSERT INTO games_seat (match_id, {s_cols}, deadline_at, waiting_since)
            SELECT made.id, {s_from}, due.at, due.at - %s * interval '1 day'
            FROM made CROSS JOIN games_seat s CROSS JOIN LATERAL (
                SELECT CASE WHEN s.deadline_at IS NULL THEN NULL
                     WHEN random() < %s THEN now() - random() * interval '1 day'
                     ELSE now() + interval '1 minute' + random() * interval '3 days' END
                     + (made.id * interval '0') AS at
            ) due
            WHERE s.match_id = %s
            """,
            [copies, template.pk, template.days_per_move, OVERDUE_SHARE, template.pk],
        )


def explain_ms(queryset) -> tuple[float, str]:
    """PostgreSQL's execution time of the query, and its plan as a line of node names."""
    plan = queryset.explain(analyze=True)
    execution = next(
        (line for line in plan.splitlines() if line.startswith("Execution Time")), "nan ms"
    )
    nodes = []
    for line in plan.splitlines():
        text = line.strip().removeprefix("->").strip()
        if "(cost=" in text:
            nodes.append(text.split("  (cost=")[0].replace(" on ", " ").strip())
    return float(execution.split(":")[1].split()[0]), " › ".join(nodes)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--matches", type=int, default=None, help="active matches (100,000)")
    parser.add_argument("--game", action="append", help="only this slug (repeatable)")
    parser.add_argument("--seconds", type=float, default=None, help="enforcing, per game")
    args = parser.parse_args(argv)
    total = args.matches or (300 if args.quick else 100_000)
    seconds = args.seconds if args.seconds is not None else (0.0 if args.quick else 4.0)
    chosen = [g for g in games() if not args.game or g.slug in args.game]
    with bench_database():
        from django.db import connection
        from django.utils import timezone

        from bench.moves import start_matches
        from games import clock, services
        from games.models import Match, Seat

        started = time.perf_counter()
        templates = {}
        for game in chosen:
            made = start_matches(game, game.min_players, 1, label="deadlines")
            templates[game.slug] = Match.objects.get(pk=made[0]["id"])
        for game in chosen:
            clone(templates[game.slug], total // len(chosen) - 1)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        load_seconds = time.perf_counter() - started
        active = Match.objects.filter(status="active").count()
        with_deadline = Seat.objects.filter(deadline_at__isnull=False).count()

        now = timezone.now()
        # Two moments: `now`, with the whole 1% overdue (a backlog: the beat was down for a
        # day), and one minute after the oldest of those deadlines, which finds what one
        # minute brings due (the steady state with a sweep every minute).
        moments = {"backlog": now, "one minute": now - timedelta(days=1) + timedelta(minutes=1)}
        query_rows, query_figures = [], {}
        for label, moment in moments.items():
            sweep_qs = clock._seats_with_deadline_before(moment)
            plain_qs = Seat.objects.filter(deadline_at__lte=moment, match__status="active")
            rows = len(list(sweep_qs))
            t_sweep = median(repeat(lambda: list(sweep_qs.all()), seconds=seconds / 4, at_least=5))  # noqa: B023
            t_ids = median(
                repeat(
                    lambda: list(sweep_qs.values_list("match_id", "number", "deadline_seq")),  # noqa: B023
                    seconds=seconds / 4,
                    at_least=5,
                )
            )
            t_plain = median(
                repeat(lambda: list(plain_qs.values_list("pk")), seconds=seconds / 4, at_least=5)  # noqa: B023
            )
            limited = sweep_qs.values_list("match_id", "number", "deadline_seq")[:200]
            t_limited = median(repeat(lambda: list(limited.all()), seconds=seconds / 4, at_least=5))  # noqa: B023
            pg_limited, plan_limited = explain_ms(limited)
            pg_sweep, plan_sweep = explain_ms(sweep_qs)
            pg_plain, plan_plain = explain_ms(plain_qs)
            query_figures[label] = {
                "rows": rows,
                "sweep_s": t_sweep,
                "sweep_ids_s": t_ids,
                "sweep_pg_ms": pg_sweep,
                "sweep_plan": sweep_qs.explain(),
                "plain_s": t_plain,
                "plain_pg_ms": pg_plain,
                "plain_plan": plain_qs.explain(),
            }
            query_rows += [
                [
                    label,
                    "sweep query (seats + match + user)",
                    rows,
                    ms(t_sweep),
                    f"{pg_sweep:.2f}",
                    plan_sweep,
                ],
                [label, "sweep query, ids only", rows, ms(t_ids), "", ""],
                [
                    label,
                    "sweep query, ids only, first 200 (a bounded sweep)",
                    min(rows, 200),
                    ms(t_limited),
                    f"{pg_limited:.2f}",
                    plan_limited,
                ],
                [
                    label,
                    '`Seat.objects.filter(deadline_at__lte=…, match__status="active")`',
                    rows,
                    ms(t_plain),
                    f"{pg_plain:.2f}",
                    plan_plain,
                ],
            ]
        t_overdue = median(repeat(lambda: clock.overdue(now), seconds=seconds, at_least=2))
        found = clock.overdue(now)

        by_game: dict[str, list] = {}
        slug_of = dict(Match.objects.filter(status="active").values_list("pk", "game_slug"))
        for match_id, seat, deadline_seq in found:
            by_game.setdefault(slug_of[match_id], []).append((match_id, seat, deadline_seq))
        enforce_rows, enforce_figures = [], []
        for slug, due in sorted(by_game.items()):
            done = applied = 0
            t0 = time.perf_counter()
            for match_id, seat, deadline_seq in due:
                result = services.enforce_timeout(
                    match_id=match_id, seat=seat, deadline_seq=deadline_seq
                )
                done += 1
                applied += result.ok
                if time.perf_counter() - t0 > max(seconds, 0.001) or (args.quick and done >= 3):
                    break
            elapsed = time.perf_counter() - t0
            enforce_figures.append(
                {"game": slug, "enforced": done, "applied": applied, "seconds": elapsed}
            )
            enforce_rows.append([slug, done, applied, ms(elapsed / done), f"{done / elapsed:,.0f}"])

    figures = {
        "active_matches": active,
        "seats_with_deadline": with_deadline,
        "overdue_after_effective_deadline": len(found),
        "queries": query_figures,
        "overdue_s": t_overdue,
        "load_seconds": load_seconds,
        "enforce": enforce_figures,
    }
    text = (
        f"{active:,} active matches ({', '.join(templates)}), {with_deadline:,} seats with a "
        f"deadline, {len(found):,} overdue (1%); loaded in {load_seconds:.0f} s.\n\n"
        + table(
            ["moment", "query", "rows", "wall ms (Python)", "PostgreSQL execution ms", "plan"],
            query_rows
            + [
                [
                    "backlog",
                    "`clock.overdue(now)` (query + effective deadline per seat)",
                    len(found),
                    ms(t_overdue),
                    "",
                    "",
                ]
            ],
        )
        + "\n\n"
        + table(["game", "timeouts enforced", "applied", "ms each", "per second"], enforce_rows)
    )
    report("deadlines", "Deadlines (100,000 active matches)", text, figures)
    return figures


if __name__ == "__main__":
    main()
