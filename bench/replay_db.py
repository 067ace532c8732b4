"""Benchmark 1, database part: loading a match's position from PostgreSQL.

Bot matches are played to the end through the service layer (games.services.create_match
with every seat a bot) into the bench database. Then, for each game and player count:

- `selectors.load_state(match)`: the current position from the shared position cache
  (what a web or worker process that served the match before does);
- the same without that cache: with the snapshots the service layer
  stored (every SNAPSHOT_EVERY moves), and at sampled earlier positions (worst case: a tail
  of SNAPSHOT_EVERY - 1 moves);
- the same with the snapshots deleted: the whole log read and replayed;
- the log query alone (what reading the rows costs, without any rules);
- `selectors.verify_match`: the whole log replayed with every digest recomputed;
- replay per move from the stored JSON (payloads as PostgreSQL returns them, decoded here),
  setup in, the way `load_state` replays (`replay_rows`: the rules' own checks, not the
  shape check again) and the way `verify_match` does (`apply_logged`: checked), beside a
  bare reducer that decodes the same rows and folds them into a dict: the ratio is what the
  rules cost over reading the log at all.

    uv run python -m bench.replay_db [--quick] [--game SLUG]
"""

from __future__ import annotations

import argparse
import json

from bench.common import bare_reducer, bench_seed, game_sizes, median, repeat, report, table, us
from bench.db import bench_database


def stored_log(match) -> list[tuple]:
    """The log as PostgreSQL returns it: the payload is JSON text, still to be decoded."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT seq, seat, kind, payload::text FROM games_move WHERE match_id = %s "
            "ORDER BY seq",
            [match.pk],
        )
        return cursor.fetchall()


def replay_stored(game, match, stored: list[tuple], *, checked: bool = False):
    """The whole match replayed from its stored JSON: setup, decode, then what `load_state`
    runs (`replay_rows`), or, `checked`, what `verify_match` runs (`apply_logged`)."""
    from games.replay import LoggedMove, apply_logged, replay_rows
    from games.selectors import setup_state

    state = setup_state(match, match.bench_seats)
    if not checked:
        rows = [(seq, seat, kind, json.loads(text)) for seq, seat, kind, text in stored]
        return replay_rows(game, state, rows, match.seed)
    for seq, seat, kind, text in stored:
        entry = LoggedMove(seq, seat, kind, json.loads(text))
        state = apply_logged(game, state, entry, match.seed)
    return state


def measure(game, players: int, *, matches: int, seconds: float) -> dict:
    from django.conf import settings

    from games import services
    from games.models import Match, Move, Snapshot
    from games.selectors import POSITIONS, load_state, verify_match

    made = [
        services.create_match(
            creator=None,
            game_slug=game.slug,
            players=players,
            bots=players,
            seed=bench_seed(f"bench-replay-db:{players}:{n}"),
        )
        for n in range(matches)
    ]
    made = [Match.objects.get(pk=m.pk) for m in made]
    for match in made:
        match.bench_seats = list(match.seats.order_by("number"))
    moves = sum(m.head_seq for m in made)
    every = settings.SNAPSHOT_EVERY

    def timed(fn):
        return median(repeat(fn, seconds=seconds / matches))

    head, anywhere, worst, rows_only, full, verify, cached = [], [], [], [], [], [], []
    json_replay, checked, bare = [], [], []
    for match in made:
        POSITIONS.enabled = True
        load_state(match)  # the head position is now in the shared position cache
        cached.append(timed(lambda: load_state(match)))  # noqa: B023
        POSITIONS.enabled = False  # from here on: snapshots and the log only
        head.append(timed(lambda: load_state(match)))  # noqa: B023
        # The worst positions: just before a snapshot, the longest tail.
        worst_seq = max(0, min(match.head_seq, every - 1))
        worst.append(timed(lambda: load_state(match, upto=worst_seq)))  # noqa: B023
        step = max(1, match.head_seq // 10)
        for upto in range(0, match.head_seq + 1, step):
            anywhere.append(median(repeat(lambda: load_state(match, upto=upto), seconds=0.0)))  # noqa: B023
        rows_only.append(
            timed(
                lambda: list(
                    Move.objects.filter(match=match)  # noqa: B023
                    .order_by("seq")
                    .only("seq", "seat", "kind", "payload")
                )
            )
        )
        verify.append(timed(lambda: verify_match(match)))  # noqa: B023
        Snapshot.objects.filter(match=match).delete()  # a cache: loading must not need it
        full.append(timed(lambda: load_state(match)))  # noqa: B023
        POSITIONS.enabled = True
        stored = stored_log(match)
        for _ in range(3):  # alternating, so a burst of load elsewhere touches each alike
            json_replay.append(timed(lambda: replay_stored(game, match, stored)))  # noqa: B023
            checked.append(timed(lambda: replay_stored(game, match, stored, checked=True)))  # noqa: B023
            bare.append(timed(lambda: bare_reducer(stored)))  # noqa: B023
    return {
        "json_replay_per_move_s": sum(json_replay) / 3 / moves,
        "checked_replay_per_move_s": sum(checked) / 3 / moves,
        "bare_reducer_per_move_s": sum(bare) / 3 / moves,
        "game": game.slug,
        "players": players,
        "matches": matches,
        "moves_per_match": moves / matches,
        "head_cached_s": sum(cached) / matches,
        "head_with_snapshots_s": sum(head) / matches,
        "worst_with_snapshots_s": max(worst),
        "any_position_mean_s": sum(anywhere) / len(anywhere),
        "any_position_max_s": max(anywhere),
        "log_query_s": sum(rows_only) / matches,
        "full_without_snapshots_s": sum(full) / matches,
        "full_per_move_s": sum(full) / moves,
        "verify_s": sum(verify) / matches,
        "verify_per_move_s": sum(verify) / moves,
    }


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--game", action="append", help="only this slug (repeatable)")
    args = parser.parse_args(argv)
    matches, seconds = (1, 0.0) if args.quick else (2, 0.6)
    rows, figures = [], []
    with bench_database():
        from django.conf import settings

        every = settings.SNAPSHOT_EVERY
        for game, players in game_sizes(args.game):
            f = measure(game, players, matches=matches, seconds=seconds)
            figures.append(f)
            rows.append(
                [
                    game.slug,
                    players,
                    f"{f['moves_per_match']:.0f}",
                    us(f["head_cached_s"]),
                    us(f["head_with_snapshots_s"]),
                    us(f["worst_with_snapshots_s"]),
                    us(f["any_position_max_s"]),
                    us(f["full_without_snapshots_s"]),
                    us(f["full_per_move_s"]),
                    us(f["log_query_s"]),
                    us(f["verify_s"]),
                    f"{f['full_without_snapshots_s'] / f['head_with_snapshots_s']:.1f}",
                    us(f["json_replay_per_move_s"]),
                    us(f["checked_replay_per_move_s"]),
                    us(f["bare_reducer_per_move_s"]),
                    f"{f['json_replay_per_move_s'] / f['bare_reducer_per_move_s']:.1f}",
                    f"{f['checked_replay_per_move_s'] / f['bare_reducer_per_move_s']:.1f}",
                ]
            )
    text = table(
        [
            "game",
            "players",
            "moves/match",
            "load head, position cache µs",
            f"load head, snapshots every {every} µs",
            f"load at seq {every - 1} (longest tail) µs",
            "any sampled position, max µs",
            "load head, no snapshots µs",
            "no snapshots µs/move",
            "log query alone µs",
            "verify_match (digests) µs",
            "no snapshots ÷ snapshots",
            "replay from stored JSON µs/move",
            "checked replay µs/move",
            "bare JSON reducer µs/move",
            "replay ÷ bare reducer",
            "checked ÷ bare reducer",
        ],
        rows,
    )
    report("replay_db", "Loading positions from PostgreSQL", text, {"rows": figures})
    return figures


if __name__ == "__main__":
    main()
