"""The benchmarks that need PostgreSQL (and gunicorn and wrk) run on a tiny size.

Each runs as its own process, as `bench/run_all.sh` runs it, on a database of its own that
it creates and drops. Needs PostgreSQL at 127.0.0.1:5432, like the rest of `-m services`.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.services


def run(*args: str) -> str:
    env = dict(os.environ)
    # A database of this test process's own: two runs at once must not share one.
    env["BENCH_DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/pbm_bench_smoke_{os.getpid()}"
    env.pop("DATABASE_URL", None)
    out = subprocess.run(
        [sys.executable, "-m", *args, "--quick"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return out.stdout


def test_replay_from_the_database():
    assert "Loading positions from PostgreSQL" in run("bench.replay_db", "--game", "sealed-cards")


def test_deadlines():
    out = run("bench.deadlines", "--game", "sealed-cards")
    assert "300 active matches" in out


def test_notifications():
    assert "emails sent per second" in run("bench.notify", "--game", "sealed-cards")


def test_profile_of_a_move():
    out = run("bench.profile_move", "--game", "sealed-cards")
    assert "queries per move" in out
    assert "kind of move" in out


def test_replay_from_stored_json_beside_a_bare_reducer():
    assert "replay ÷ bare reducer" in run("bench.replay_db", "--game", "sealed-cards")


def test_the_lobby_as_matches_grow():
    assert "÷ 10 matches" in run("bench.lobby")


def test_a_move_over_http():
    # .ci/run installs wrk: missing, this test fails rather than skips.
    assert shutil.which("wrk"), "wrk is not installed (apt-get install -y wrk)"
    out = run("bench.http", "--game", "sealed-cards", "--game", "new-england")
    assert "moves: sealed-cards" in out
    assert "floor: minimal Django view, before new-england" in out
    assert "floor: raw-SQL WSGI app" in out
    # Every scripted move is accepted (New England's first answer is a number of cards, not
    # a menu entry: the script types the game's command there).
    figures = json.loads((ROOT / "bench" / "results" / "http.json").read_text())
    for game in figures["moves"]:
        assert game["moves"] > 0 and game["errors"] == 0, game
