"""Moves, chat, takebacks and resignations on the same matches at once, from several
processes on PostgreSQL, with every player's event stream open (issue 43, item 7): every
writer locks the match's seats and the match first, so none waits for another in a circle.
Before that order, a chat (stream rows, then the match) and a move (the match, then the
stream rows) deadlocked 8-12 times in 20 s and one of them answered 500.

Each worker is a process of its own (tests/games/mixed_worker.py) that plays through the web
pages, as gunicorn's workers would serve them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from django.db import connection

from api.stream import open_stream
from games import services
from games.models import ChatMessage, Match
from games.selectors import verify_match
from tests.factories import make_user

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
MATCHES = 12


def test_chat_moves_takebacks_and_resignations_at_once_never_deadlock(tmp_path):
    assert connection.vendor == "postgresql", "this test needs DATABASE_URL=postgres://..."
    anna, bram = make_user("Anna"), make_user("Bram")
    matches = []
    for number in range(MATCHES):
        match = services.create_match(
            creator=anna,
            game_slug="sealed-cards",
            players=2,
            invite_emails=[bram.email],
            seed=f"mixed-{number}",
            takebacks=True,
        )
        services.join_match(match_id=match.pk, user=bram)
        matches.append(match.pk)
    for user in (anna, bram):
        open_stream(user.pk)  # both players' streams are open: each write appends events
    settings = connection.settings_dict
    env = dict(os.environ)
    env["DATABASE_URL"] = (
        f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"
    )
    roles = [
        ("chat", anna),
        ("chat", bram),
        ("move", anna),
        ("move", bram),
        ("takeback", anna),
        ("resign", bram),
    ]
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.games.mixed_worker", str(tmp_path), role, str(user.pk)]
            + [str(m) for m in matches],
            cwd=ROOT,
            env=env,
        )
        for role, user in roles
    ]
    try:
        deadline = time.monotonic() + 120
        while not all((tmp_path / f"ready-{r}-{u.pk}").exists() for r, u in roles):
            assert all(w.poll() is None for w in workers), "a worker exited before the start"
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.05)
        (tmp_path / "go").touch()
        for worker in workers:
            assert worker.wait(120) == 0
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
    results = {
        f"{r}-{u.first_name}": json.loads((tmp_path / f"result-{r}-{u.pk}.json").read_text())
        for r, u in roles
    }
    statuses = Counter()
    for result in results.values():
        statuses.update({int(k): v for k, v in result["statuses"].items()})
    print(statuses, {k: v["conflicts"] for k, v in results.items()})
    assert all(status < 500 for status in statuses), results
    assert sum(v["said"] for k, v in results.items() if k.startswith("chat")) == (
        ChatMessage.objects.filter(match_id__in=matches).count()
    )  # every line posted is on its board: none lost to a conflict
    assert sum(v["conflicts"] for v in results.values()) == 0, results  # none even retried
    played = Match.objects.filter(pk__in=matches).exclude(head_seq=0)
    assert played.count() >= 2  # the load reached several matches
    for match in played:
        assert verify_match(match).ok
