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
    env["BENCH_GROWTH_DATABASE_URL"] = env["BENCH_DATABASE_URL"]
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
    assert "### the web Confirm: sealed-cards" in out and "### API v1: sealed-cards" in out
    assert "The SQL of one move" in out and "cumulative ms per move" in out


def test_replay_from_stored_json_beside_a_bare_reducer():
    assert "replay ÷ bare reducer" in run("bench.replay_db", "--game", "sealed-cards")


def test_the_lobby_as_matches_grow():
    assert "÷ 10 matches" in run("bench.lobby")


def test_pages_and_periodic_jobs_as_the_site_grows():
    out = run("bench.growth", "--game", "nieuwstad")
    assert "40 matches, ms" in out and "GET /archive/?player=" in out
    assert "beat: send_reminders, nothing due" in out


def test_a_move_by_every_path_against_its_floor():
    # .ci/run installs wrk: missing, this test fails rather than skips.
    assert shutil.which("wrk"), "wrk is not installed (apt-get install -y wrk)"
    out = run("bench.http", "--game", "sealed-cards", "--game", "new-england")
    for path in ("floor: Django view", "web", "api", "floor: manage.py", "email"):
        assert f"| new-england (3) | {path} |" in out, path
    # Every move sent is played, the database says: New England's first answer is a number
    # of cards, not a menu entry, and the script types the game's command there.
    figures = json.loads((ROOT / "bench" / "results" / "http.json").read_text())
    runs = figures["runs"]
    assert {(r["game"], r["path"]) for r in runs if not r["path"].startswith("floor")} == {
        (game, path) for game in ("sealed-cards", "new-england") for path in ("web", "api", "email")
    }
    for r in runs:
        assert r["moves"] > 0 and r["errors"] == 0, r
        if not r["path"].startswith("floor"):
            assert r["applied"] >= r["moves"] and r["queries"]["submit_move"] > 0, r
