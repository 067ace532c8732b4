"""Bot simulations for balance: `python -m games.rules.blankenburg.simulate [games]`.

Prints, per player count and board side, the turns played, how games end, scores, and the
win rate of each character and seat (wins shared on ties). Used to tune the designed cards;
the figures are recorded in docs/rules/blankenburg.md.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict

from games.engine import event_rng
from games.engine.playout import player_names

from . import GAME
from .data import PLANS


def run_game(players: int, seed: str, options: dict | None = None) -> dict:
    options = GAME.validate_options(players, options or {})
    state = GAME.setup(player_names(players), options, event_rng(seed, 0))
    moves = 0
    while state["result"] is None:
        seats = GAME.to_act(state)
        bot_rng = event_rng(seed + ":bot", moves + 1)
        seat = seats[0] if len(seats) == 1 else bot_rng.choice(seats)
        move = GAME.bot_move(state, seat, bot_rng)
        moves += 1
        state = GAME.apply(state, seat, move, event_rng(seed, moves))
    return {"state": state, "moves": moves}


def report(players: int, games: int, options: dict | None = None) -> None:
    turns, moves, town_full, top, low = [], [], 0, [], []
    char_games: Counter = Counter()
    char_wins: defaultdict = defaultdict(float)
    seat_wins: defaultdict = defaultdict(float)
    built: Counter = Counter()
    for g in range(games):
        out = run_game(players, f"sim-{players}-{g}", options)
        state = out["state"]
        turns.append(state["turn"])
        moves.append(out["moves"])
        town_full += all(s is not None for s in state["town"])
        scores = state["result"]["scores"]
        best = max(scores)
        winners = [s for s in range(players) if scores[s] == best]
        top.append(best)
        low.append(min(scores))
        first_at_start = (state["first"] - state["turn"] + 1) % players
        for s, p in enumerate(state["players"]):
            char_games[p["char"]] += 1
            if s in winners:
                char_wins[p["char"]] += 1 / len(winners)
                seat_wins[(s - first_at_start) % players] += 1 / len(winners)
        for s in state["town"]:
            if s is not None:
                built[PLANS[s["card"]].name] += 1
    label = f"{players}p {options or {}}"
    print(
        f"{label}: turns {sum(turns) / games:.1f} (min {min(turns)}, max {max(turns)}), "
        f"moves {sum(moves) / games:.0f}, town full {town_full / games:.0%}, "
        f"winner {sum(top) / games:.1f}, last {sum(low) / games:.1f}"
    )
    fair = 1 / players
    chars = ", ".join(f"{c} {char_wins[c] / char_games[c] / fair:.2f}" for c in sorted(char_games))
    print(f"  character win rate / fair share: {chars}")
    seats = ", ".join(f"{k + 1}: {seat_wins[k] / games / fair:.2f}" for k in range(players))
    print(f"  seat from the first player, win rate / fair share: {seats}")
    print(f"  most built: {built.most_common(8)}")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for players in range(2, 7):
        report(players, games)
    report(4, games, {"board": "back"})
    report(5, games, {"board": "back"})
    report(6, games, {"board": "back"})
    report(2, games, {"master_builder": True})


if __name__ == "__main__":
    main()
