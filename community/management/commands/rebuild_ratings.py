"""Derive every rating again from the finished matches: each game in a worker process."""

from __future__ import annotations

import sys
import time

from django.core.management.base import BaseCommand

from community.ratings import rated_games, rebuild_game
from games.parallel import cores, in_processes


def _show_progress(game_slug: str, read: int) -> None:
    # Written by the worker itself, which has no handle on the command's output.
    print(f"{game_slug}: {read:,} matches read", file=sys.stderr, flush=True)


def rebuild(game_slug: str) -> tuple[str, int, float]:
    started = time.monotonic()
    rated = rebuild_game(game_slug, progress=_show_progress)
    return game_slug, rated, time.monotonic() - started


class Command(BaseCommand):
    help = (
        "Derive every rating again from the finished matches (ratings are a projection). A "
        "rating follows from the one before it, so each game is rebuilt in order, in one "
        "transaction; the games are rebuilt side by side, up to --jobs at once."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--jobs",
            type=int,
            default=1,
            help=f"worker processes (0: one per core, here {cores()})",
        )

    def handle(self, *args, jobs, **options):
        jobs = jobs or cores()
        games = rated_games()
        started = time.monotonic()
        total = 0
        for game_slug, rated, seconds in in_processes(rebuild, games, min(jobs, len(games))):
            total += rated
            self.stderr.write(f"{game_slug}: {rated:,} matches rated in {seconds:.1f} s")
        self.stdout.write(
            f"Rated {total} finished matches in {len(games)} games in "
            f"{time.monotonic() - started:.1f} s with {min(jobs, max(len(games), 1))} "
            "process(es)."
        )
