"""Benchmark 1, pure part: deriving a position from the log, with and without snapshots.

For each game and player count, bot games are played to the end; their logs are kept as
the database returns them (each payload JSON text) and replayed the way the platform does:

- full replay: setup, decode every payload, then `games.replay.replay_rows` (what
  `selectors.load_state` runs: `replay_move`, the rules' own checks in, no shape check again),
  per match and per move;
- checked: the same through `apply_logged` (`apply`, shape check in), as `verify_match` does;
- with digests: checked, recomputing the chained digest after each move (`verify_match`);
- a bare reducer over the same rows (decode and fold into a dict, no rules): the floor,
  and each replay as a ratio to it;
- current position with snapshots: decode the latest snapshot at or before the position
  (stored as JSON) and replay the tail; mean and worst over every position of every match.

The database part (load_state on PostgreSQL) is in bench/replay_db.py.

    uv run python -m bench.replay [--quick] [--game SLUG]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import time

from bench.common import (
    ROOT,
    bare_reducer,
    bench_seed,
    game_sizes,
    median,
    repeat,
    report,
    table,
    us,
)
from games.engine import GENESIS, canonical_json, chain_digest, playout
from games.replay import LoggedMove, apply_logged, initial_state, replay_rows

SNAPSHOT_EVERY = int(os.environ.get("SNAPSHOT_EVERY", "50"))


def stored(game_log: playout.Playout) -> list[tuple]:
    """The log as the database returns it: (seq, seat, kind, payload as JSON text)."""
    return [
        (seq, seat, "move", json.dumps(move))
        for seq, (seat, move, _source) in enumerate(game_log.log, start=1)
    ]


def decoded(rows: list[tuple]) -> list[tuple]:
    return [(seq, seat, kind, json.loads(text)) for seq, seat, kind, text in rows]


def replay_full(game, names, game_log, rows, *, checked: bool = False, digests: bool = False):
    state = initial_state(game, names, game_log.options, game_log.seed)
    if not checked and not digests:
        return replay_rows(game, state, decoded(rows), game_log.seed)
    previous = GENESIS
    for seq, seat, kind, text in rows:
        entry = LoggedMove(seq, seat, kind, json.loads(text))
        state = apply_logged(game, state, entry, game_log.seed)
        if digests:
            previous = chain_digest(previous, state)
    return state


def snapshots_of(game, names, game_log, rows) -> dict[int, str]:
    """The JSON snapshots a match stores (every SNAPSHOT_EVERY moves; 0 is the setup)."""
    state = initial_state(game, names, game_log.options, game_log.seed)
    kept = {0: canonical_json(state)}
    for row in decoded(rows):
        state = replay_rows(game, state, [row], game_log.seed)
        if row[0] % SNAPSHOT_EVERY == 0:
            kept[row[0]] = canonical_json(state)
    return kept


def load_with_snapshot(game, game_log, rows, kept: dict[int, str], upto: int):
    start = upto - upto % SNAPSHOT_EVERY
    state = json.loads(kept[start])
    return replay_rows(game, state, decoded(rows[start:upto]), game_log.seed)


def measure(game, players: int, *, matches: int, seconds: float) -> dict:
    names = playout.player_names(players)
    logs = [
        playout.play(game, players, seed=bench_seed(f"bench-replay:{n}")) for n in range(matches)
    ]
    all_rows = [stored(g) for g in logs]
    moves = sum(g.moves for g in logs)
    for g, rows in zip(logs, all_rows):  # the replay must reproduce the playout
        assert replay_full(game, names, g, rows) == g.final
        assert replay_full(game, names, g, rows, checked=True) == g.final

    def run(**how):
        def every_match():
            for g, rows in zip(logs, all_rows):
                replay_full(game, names, g, rows, **how)

        return every_match

    def bare():
        for rows in all_rows:
            bare_reducer(rows)

    # Alternating, so a burst of load elsewhere touches each figure alike.
    t_full, t_checked, t_bare = [], [], []
    for _ in range(5):
        t_full += repeat(run(), seconds=seconds / 5)
        t_checked += repeat(run(checked=True), seconds=seconds / 5)
        t_bare += repeat(bare, seconds=seconds / 5)
    t_full, t_checked, t_bare = median(t_full), median(t_checked), median(t_bare)
    t_digests = median(repeat(run(digests=True), seconds=seconds))

    # Every position of every match, loaded from its latest snapshot (sampled to at most
    # 60 positions a match so long games stay quick).
    snapshot_times = []
    head_times = []
    for g, rows in zip(logs, all_rows):
        kept = snapshots_of(game, names, g, rows)
        step = max(1, g.moves // 60)
        positions = sorted(set(range(0, g.moves + 1, step)) | {g.moves})
        for upto in positions:
            t = median(
                repeat(
                    lambda: load_with_snapshot(game, g, rows, kept, upto),  # noqa: B023
                    seconds=seconds / len(positions) / 4,
                    at_least=3,
                )
            )
            snapshot_times.append(t)
            if upto == g.moves:
                head_times.append(t)
    return {
        "game": game.slug,
        "players": players,
        "matches": matches,
        "moves_per_match": moves / matches,
        "full_per_match_s": t_full / matches,
        "full_per_move_s": t_full / moves,
        "checked_per_move_s": t_checked / moves,
        "bare_reducer_per_move_s": t_bare / moves,
        "digests_per_match_s": t_digests / matches,
        "digests_per_move_s": t_digests / moves,
        "snapshot_mean_s": sum(snapshot_times) / len(snapshot_times),
        "snapshot_max_s": max(snapshot_times),
        "snapshot_head_mean_s": sum(head_times) / len(head_times),
    }


def profile(game, players: int, *, seconds: float, top: int = 8) -> str:
    """cProfile's top functions (own time) while replaying bot games: what `apply` costs."""
    names = playout.player_names(players)
    logs = [
        playout.play(game, players, seed=bench_seed(f"bench-replay-profile:{n}")) for n in range(3)
    ]
    all_rows = [stored(g) for g in logs]
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    while True:
        for g, rows in zip(logs, all_rows):
            replay_full(game, names, g, rows)
        if time.perf_counter() - started >= seconds:
            break
    profiler.disable()
    stats = pstats.Stats(profiler, stream=io.StringIO())
    total = stats.total_tt
    rows = []
    for (filename, line, name), entry in sorted(stats.stats.items(), key=lambda i: -i[1][2])[:top]:
        where = filename.replace(str(ROOT) + "/", "")
        rows.append([f"`{where}:{line}({name})`", entry[1], f"{entry[2] / total:.0%}"])
    return f"{game.slug}, {players} players\n\n" + table(["function", "calls", "own share"], rows)


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--game", action="append", help="only this slug (repeatable)")
    parser.add_argument("--profile", action="store_true", help="top functions per game")
    args = parser.parse_args(argv)
    matches, seconds = (1, 0.01) if args.quick else (5, 0.5)
    largest: dict[str, tuple] = {}
    rows, figures = [], []
    for game, players in game_sizes(args.game):
        f = measure(game, players, matches=matches, seconds=seconds)
        figures.append(f)
        largest[game.slug] = (game, players)
        rows.append(
            [
                game.slug,
                players,
                f"{f['moves_per_match']:.0f}",
                us(f["full_per_match_s"]),
                us(f["full_per_move_s"]),
                us(f["checked_per_move_s"]),
                us(f["bare_reducer_per_move_s"]),
                f"{f['full_per_move_s'] / f['bare_reducer_per_move_s']:.1f}",
                f"{f['checked_per_move_s'] / f['bare_reducer_per_move_s']:.1f}",
                us(f["digests_per_move_s"]),
                f"{f['digests_per_move_s'] / f['full_per_move_s']:.2f}",
                us(f["snapshot_head_mean_s"]),
                us(f["snapshot_mean_s"]),
                us(f["snapshot_max_s"]),
                f"{f['full_per_match_s'] / f['snapshot_head_mean_s']:.1f}",
            ]
        )
    text = table(
        [
            "game",
            "players",
            "moves/match",
            "full replay µs/match",
            "µs/move",
            "checked µs/move",
            "bare JSON reducer µs/move",
            "replay ÷ bare reducer",
            "checked ÷ bare reducer",
            "µs/move with digests",
            "digests ratio",
            f"head from snapshot µs (every {SNAPSHOT_EVERY})",
            "any position mean µs",
            "any position max µs",
            "full ÷ snapshot",
        ],
        rows,
    )
    if args.profile:
        text += "\n\n### Where a replay's time goes (cProfile, own time)\n\n" + "\n\n".join(
            profile(game, players, seconds=0.0 if args.quick else 1.0)
            for game, players in largest.values()
        )
    report(
        "replay", "Replay (pure engine)", text, {"snapshot_every": SNAPSHOT_EVERY, "rows": figures}
    )
    return figures


if __name__ == "__main__":
    main()
