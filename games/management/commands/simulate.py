"""Bot-only matches played through the real service layer and database to the end."""

from __future__ import annotations

import json
import time
import traceback

from django.core.management.base import BaseCommand, CommandError

from games import services
from games.engine import get_game
from games.models import MatchStatus, MoveSource
from games.selectors import verify_match


class Command(BaseCommand):
    help = "Play bot-only matches through the service layer; print one JSON object of figures."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True)
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--matches", type=int, default=10)
        parser.add_argument("--seed", default=None, help="base seed, for reproducible runs")
        parser.add_argument("--verify", action="store_true", help="replay each match's digests")

    def handle(self, *args, game, players, matches, seed, verify, **options):
        try:
            get_game(game)
        except KeyError:
            raise CommandError(f"unknown game {game!r}") from None
        figures = {
            "game": game,
            "players": players,
            "matches": matches,
            "finished": 0,
            "errors": 0,
            "moves": 0,
            "human_decisions": 0,
            "forced": 0,
            "verified": 0,
            "seconds": 0.0,
            "error_samples": [],
        }
        started = time.perf_counter()
        for n in range(matches):
            try:
                match = services.create_match(
                    creator=None,
                    game_slug=game,
                    players=players,
                    bots=players,
                    seed=f"{seed}:{n}" if seed is not None else None,
                )
                match.refresh_from_db()
                if match.status != MatchStatus.FINISHED:
                    raise RuntimeError(f"match {match.pk} stopped at seq {match.head_seq}")
                sources = list(match.moves.values_list("source", flat=True))
                figures["finished"] += 1
                figures["moves"] += len(sources)
                figures["human_decisions"] += sources.count(MoveSource.BOT)
                figures["forced"] += sources.count(MoveSource.FORCED)
                if verify:
                    report = verify_match(match)
                    if not report.ok:
                        raise RuntimeError(f"match {match.pk}: {report.message}")
                    figures["verified"] += 1
            except Exception as error:
                figures["errors"] += 1
                if len(figures["error_samples"]) < 5:
                    figures["error_samples"].append(
                        f"match {n}: {error!r}\n{traceback.format_exc(limit=4)}"
                    )
        figures["seconds"] = round(time.perf_counter() - started, 3)
        self.stdout.write(json.dumps(figures))
        if figures["errors"]:
            raise CommandError(f"{figures['errors']} of {matches} matches failed")
