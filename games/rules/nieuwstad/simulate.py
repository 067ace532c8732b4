"""Balance simulations: bot styles against each other (python -m games.rules.nieuwstad.simulate).

Each game seats a rotation of styles, so every style plays every seat equally often; the
figures reported are win shares per style, mean scores, rounds, and where points came from.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from itertools import permutations

from games.engine import event_rng, next_automatic
from games.engine.playout import player_names

from . import GAME
from . import rules as R


def play(players: int, styles: list[str], seed: str) -> dict:
    state = GAME.setup(
        player_names(players), GAME.validate_options(players, {}), event_rng(seed, 0)
    )
    state["options"]["bot_styles"] = {str(s): style for s, style in enumerate(styles)}
    seq = 0
    while GAME.result(state) is None:
        seq += 1
        auto = next_automatic(GAME, state)
        if auto is not None:
            seat, move = auto.seat, auto.move
        else:
            seats = GAME.to_act(state)
            rng = event_rng(seed + ":bot", seq)
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
            move = GAME.bot_move(state, seat, rng)
        state = GAME.apply(state, seat, move, event_rng(seed, seq))
    return state


def tournament(players: int, styles: tuple[str, ...], games: int) -> dict:
    wins: Counter = Counter()
    seats_played: Counter = Counter()
    scores: defaultdict = defaultdict(list)
    rounds = []
    built: Counter = Counter()
    orders = list(permutations(styles, players)) if len(styles) >= players else None
    for i in range(games):
        lineup = (
            list(orders[i % len(orders)])
            if orders
            else [styles[(i + s) % len(styles)] for s in range(players)]
        )
        state = play(players, lineup, f"bal-{players}-{i}")
        final = state["final"]
        winner = final["ranking"][0]
        wins[lineup[winner]] += 1
        for s, style in enumerate(lineup):
            seats_played[style] += 1
            scores[style].append(final["scores"][s])
        rounds.append(state["round"])
        for b in state["buildings"].values():
            if b["owner"] == winner:
                built[b["kind"]] += 1
    return {
        "win_share": {s: round(wins[s] / seats_played[s], 3) for s in seats_played},
        "mean_score": {s: round(sum(v) / len(v), 1) for s, v in scores.items()},
        "rounds": round(sum(rounds) / len(rounds), 2),
        "winner_buildings": dict(built.most_common(8)),
    }


def start_player_edge(players: int, games: int) -> dict:
    wins: Counter = Counter()
    for i in range(games):
        state = play(players, ["balanced"] * players, f"seat-{players}-{i}")
        wins[state["final"]["ranking"][0]] += 1
    return {seat: round(wins[seat] / games, 3) for seat in range(players)}


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for n in (2, 3, 4):
        print(n, "players, seats:", start_player_edge(n, count))
        print(
            n, "players, styles:", tournament(n, ("balanced", "builder", "trader", "carder"), count)
        )
    del R
