"""Benchmark 1, counted: replay from stored JSON over the bare JSON reducer, in instructions.

Wall time on a shared two-core box moves by a factor of two between runs; the number of
instructions the CPU executes for the same work does not. Bot games of each game are stored
as the database returns them (payload JSON text); a child process replays them
(`games.replay.replay_rows`, setup and decoding in, as `bench.replay` times it) or folds them
through the bare reducer, once and eleven times, under valgrind's cachegrind (one hash seed for
all). The difference of the two counts, over ten times the moves, is the instructions per
move without the interpreter's start-up. This is not the goal's measure (time is), only a
steady witness of it; valgrind must be installed (Debian's `valgrind`).

    uv run python -m bench.replay_instructions [--quick] [--game SLUG]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import ROOT, bare_reducer, bench_seed, game_sizes, games, report, table
from bench.replay import stored
from games.engine import get_game, playout
from games.replay import initial_state, replay_rows


def workload(path: Path, mode: str, reps: int) -> None:
    """What the child does under cachegrind: replay (or reduce) every stored game `reps` times."""
    with open(path, "rb") as f:
        slug, games_ = pickle.load(f)
    games()  # registers the test game too
    game = get_game(slug)
    for _ in range(reps):
        for names, options, seed, rows in games_:
            if mode == "bare":
                bare_reducer(rows)
            else:
                state = initial_state(game, names, options, seed)
                decoded = [(seq, seat, kind, json.loads(text)) for seq, seat, kind, text in rows]
                replay_rows(game, state, decoded, seed)


def instructions(path: Path, mode: str, reps: int) -> int:
    out = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            "-m",
            "bench.replay_instructions",
            "--child",
            str(path),
            mode,
            str(reps),
        ],
        cwd=ROOT,
        # The same hash seed in every child: a random one changes the start-up's count by more
        # than a small workload costs.
        env={**os.environ, "PYTHONHASHSEED": "0"},
        capture_output=True,
        text=True,
    )
    if out.returncode:
        raise RuntimeError(f"the counted replay failed:\n{out.stderr[-3000:]}")
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if found is None:
        raise RuntimeError(f"cachegrind printed no count:\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


PASSES = (1, 11)  # the difference of the two counts is ten passes' work, start-up apart


def per_move(path: Path, mode: str, moves: int) -> float:
    few, many = (instructions(path, mode, n) for n in PASSES)
    return (many - few) / ((PASSES[1] - PASSES[0]) * moves)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--game", action="append", help="only this slug (repeatable)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        workload(Path(args.child[0]), args.child[1], int(args.child[2]))
        return {}
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install -y valgrind")
    matches = 4
    rows, figures = [], {}
    with tempfile.TemporaryDirectory() as folder:
        for game, players in game_sizes(args.game):
            if players != game.max_players:
                continue  # the largest count: the longest matches
            names = playout.player_names(players)
            kept, moves = [], 0
            for n in range(matches):
                log = playout.play(game, players, seed=bench_seed(f"count-{players}-{n}"))
                kept.append((names, log.options, log.seed, stored(log)))
                moves += len(log.log)
            path = Path(folder) / f"{game.slug}-{players}.pickle"
            path.write_bytes(pickle.dumps((game.slug, kept)))
            replay, bare = per_move(path, "replay", moves), per_move(path, "bare", moves)
            figures[f"{game.slug}-{players}"] = {"replay": replay, "bare": bare, "moves": moves}
            ratio = f"{replay / bare:.2f}"
            rows.append([game.slug, players, moves, f"{replay:,.0f}", f"{bare:,.0f}", ratio])
    text = (
        f"{matches} bot matches per game at its largest player count, stored as JSON text, "
        "replayed by `replay_rows` (setup and decoding in) and folded by the bare reducer, "
        "under cachegrind; instructions per move from (11 passes − 1 pass) ÷ 10.\n\n"
        + table(
            [
                "game",
                "players",
                "moves",
                "replay instructions/move",
                "bare reducer instructions/move",
                "replay ÷ bare reducer",
            ],
            rows,
        )
    )
    report("replay_instructions", "Replay counted in instructions (cachegrind)", text, figures)
    return figures


if __name__ == "__main__":
    main()
