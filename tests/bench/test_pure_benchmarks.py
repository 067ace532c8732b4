"""The pure-engine benchmarks run on a tiny size and print their tables (no timing asserted:
benchmarks never pass or fail on time)."""

import pytest

from bench import replay, replay_instructions, roundtrips, throughput


@pytest.fixture(autouse=True)
def results_elsewhere(tmp_path, monkeypatch):
    monkeypatch.setattr("bench.common.RESULTS", tmp_path)


def test_replay_runs_for_every_game(capsys):
    rows = replay.main(["--quick"])
    assert {r["game"] for r in rows} >= {"sealed-cards"}
    assert all(r["full_per_move_s"] > 0 for r in rows)
    assert "Replay (pure engine)" in capsys.readouterr().out


def test_throughput_runs_and_profiles(capsys):
    rows = throughput.main(["--quick", "--profile", "--game", "sealed-cards"])
    assert [r["players"] for r in rows] == [2, 3, 4]
    assert "Where the time goes" in capsys.readouterr().out


def test_roundtrips_never_ask_a_question_with_one_answer():
    rows = roundtrips.main(["--quick"])
    sealed = [r for r in rows if r["game"] == "sealed-cards"]
    assert [r["forced_per_game"] for r in sealed] == [2, 3, 4]  # every last card
    assert all(r["asked_with_one_answer"] == 0 for r in rows)


@pytest.mark.slow
def test_replay_counted_in_instructions(capsys):
    # .ci/run installs valgrind where it is missing: here it fails rather than skips.
    figures = replay_instructions.main(["--quick", "--game", "sealed-cards"])
    counted = figures["sealed-cards-4"]
    assert counted["replay"] > counted["bare"] > 0  # the rules cost something on top
    assert "Replay counted in instructions" in capsys.readouterr().out
