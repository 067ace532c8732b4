"""Benchmark 2: complete bot games per second, pure engine, one core.

Each game is played from setup to result by `games.engine.playout.play` (bots choose, forced
decisions resolve themselves, the chained digest is computed after each move, as the
platform does). One process, so one core. With --profile, the top functions by own time
for the largest player count of each game, so the rules packages' costs can be read.

    uv run python -m bench.throughput [--quick] [--game SLUG] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time

from bench.common import ROOT, bench_seed, game_sizes, report, table, us
from games.engine import playout


def measure(game, players: int, *, seconds: float, at_least: int) -> dict:
    played = moves = 0
    started = time.perf_counter()
    while played < at_least or time.perf_counter() - started < seconds:
        moves += playout.play(game, players, seed=bench_seed(f"bench-throughput:{played}")).moves
        played += 1
    elapsed = time.perf_counter() - started
    return {
        "game": game.slug,
        "players": players,
        "games": played,
        "seconds": elapsed,
        "games_per_s": played / elapsed,
        "moves_per_s": moves / elapsed,
        "per_move_s": elapsed / moves,
    }


def profile(game, players: int, *, seconds: float, top: int = 10) -> str:
    profiler = cProfile.Profile()
    games = 0
    started = time.perf_counter()
    profiler.enable()
    while games < 1 or time.perf_counter() - started < seconds:
        playout.play(game, players, seed=bench_seed(f"bench-profile:{games}"))
        games += 1
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    total = stats.total_tt
    rows = []
    entries = sorted(stats.stats.items(), key=lambda item: -item[1][2])[:top]
    for (filename, line, name), (_cc, calls, tottime, cumtime, _callers) in entries:
        where = filename.replace(str(ROOT) + "/", "")
        rows.append(
            [
                f"`{where}:{line}({name})`",
                calls,
                f"{tottime:.3f}",
                f"{tottime / total:.0%}",
                f"{cumtime:.3f}",
            ]
        )
    head = f"{game.slug}, {players} players, {games} games, {total:.2f} s profiled\n\n"
    return head + table(["function", "calls", "own s", "own share", "cumulative s"], rows)


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--game", action="append", help="only this slug (repeatable)")
    parser.add_argument("--profile", action="store_true", help="top functions per game")
    args = parser.parse_args(argv)
    seconds, at_least = (0.0, 1) if args.quick else (2.0, 5)
    rows, figures, profiles = [], [], []
    largest: dict[str, tuple] = {}
    for game, players in game_sizes(args.game):
        f = measure(game, players, seconds=seconds, at_least=at_least)
        figures.append(f)
        largest[game.slug] = (game, players)
        rows.append(
            [
                game.slug,
                players,
                f["games"],
                f"{f['games_per_s']:,.1f}",
                f"{f['moves_per_s']:,.0f}",
                us(f["per_move_s"]),
            ]
        )
    text = table(["game", "players", "games played", "games/s", "moves/s", "µs/move"], rows)
    if args.profile:
        for game, players in largest.values():
            profiles.append(profile(game, players, seconds=0.0 if args.quick else 1.5))
        text += "\n\n### Where the time goes (cProfile, own time)\n\n" + "\n\n".join(profiles)
    report("throughput", "Engine throughput (bot games, one core)", text, {"rows": figures})
    return figures


if __name__ == "__main__":
    main()
