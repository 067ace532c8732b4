"""Taps per decision: what a whole bot match costs a player who plays it by tapping.

Bot matches of each game are played by `games.engine.playout.play` (forced decisions resolved
as the platform does). Every decision a person would have been asked is then built again with
the web page's builder (games/builder.py): the taps are the targets clicked until one move is
left, a trade (a sale, a purchase) being one form at the market whose every choice is a chip
to tap. Before issue 28 a Confirm followed, one more tap a decision; now the tap that completes a
move plays it, drawn on the board, after a few seconds in which Undo takes it back (or at once,
for a player who chose to skip the Confirm): the Confirm is a tap only for a player who holds the
move with Wait, or plays without JavaScript. A tap is either on a place
drawn on the board or on a choice beside it: a button of the step panel before issue 28, a game
piece (`games.pages.PieceGroup`: a character tile, a card, the bid's coins) since. Printed per
game: decisions, taps per decision (mean and the worst), and the share of taps on the board.

    uv run python -m bench.taps [--quick] [--game SLUG]
"""

from __future__ import annotations

import argparse

from bench.common import bench_seed, game_sizes, report, table
from games import builder
from games.engine import event_rng, playout


def on_board(game, target: str) -> bool:
    """Whether `target` is a place drawn on the board (else a piece or button beside it)."""
    return target.startswith(tuple(f"{prefix}:" for prefix in game.board_targets))


def taps_for(game, state, seat: int, move: dict, trades: bool = True) -> tuple[int, int]:
    """(taps to build `move` on the page, of which on the board), without the Confirm. A
    trade offered as a form at the market is a chip for each of its choices, the last one
    sending it (games.builder.trade_forms)."""
    candidates = [(m, list(game.move_steps(state, seat, m))) for m in game.legal_moves(state, seat)]
    wanted = [s.target for s in game.move_steps(state, seat, move)]
    if trades and wanted and wanted[0] in builder.TRADE_ACTIONS:
        offered = builder.narrow(candidates, [])
        for form in builder.trade_forms(game, state, seat, offered):
            if form.action.target == wanted[0]:
                return len(form.fields), 0
    picked: list[str] = []
    taps = on = 0
    while True:
        built = builder.narrow(candidates, picked)
        if built.move is not None:
            return taps, on
        offered = built.targets
        target = next((t for t in wanted if t in offered and t not in picked), builder.AS_IS)
        picked.append(target)
        taps += 1
        on += on_board(game, target)
        if taps > 50:
            raise AssertionError(f"{game.slug}: {move} could not be built")


def measure(game, players: int, *, matches: int) -> dict:
    decisions = taps = on = worst = 0
    steps = worst_steps = 0  # before issue 28: every step a button, no trade form
    for n in range(matches):
        log = playout.play(game, players, seed=bench_seed(f"bench-taps:{n}"))
        state = game.setup(playout.player_names(players), log.options, event_rng(log.seed, 0))
        for seq, (seat, move, source) in enumerate(log.log, start=1):
            if source == "bot":
                clicks, on_board = taps_for(game, state, seat, move)
                old, _on = taps_for(game, state, seat, move, trades=False)
                steps += old
                worst_steps = max(worst_steps, old)
                decisions += 1
                taps += clicks
                on += on_board
                worst = max(worst, clicks)
            state = game.apply(state, seat, move, event_rng(log.seed, seq))
    return {
        "game": game.slug,
        "players": players,
        "matches": matches,
        "decisions_per_game": decisions / matches,
        "mean_taps": taps / decisions if decisions else 0,
        "worst_taps": worst,
        "mean_taps_before": steps / decisions + 1 if decisions else 0,
        "worst_taps_before": worst_steps + 1,
        "on_board_share": on / taps if taps else 0,
    }


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--game", action="append", help="only this slug (repeatable)")
    args = parser.parse_args(argv)
    matches = 2 if args.quick else 10
    rows, figures = [], []
    for game, players in game_sizes(args.game):
        if players != game.min_players:
            continue  # the smallest table: the whole-match browser tests play it too
        f = measure(game, players, matches=matches)
        figures.append(f)
        rows.append(
            [
                game.slug,
                players,
                f["matches"],
                f"{f['decisions_per_game']:.1f}",
                f"{f['mean_taps_before']:.2f} / {f['worst_taps_before']}",
                f"{f['mean_taps']:.2f} / {f['worst_taps']}",
                f"{f['on_board_share']:.0%}",
            ]
        )
    text = table(
        [
            "game",
            "players",
            "games",
            "asked decisions/game",
            "before issue 28, each with its Confirm (mean / worst)",
            "now: the last tap plays it (mean / worst)",
            "taps on the board",
        ],
        rows,
    )
    title = "Taps per decision (bot matches, built on the web page)"
    report("taps", title, text, {"rows": figures})
    return figures


if __name__ == "__main__":
    main()
