"""verify_log over many processes, and `--since`, which checks what was written since the
last run. The workers are forked and read the database themselves: the data they read is
committed (transaction=True), as a real run's is."""

from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from games.models import LogCheck, Match

pytestmark = pytest.mark.django_db(transaction=True)


def simulate(count: int, seed: str) -> list[int]:
    before = set(Match.objects.values_list("pk", flat=True))
    call_command("simulate", game="sealed-cards", players=2, matches=count, seed=seed)
    return sorted(set(Match.objects.values_list("pk", flat=True)) - before)


def break_log(pk: int) -> None:
    """A changed projection: the head digest no longer the last move's."""
    Match.objects.filter(pk=pk).update(head_digest="0" * 64)


def verify(capsys, *args) -> tuple[list[str], str, bool]:
    """(the lines naming broken matches, the summary, whether it exited non-zero)."""
    capsys.readouterr()
    try:
        call_command("verify_log", *args)
        failed = False
    except CommandError:
        failed = True
    out = capsys.readouterr().out.splitlines()
    return [line for line in out if "FAILED" in line], out[-1], failed


def test_two_processes_find_the_broken_log_one_finds(capsys):
    ids = simulate(6, "jobs")
    break_log(ids[3])
    one = verify(capsys, "--jobs", "1")
    two = verify(capsys, "--jobs", "2")
    assert one[0] == two[0] == [f"match {ids[3]}: FAILED: head digest differs from the last move's"]
    assert one[2] and two[2]
    assert "Verified 6 matches (36 moves)" in one[1] and "with 1 process: 1 broken" in one[1]
    assert "Verified 6 matches (36 moves)" in two[1] and "with 2 processes: 1 broken" in two[1]


def test_since_checks_the_matches_written_since_the_last_run_and_those_still_broken(capsys):
    now = timezone.now()
    old = simulate(3, "old")
    with time_machine.travel(now + timedelta(minutes=5)):
        assert verify(capsys, "--since")[1].startswith("Verified 3 matches")  # the first: all
        new = simulate(2, "new")
    with time_machine.travel(now + timedelta(minutes=10)):
        lines, summary, failed = verify(capsys, "--since", "--jobs", "2")
    assert (lines, failed) == ([], False) and summary.startswith("Verified 2 matches")
    # A row changed under an old match is no write since: only a whole run sees it ...
    break_log(old[0])
    with time_machine.travel(now + timedelta(minutes=15)):
        assert verify(capsys, "--since")[1].startswith("Verified 0 matches")
        assert verify(capsys)[2]
    # ... and the runs after it check the broken match again until it is mended.
    with time_machine.travel(now + timedelta(minutes=20)):
        lines, summary, failed = verify(capsys, "--since")
    assert failed and lines == [f"match {old[0]}: FAILED: head digest differs from the last move's"]
    assert summary.startswith("Verified 1 matches")
    assert list(LogCheck.objects.order_by("pk").values_list("whole", "matches", "failed")) == [
        (True, 3, []),
        (False, 2, []),
        (False, 0, []),
        (True, 5, [old[0]]),
        (False, 1, [old[0]]),
    ]
    assert new  # written by the second simulation, checked by the second run
