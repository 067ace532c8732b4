"""Benchmark 6: round trips. How often a bot game has to ask a person.

For each game and player count, bot games are played by `games.engine.playout.play`, which
resolves forced decisions (exactly one legal move) the way the platform does and counts the
decisions a person would have been asked. The log is then replayed and every asked decision
is checked again here: how many legal answers it had, and whether it was asked of the same
seat as the one before (an answer a player could have chained in the same email when the
question was foreseeable). Goal: no person is ever asked a question with only one answer,
except where playing it at once would tell the table what that player alone knows
(`Game.asks_when_forced`, e.g. a Blankenburg purse behind its screen): those are counted
apart, as the price of keeping the secret.

    uv run python -m bench.roundtrips [--quick] [--game SLUG]
"""

from __future__ import annotations

import argparse

from bench.common import bench_seed, game_sizes, report, table
from games.engine import event_rng, playout


def measure(game, players: int, *, matches: int) -> dict:
    decisions = forced = asked = single = single_to_hide = same_seat_again = 0
    answers = []
    for n in range(matches):
        log = playout.play(game, players, seed=bench_seed(f"bench-roundtrips:{n}"))
        decisions += log.moves
        forced += log.forced
        asked += log.asked
        state = game.setup(playout.player_names(players), log.options, event_rng(log.seed, 0))
        previous_asked = None
        for seq, (seat, move, source) in enumerate(log.log, start=1):
            if source == "bot":
                count = len(game.legal_moves(state, seat))
                answers.append(count)
                hiding = count == 1 and game.asks_when_forced(state, seat)
                single += count == 1 and not hiding
                single_to_hide += hiding
                same_seat_again += previous_asked == seat
                previous_asked = seat
            state = game.apply(state, seat, move, event_rng(log.seed, seq))
    return {
        "game": game.slug,
        "players": players,
        "matches": matches,
        "decisions_per_game": decisions / matches,
        "forced_per_game": forced / matches,
        "asked_per_game": asked / matches,
        "asked_per_player": asked / matches / players,
        "asked_with_one_answer": single,
        "asked_with_one_answer_to_hide": single_to_hide / matches,
        "same_seat_again_per_game": same_seat_again / matches,
        "mean_answers_when_asked": sum(answers) / len(answers) if answers else 0,
    }


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--game", action="append", help="only this slug (repeatable)")
    args = parser.parse_args(argv)
    matches = 2 if args.quick else 40
    rows, figures = [], []
    for game, players in game_sizes(args.game):
        f = measure(game, players, matches=matches)
        figures.append(f)
        rows.append(
            [
                game.slug,
                players,
                f["matches"],
                f"{f['decisions_per_game']:.1f}",
                f"{f['forced_per_game']:.1f}",
                f"{f['forced_per_game'] / f['decisions_per_game']:.0%}",
                f"{f['asked_per_game']:.1f}",
                f"{f['asked_per_player']:.1f}",
                f"{f['mean_answers_when_asked']:.1f}",
                f"{f['same_seat_again_per_game']:.1f}",
                f["asked_with_one_answer"],
            ]
        )
    text = table(
        [
            "game",
            "players",
            "games",
            "decisions/game",
            "forced/game",
            "forced share",
            "asked/game",
            "asked/player",
            "mean answers when asked",
            "same seat asked again/game",
            "asked with one answer (goal 0)",
        ],
        rows,
    )
    report("roundtrips", "Round trips (bot games)", text, {"rows": figures})
    return figures


if __name__ == "__main__":
    main()
