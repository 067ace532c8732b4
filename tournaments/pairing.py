"""Who sits at which table in a round: pure functions of the entrants, what they met before
and a seeded random stream (no Django). Players are ids; a table is a tuple of them.

- `round_robin`: every pair once (two-player games), by the circle method: n - 1 rounds
  (n rounds with a bye when n is odd).
- `swiss`: two-player pairs for the next round from the standings: the best unpaired player
  meets the next best they have not met; the bye (odd n) goes to the lowest who had none.
- `knockout`: a cup's round by seed: two-player tables pair the best with the worst (the
  best seed has the bye when the count is odd); larger tables are dealt by seed in a snake,
  so every table gets strong and weak players alike. `goes_on` of each table go on; when
  seating everyone would leave a final too small, the best seeds have byes instead
  (`knockout_plan`).
- `tables`: tables of 3 to 6 that make players meet as evenly as possible across rounds:
  seeded shuffles improved by swapping players between tables, keeping the draw whose tables
  repeat the fewest meetings (the sum of the squares of how often each pair at a table met
  before, so one pair meeting three times costs more than three pairs meeting twice).
  A count that no tables seat exactly seats the most they can (`largest_seatable`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

Table = tuple[int, ...]
Meetings = Counter  # frozenset({a, b}) -> how often a and b sat at one table


def round_robin(players: Sequence[int]) -> list[list[Table]]:
    """Every round of a two-player round robin: each pair meets exactly once."""
    ring: list[int | None] = list(players)
    if len(ring) % 2:
        ring.append(None)  # the bye
    rounds = []
    for _ in range(len(ring) - 1):
        half = len(ring) // 2
        pairs = [(ring[i], ring[-1 - i]) for i in range(half)]
        rounds.append([(a, b) for a, b in pairs if a is not None and b is not None])
        ring = [ring[0], ring[-1], *ring[1:-1]]  # the first stays, the others turn
    return rounds


def swiss(
    ranked: Sequence[int], met: Meetings, had_bye: set[int]
) -> tuple[list[Table], int | None]:
    """The next round's pairs for players ranked best first, and who has the bye."""
    order = list(ranked)
    bye = None
    if len(order) % 2:
        bye = next((p for p in reversed(order) if p not in had_bye), order[-1])
        order.remove(bye)
    pairs = _pair(order, met)
    if pairs is None:  # everybody met everybody: pair in order, repeats allowed
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    return pairs, bye


def _pair(order: list[int], met: Meetings) -> list[Table] | None:
    """Pairs with no repeat, the best first player with the best opponent left (backtracking)."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for opponent in rest:
        if met[frozenset((first, opponent))]:
            continue
        others = _pair([p for p in rest if p != opponent], met)
        if others is not None:
            return [(first, opponent), *others]
    return None


def seatable(players: int, size: int, smallest: int) -> bool:
    """Whether tables of `smallest` to `size` seat exactly `players`: the fewest tables
    (more tables only need more players) hold them with none under `smallest`."""
    count = -(-players // size)  # ceiling
    return players >= smallest and count * smallest <= players


def largest_seatable(players: int, size: int, smallest: int) -> int:
    """The most of `players` that tables of `smallest` to `size` seat (0: not even one
    table). The others sit the round out with a bye: fewer than `size` of them."""
    return next((n for n in range(players, smallest - 1, -1) if seatable(n, size, smallest)), 0)


def table_sizes(players: int, size: int, smallest: int) -> list[int]:
    """Tables of `size`, as many as needed, some one smaller so nobody sits out; ValueError
    when that needs a table under `smallest` (the game's fewest players)."""
    if not seatable(players, size, smallest):
        raise ValueError(
            f"{players} players cannot sit at tables of {smallest} to {size}: "
            "sign up more players or choose another table size."
        )
    count = -(-players // size)
    return [players // count + (1 if i < players % count else 0) for i in range(count)]


def meeting_cost(table: Table, met: Meetings) -> int:
    return sum(met[frozenset(pair)] ** 2 for pair in combinations(table, 2))


def tables(
    players: Sequence[int],
    sizes: Sequence[int],
    met: Meetings,
    rng: random.Random,
    tries: int = 20,
) -> list[Table]:
    """Seat `players` at tables of `sizes`, repeating as few meetings as possible: from each of
    a few seeded shuffles, swap players between tables while a swap lowers the cost; keep the
    best."""
    best, best_cost = None, None
    pool = list(players)
    for _ in range(tries):
        rng.shuffle(pool)
        draw, at = [], 0
        for size in sizes:
            draw.append(list(pool[at : at + size]))
            at += size
        _improve(draw, met)
        cost = sum(meeting_cost(tuple(t), met) for t in draw)
        if best_cost is None or cost < best_cost:
            best, best_cost = draw, cost
            if cost == 0:
                break
    return sorted(tuple(sorted(t)) for t in best or [])


def _improve(draw: list[list[int]], met: Meetings) -> None:
    """Swap two players of different tables while that lowers the tables' cost."""

    def cost_of(table: list[int]) -> int:
        return meeting_cost(tuple(table), met)

    better = True
    while better:
        better = False
        for a, b in combinations(range(len(draw)), 2):
            for i in range(len(draw[a])):
                for j in range(len(draw[b])):
                    before = cost_of(draw[a]) + cost_of(draw[b])
                    draw[a][i], draw[b][j] = draw[b][j], draw[a][i]
                    if cost_of(draw[a]) + cost_of(draw[b]) < before:
                        better = True
                    else:
                        draw[a][i], draw[b][j] = draw[b][j], draw[a][i]


def record(met: Meetings, round_tables: Sequence[Table]) -> None:
    for table in round_tables:
        for pair in combinations(table, 2):
            met[frozenset(pair)] += 1


def goes_on(size: int) -> int:
    """How many of a knockout table go on: the winner of two, the top half of more."""
    return 1 if size <= 3 else size // 2


@cache
def knockout_plan(players: int, size: int, smallest: int) -> tuple[int, ...] | None:
    """How many of a cup's `players` play in each round, down to the final (the others have
    a bye and go on), or None if no draw ends in a final of `smallest` to `size` players.
    Each round seats as many as it can: New England's cup of 6 at tables of 4 seats 4 in
    round 1 (6 at tables of 3 and 3 would leave 2 for a final of 3 or 4) and 2 go on by bye.
    """
    if players < max(2, smallest):
        return None
    if players <= size:
        return (players,)
    for seated in range(players, smallest - 1, -1):
        if not seatable(seated, size, smallest):
            continue
        after = sum(goes_on(s) for s in table_sizes(seated, size, smallest)) + players - seated
        rest = knockout_plan(after, size, smallest) if after < players else None
        if rest is not None:
            return (seated, *rest)
    return None


def knockout(seeded: Sequence[int], size: int, smallest: int) -> tuple[list[Table], list[int]]:
    """A knockout round for players best seed first: its tables and the byes (the best
    seeds, as many as `knockout_plan` leaves out of this round)."""
    order = list(seeded)
    plan = knockout_plan(len(order), size, smallest)
    if plan is None:
        raise ValueError(f"A cup of {len(order)} at tables of {size} cannot end in a final.")
    byes, order = order[: len(order) - plan[0]], order[len(order) - plan[0] :]
    if size > 2 and len(order) <= size:  # the final
        return [tuple(order)], byes
    if size == 2:
        half = len(order) // 2
        return [(order[i], order[-1 - i]) for i in range(half)], byes
    sizes = table_sizes(len(order), size, smallest)
    tables: list[list[int]] = [[] for _ in sizes]
    row = 0
    for start in range(0, len(order), len(sizes)):  # a snake: 1 2 3, 6 5 4, 7 8 9, ...
        chunk = order[start : start + len(sizes)]
        indexes = list(range(len(sizes)))
        if row % 2:
            indexes.reverse()
        for player, index in zip(chunk, [i for i in indexes if len(tables[i]) < sizes[i]]):
            tables[index].append(player)
        row += 1
    return [tuple(t) for t in tables], byes


def knockout_rounds(players: int, size: int, smallest: int) -> int:
    """How many rounds a cup of `players` takes (0: it cannot be played)."""
    return len(knockout_plan(players, size, smallest) or ())
