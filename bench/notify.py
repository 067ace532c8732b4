"""Benchmark 5: emails rendered and handed to anymail's test backend, per second per worker.

For each game, matches between people are played through the service layer (each move by
`games.services.submit_move`, the first legal move for whoever must act). After each move,
as a Celery worker would once the transaction commits, every outbox row now due is sent by
`notifications.outbox.deliver` (claim, render subject/text/HTML from the position the row
names, hand to the backend, mark sent) with anymail's test backend (bench/mail.py: the same,
with a string message id). Only the delivering is timed; one process is one
worker.

    uv run python -m bench.notify [--quick] [--game SLUG] [--seconds S]
"""

from __future__ import annotations

import argparse
import os
import time
from datetime import timedelta

from bench.common import games, ms, report, table
from bench.db import bench_database


def measure(game, *, seconds: float, max_moves: int) -> dict:
    from django.core import mail
    from django.utils import timezone

    from bench.moves import start_matches
    from games import services
    from games.models import Match, MoveSource
    from games.selectors import load_state
    from notifications import outbox
    from notifications.models import Notification, Status

    matches = [m["id"] for m in start_matches(game, game.min_players, 2, label="notify")]
    outcomes: dict[str, int] = {}
    delivering = 0.0
    moves = 0
    sizes = []

    def deliver_due() -> None:
        nonlocal delivering
        later = timezone.now() + timedelta(days=2)  # past anyone's quiet hours
        due = Notification.objects.filter(status=Status.PENDING).values_list("pk", flat=True)
        for pk in list(due):
            started = time.perf_counter()
            outcome = outbox.deliver(pk, later)
            delivering += time.perf_counter() - started
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        for message in getattr(mail, "outbox", []):
            sizes.append(len(message.body) + sum(len(a[0]) for a in message.alternatives))
        mail.outbox = []

    deliver_due()
    while delivering < seconds and moves < max_moves:
        live = list(Match.objects.filter(pk__in=matches, status="active"))
        if not live:
            break
        for match in live:
            state = load_state(match)
            seat = match.to_act[0]
            move = game.legal_moves(state, seat)[0]
            result = services.submit_move(
                match_id=match.pk, seat=seat, move=move, source=MoveSource.API
            )
            assert result.ok, result.message
            moves += 1
        deliver_due()
    sent = outcomes.get("sent", 0)
    return {
        "game": game.slug,
        "players": game.min_players,
        "moves": moves,
        "outcomes": outcomes,
        "sent": sent,
        "delivering_s": delivering,
        "per_email_s": delivering / max(1, sum(outcomes.values())),
        "emails_per_s": sent / delivering if delivering else 0.0,
        "mean_size": sum(sizes) / len(sizes) if sizes else 0,
    }


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--game", action="append", help="only this slug (repeatable)")
    parser.add_argument("--seconds", type=float, default=None, help="delivering, per game")
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (0.0 if args.quick else 4.0)
    os.environ["EMAIL_BACKEND"] = "bench.mail.EmailBackend"  # anymail's test backend
    os.environ["CELERY_BROKER_URL"] = "memory://"  # enqueued tasks go nowhere: we deliver
    rows, figures = [], []
    with bench_database():
        for game in games():
            if args.game and game.slug not in args.game:
                continue
            f = measure(game, seconds=seconds, max_moves=4 if args.quick else 2000)
            figures.append(f)
            rows.append(
                [
                    game.slug,
                    f["players"],
                    f["moves"],
                    ", ".join(f"{k} {v}" for k, v in sorted(f["outcomes"].items())),
                    ms(f["per_email_s"]),
                    f"{f['emails_per_s']:,.0f}",
                    f"{f['mean_size'] / 1024:.1f}",
                ]
            )
    text = table(
        [
            "game",
            "players",
            "moves played",
            "outbox rows delivered",
            "ms per row",
            "emails sent per second (one worker)",
            "mean email KiB (text + HTML)",
        ],
        rows,
    )
    report("notify", "Notifications (anymail test backend)", text, {"rows": figures})
    return figures


if __name__ == "__main__":
    main()
