"""Replay match logs and check every stored digest, in parallel over matches."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from games import log_checks
from games.models import Match
from games.parallel import cores, in_processes

CHUNK = 20  # matches a worker checks at a time: small enough for even work and progress
PROGRESS_EVERY = 5.0  # seconds between progress lines


class Command(BaseCommand):
    help = (
        "Replay each match's log from its setup and compare every stored digest. Prints the "
        "broken matches (every match with -v 2), progress on stderr, and a summary; exits "
        "non-zero if any is broken."
    )

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group()
        which.add_argument("--match", type=int, default=None, help="one match id (default: all)")
        which.add_argument(
            "--since",
            action="store_true",
            help="only the matches written since the last run began, and those it found "
            "broken (every match if there was none)",
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=1,
            help=f"worker processes (0: one per core, here {cores()})",
        )

    def handle(self, *args, match, since, jobs, verbosity, **options):
        jobs = jobs or cores()
        run = None
        if match is not None:
            if not Match.objects.filter(pk=match).exclude(status="open").exists():
                raise CommandError(f"no started match {match}")
            ids = [match]
        else:
            previous = log_checks.last_run() if since else None
            run = log_checks.begin(whole=previous is None, now=timezone.now())
            if previous is None:
                ids = log_checks.started_matches()
            else:
                ids = log_checks.changed_since(previous)
                self.stdout.write(
                    f"Since the run of {previous.started_at:%Y-%m-%d %H:%M:%S %Z}: "
                    f"{len(ids)} matches written or broken."
                )
        started = time.monotonic()
        shown = started
        done, moves, broken = 0, 0, []
        chunks = [ids[n : n + CHUNK] for n in range(0, len(ids), CHUNK)]
        for checked in in_processes(log_checks.verify_chunk, chunks, jobs):
            for pk, ok, replayed, message in checked:
                done += 1
                moves += replayed
                if not ok:
                    broken.append(pk)
                if not ok or verbosity >= 2:
                    self.stdout.write(f"match {pk}: {'ok' if ok else 'FAILED'}: {message}")
            if time.monotonic() - shown >= PROGRESS_EVERY and verbosity >= 1:
                shown = time.monotonic()
                self.stderr.write(self._progress(done, len(ids), moves, len(broken), started))
        elapsed = time.monotonic() - started
        if run is not None:
            run.finished_at = timezone.now()
            run.matches, run.moves, run.failed = done, moves, sorted(broken)
            run.save()
        processes = f"{jobs} process{'es' if jobs > 1 else ''}"
        verdict = f"{len(broken)} broken" if broken else "every digest matches"
        self.stdout.write(
            f"Verified {done:,} matches ({moves:,} moves) in {elapsed:.1f} s with "
            f"{processes}: {verdict}."
        )
        if broken:
            raise CommandError(f"{len(broken)} match(es) failed verification")

    @staticmethod
    def _progress(done: int, total: int, moves: int, broken: int, started: float) -> str:
        elapsed = time.monotonic() - started
        left = elapsed / done * (total - done) if done else 0
        return (
            f"{done:,} of {total:,} matches ({100 * done // max(total, 1)}%), "
            f"{moves / elapsed:,.0f} moves/s, {broken} broken, about {left:.0f} s left"
        )
