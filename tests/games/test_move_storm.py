"""Storms of moves from several processes on PostgreSQL, through the paths players use: the
web Confirm, API v1 and an email reply, all sent from the same seen position at the same
instant; and retries of one request under one idempotency key. Never two moves from one
position; every loser is told "moved on" or "repeat".

Each worker is a process of its own (tests/games/storm_worker.py) with its own
connection, as gunicorn's workers and the mail pipe are: a request that waits for the match
lock must then decide on the rows the winner committed.
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

from api.tokens import make_token
from games import services
from games.models import Match, Move
from games.selectors import load_state, verify_match
from tests.factories import two_player_match

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 6
PATHS = ["web", "api", "email", "web", "api", "email"]


class Storm:
    """Worker processes kept for the whole test; each round is released to all at once."""

    def __init__(self, folder: Path):
        self.folder = folder
        settings = connection.settings_dict
        env = dict(os.environ)
        env["DATABASE_URL"] = (
            f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/"
            f"{settings['NAME']}"
        )
        self.processes = [
            subprocess.Popen(
                [sys.executable, "-m", "tests.games.storm_worker", str(folder), str(i)],
                cwd=ROOT,
                env=env,
            )
            for i in range(WORKERS)
        ]
        self.round = 0
        self._wait_for(lambda: all((folder / f"ready-{i}").exists() for i in range(WORKERS)))

    def _wait_for(self, done, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            dead = [p.returncode for p in self.processes if p.poll() is not None]
            assert not dead, f"a storm worker exited: {dead}"
            assert time.monotonic() < deadline, "the storm workers did not answer in time"
            time.sleep(0.01)

    def release(self, requests: list[dict]) -> list[dict]:
        self.round += 1
        spec = self.folder / f"round-{self.round}.json"
        spec.with_suffix(".tmp").write_text(json.dumps({"requests": requests}))
        spec.with_suffix(".tmp").rename(spec)
        answers = [self.folder / f"answer-{self.round}-{i}.json" for i in range(WORKERS)]
        self._wait_for(lambda: all(a.exists() for a in answers))
        return [json.loads(a.read_text()) for a in answers]

    def stop(self) -> None:
        (self.folder / "stop").touch()
        for process in self.processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture(scope="module")
def storm(tmp_path_factory, django_db_setup, django_db_blocker):
    """One pool of workers for the module's tests (they start in tens of seconds)."""
    with django_db_blocker.unblock():
        assert connection.vendor == "postgresql", "this suite needs DATABASE_URL=postgres://..."
        running = Storm(tmp_path_factory.mktemp("storm"))
    yield running
    running.stop()


def player_of(match: Match, seat: int):
    return match.seats.select_related("user").get(number=seat).user


def cards(match: Match, seat: int) -> list[int]:
    match.refresh_from_db()
    return list(load_state(match)["hands"][seat])


def test_the_same_position_from_web_api_and_email_is_played_once(storm):
    for round_number in range(3):
        match, anna, bram = two_player_match(
            seed=f"storm-{round_number}", names=(f"Anna{round_number}", f"Bram{round_number}")
        )
        player = player_of(match, anna)
        _token, key = make_token(user=player, name="storm", scope="play")
        hand = cards(match, anna)
        seen = match.head_seq
        requests = [
            {
                "path": path,
                "match": match.pk,
                "user": player.pk,
                "seat": anna,
                "seq": seen,
                "command": f"play {hand[i % len(hand)]}",
                "key": (
                    f"<storm-{round_number}-{i}@player.example>"
                    if path == "email"
                    else f"form-token-{i}"
                ),
                "token": key,
            }
            for i, path in enumerate(PATHS)
        ]
        answers = storm.release(requests)
        told = Counter(a["answer"] for a in answers)
        assert told["applied"] == 1, answers
        assert told["moved_on"] == WORKERS - 1, answers
        assert Move.objects.filter(match=match, seat=anna).count() == 1
        match.refresh_from_db()
        assert match.head_seq == seen + 1
        assert verify_match(match).ok


def test_retries_under_one_idempotency_key_are_applied_once(storm):
    match, anna, bram = two_player_match(seed="storm-retries")
    player = player_of(match, anna)
    _token, key = make_token(user=player, name="storm", scope="play")
    for trick in range(2):
        hand = cards(match, anna)
        seen = match.head_seq
        # Three API retries and three double-clicks of one web form, each under its key.
        requests = [
            {
                "path": path,
                "match": match.pk,
                "user": player.pk,
                "seat": anna,
                "seq": seen,
                "command": f"play {hand[0]}",
                "key": f"retry-key-{trick}",
                "token": key,
            }
            for path in ["api", "api", "api", "web", "web", "web"]
        ]
        answers = storm.release(requests)
        by_path = {"api": Counter(), "web": Counter()}
        for request, answer in zip(requests, answers):
            by_path[request["path"]][answer["answer"]] += 1
        # One of the six is applied; the other request of its kind are told it was a
        # repeat, and the other kind's (a different key: another request) that it moved on.
        winner = next(p for p, told in by_path.items() if told["applied"])
        loser = "web" if winner == "api" else "api"
        assert by_path[winner] == Counter(applied=1, repeat=2), answers
        assert by_path[loser] == Counter(moved_on=3), answers
        assert Move.objects.filter(match=match, seat=anna).count() == trick + 1
        services.submit_move(
            match_id=match.pk,
            seat=bram,
            move={"type": "play", "card": cards(match, bram)[0]},
            source="web",
        )
        match.refresh_from_db()
    assert verify_match(match).ok
