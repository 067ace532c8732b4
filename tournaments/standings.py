"""A tournament's standings from its finished matches: pure (no Django).

Points per match by place: at a table of n the first gets 1, the last 0, and the places
between share the rest evenly ((n - place) / (n - 1)); players sharing places share their
points (a two-player draw is ½ each). Ties are broken, in this order, by the game's own
score (the sum over the tournament's matches), then head to head (how often a player
finished ahead of the others still tied with them, at tables they shared), then the seed.
A bye is a win: one point, no score, nobody met. A cup ranks by how far each player went
before all of that (`reached`).

Every tie-break is computed from the complete list of results, byes included, once: a
head to head worked out before the byes' points were added would compare players within
the wrong group.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class Finished:
    """One finished match: its players in seat order and, per seat, place and score."""

    players: Sequence[int]
    places: Sequence[int]  # 1 is first; shared places repeat
    scores: Sequence[int]


@dataclass
class Row:
    player: int
    seed: int  # 1 is the strongest at the start
    points: Fraction = Fraction(0)
    score: int = 0
    played: int = 0
    head_to_head: int = 0
    ahead_of: dict[int, int] = field(default_factory=lambda: defaultdict(int))


def match_points(places: Sequence[int]) -> list[Fraction]:
    n = len(places)
    if n < 2:
        return [Fraction(1)] * n
    # Each place group spans the positions place .. place + size - 1: it shares their points.
    size = defaultdict(int)
    for place in places:
        size[place] += 1
    points = []
    for place in places:
        span = range(place, place + size[place])
        points.append(sum(Fraction(n - p, n - 1) for p in span) / size[place])
    return points


def standings(
    seeds: dict[int, int],
    matches: Iterable[Finished],
    byes: Iterable[int] = (),
    reached: dict[int, int] | None = None,
) -> list[Row]:
    """Rows best first for the players of `seeds` (player -> seed), from every finished
    match and every bye (a player id per bye had); `reached` (player -> rounds reached)
    ranks a cup's players by how far they went, before the points."""
    reached = reached or {}
    rows = {p: Row(p, seed) for p, seed in seeds.items()}
    for player in byes:
        if player in rows:
            rows[player].points += 1
    for match in matches:
        points = match_points(match.places)
        for i, player in enumerate(match.players):
            row = rows.get(player)
            if row is None:
                continue
            row.points += points[i]
            row.score += match.scores[i]
            row.played += 1
            for j, other in enumerate(match.players):
                if match.places[i] < match.places[j]:
                    row.ahead_of[other] += 1
    # Head to head counts only against the players tied on everything before it.
    groups: dict[tuple, list[Row]] = defaultdict(list)
    for row in rows.values():
        groups[(reached.get(row.player, 0), row.points, row.score)].append(row)
    for group in groups.values():
        tied = {r.player for r in group}
        for row in group:
            row.head_to_head = sum(n for p, n in row.ahead_of.items() if p in tied)
    return sorted(
        rows.values(),
        key=lambda r: (-reached.get(r.player, 0), -r.points, -r.score, -r.head_to_head, r.seed),
    )
