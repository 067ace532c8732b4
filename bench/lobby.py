"""The lobby and the open matches at 10, 1,000 and 10,000 matches: does a page grow?

A player seated in N matches (N - 5 finished, 5 waiting on them) gets GET /lobby/ through
Django's test client in-process, the three players in turn, round after round; then N open
matches wait for players and the open-matches list is read for someone who sits in none.
Rows are made in bulk with the fields the service
layer gives such matches. Figures are medians of repeated requests; the growth is the ratio
to the 10-match figure, taken in the same run.

    uv run python -m bench.lobby [--quick]
"""

from __future__ import annotations

import argparse
import os
import time
from datetime import timedelta

from bench.common import median, ms, repeat, report, table
from bench.db import bench_database

SIZES = (10, 1000, 10000)


def bulk_matches(count: int, *, user, other, status: str, waiting: int = 0) -> None:
    from django.utils import timezone

    from games.engine import seed_commitment
    from games.models import Match, Seat

    now = timezone.now()
    matches = Match.objects.bulk_create(
        Match(
            game_slug="sealed-cards",
            rules_version=1,
            player_count=2,
            seed=f"lobby-{n}",
            seed_commitment=seed_commitment(f"lobby-{n}"),
            status="active" if n < waiting else status,
            started_at=None if status == "open" else now,
            head_seq=0 if status == "open" else 6,
            to_act=[0] if n < waiting else [],
        )
        for n in range(count)
    )
    seats = []
    for n, match in enumerate(matches):
        asked = n < waiting
        seats += [
            Seat(
                match=match,
                number=0,
                user=user,
                display_name="Anna" if user else "",
                deadline_at=now + timedelta(days=1, minutes=n) if asked else None,
                deadline_seq=6 if asked else None,
                waiting_since=now if asked else None,
            ),
            Seat(match=match, number=1, user=other, display_name="Ben" if other else ""),
        ]
    Seat.objects.bulk_create(seats, batch_size=2000)


def analyze() -> None:
    """Fresh statistics after a bulk insert, as autovacuum keeps them in production."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_match")
        cursor.execute("ANALYZE games_seat")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--seconds", type=float, default=3.0, help="per figure")
    parser.add_argument("--game", action="append", help="ignored: the lobby is the same for all")
    args = parser.parse_args(argv)
    sizes = (10, 100) if args.quick else SIZES
    seconds = 0.3 if args.quick else args.seconds
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-" + os.urandom(24).hex())
    with bench_database():
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        from games import pages

        User = get_user_model()
        ben = User.objects.create_user("ben@bench.invalid", "ben@bench.invalid")
        outsider = User.objects.create_user("out@bench.invalid", "out@bench.invalid")
        clients, players = {}, {}
        for size in sizes:
            player = User.objects.create_user(f"p{size}@bench.invalid", f"p{size}@bench.invalid")
            bulk_matches(size, user=player, other=ben, status="finished", waiting=5)
            clients[size] = Client()
            clients[size].force_login(player)
            players[size] = player
        analyze()
        # Every size in turn, round after round: the load of a shared box falls on all alike.
        times: dict[int, list[float]] = {size: [] for size in sizes}
        deadline = time.perf_counter() + seconds * len(sizes)
        while time.perf_counter() < deadline or min(len(t) for t in times.values()) < 3:
            for size in sizes:
                started = time.perf_counter()
                clients[size].get("/lobby/")
                times[size].append(time.perf_counter() - started)
        results = []
        made_open = 0
        for size in sizes:
            response = clients[size].get("/lobby/")
            assert response.status_code == 200
            with CaptureQueriesContext(connection) as queries:
                clients[size].get("/lobby/")
            bulk_matches(size - made_open, user=ben, other=None, status="open")
            made_open = size
            analyze()
            listed = median(repeat(lambda: pages.open_matches(outsider), seconds=seconds))
            results.append(
                {
                    "matches": size,
                    "lobby_s": median(times[size]),
                    "lobby_bytes": len(response.content),
                    "lobby_rows": len(pages.my_matches(players[size])),
                    "lobby_queries": len(queries),
                    "open_s": listed,
                }
            )
    base = results[0]
    rows = [
        [
            f"{r['matches']:,}",
            ms(r["lobby_s"]),
            f"{r['lobby_s'] / base['lobby_s']:.2f}",
            r["lobby_rows"],
            f"{r['lobby_bytes']:,}",
            r["lobby_queries"],
            ms(r["open_s"]),
            f"{r['open_s'] / base['open_s']:.2f}",
        ]
        for r in results
    ]
    text = table(
        [
            "matches",
            "GET /lobby/ ms (median)",
            "÷ 10 matches",
            "rows shown",
            "HTML bytes",
            "queries",
            "open matches ms",
            "÷ 10 open matches",
        ],
        rows,
    )
    report("lobby", "The lobby and the open matches as matches grow", text, {"sizes": results})
    return {"sizes": results}


if __name__ == "__main__":
    main()
