"""The fault run's database side, run as a process of its own on the run's database (the
test process's Django is not configured for it):

    python -m tests.faults.world seed <out.json>     players, tokens, sessions, matches
    python -m tests.faults.world check <in.json> <out.json>   what the database holds now

`seed` starts Nieuwstad matches between people (bench.moves works out each one's script of
legal moves) and gives every player a play token and a signed-in session; a few more
accounts have a password, for the sign-ins. `check` waits for the worker to deliver
the turn notices of moves played after the outage, runs the outbox sweep, then replays every
match against its stored digests, lists each match's moves with their idempotency keys, and
counts the outbox's turn notices by status, by when they were written.
"""

from __future__ import annotations

import io
import json
import os
import sys
import time
from datetime import UTC, datetime

MATCHES = 12
PASSWORD = "fault-run-password-7"
SIGN_IN_ACCOUNTS = 4


def seed(out: str) -> None:
    from django.contrib.auth import get_user_model

    from bench.moves import api_key, start_matches, web_session
    from games.engine import get_game

    started = start_matches(get_game("nieuwstad"), 2, MATCHES, label="faults")
    matches = []
    for n, match in enumerate(started):
        seats = {}
        for seat, user in match["users"].items():
            session, csrf = web_session(user)
            seats[seat] = {
                "user": user.pk,
                "email": user.email,
                "token": api_key(user),
                "session": session,
                "csrf": csrf,
            }
        matches.append(
            {
                "id": match["id"],
                # Every third match is moved only while Redis is down and then left: the
                # turn notices its last moves wrote are still owed at the end.
                "group": "outage" if n % 3 == 2 else "steady",
                "seats": seats,
                "script": match["script"],
            }
        )
    User = get_user_model()
    accounts = []
    for n in range(SIGN_IN_ACCOUNTS):
        email = f"signin-{n}@faults.invalid"
        User.objects.create_user(username=email, email=email, password=PASSWORD)
        accounts.append({"email": email, "password": PASSWORD})
    with open(out, "w") as f:
        json.dump({"matches": matches, "accounts": accounts}, f)


def facts(down_from: float, down_until: float) -> dict:
    """Each match's replay and moves; turn notices by status, by when they were written
    (before, during or after the outage); and the newest notice of each seat still asked."""
    from django.db.models import Count

    from games.models import Match, Move
    from games.selectors import verify_match
    from notifications.models import Kind, Notification

    matches = {}
    for match in Match.objects.order_by("pk"):
        verified = verify_match(match)
        matches[match.pk] = {
            "verified": verified.ok,
            "problem": verified.message,
            "head_seq": match.head_seq,
            "moves": [
                {"seq": m.seq, "seat": m.seat, "source": m.source, "key": m.idempotency_key}
                for m in Move.objects.filter(match=match).order_by("seq")
            ],
        }

    def when(row: Notification) -> str:
        at = row.created_at.timestamp()
        return "before" if at < down_from else "during" if at < down_until else "after"

    turns: dict[str, dict[str, int]] = {}
    owed = []  # a turn notice still true at the end: it must have been sent
    for row in Notification.objects.filter(kind=Kind.TURN).select_related("match"):
        turns.setdefault(when(row), {}).setdefault(row.status, 0)
        turns[when(row)][row.status] += 1
        seat = row.match.seats.get(number=row.seat)
        if row.match.status == "active" and seat.deadline_seq == row.seq:
            owed.append({"match": row.match_id, "when": when(row), "status": row.status})
    statuses = dict(
        Notification.objects.values_list("status").annotate(n=Count("pk")).order_by("status")
    )
    return {"matches": matches, "turns": turns, "owed": owed, "statuses": statuses}


def check(given: str, out: str) -> None:
    """`given`: {"outage": [start, end] as epoch seconds, "worker_sends": a match id}.
    First waits (30 s at most) for the Celery worker to send the turn notices owed in that
    match, whose moves were played after Redis came back; then records the facts, runs the
    sweep an operator or cron runs (`manage.py send_outbox`, the beat sweep's work without
    its grace period), and records them again."""
    from django.core.management import call_command

    with open(given) as f:
        asked = json.load(f)
    down_from, down_until = asked["outage"]
    deadline = time.monotonic() + 30
    while True:
        before = facts(down_from, down_until)
        owed = [o for o in before["owed"] if o["match"] == asked["worker_sends"]]
        worker_sent = bool(owed) and all(o["status"] == "sent" for o in owed)
        if worker_sent or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    sweep = io.StringIO()
    call_command("send_outbox", stdout=sweep)
    after = facts(down_from, down_until)
    with open(out, "w") as f:
        json.dump(
            {
                "worker_sent": worker_sent,
                "before_sweep": before,
                "sweep": sweep.getvalue(),
                **after,
            },
            f,
        )


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    command, *paths = sys.argv[1:]
    {"seed": seed, "check": check}[command](*paths)
    print(f"{command} done at {datetime.now(UTC):%H:%M:%S}")
