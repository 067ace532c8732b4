"""The draws, pure: a round robin meets every pair once, Swiss never repeats a pair while it
can, tables spread the meetings."""

import random
from collections import Counter
from itertools import combinations

import pytest

from tournaments import pairing


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_a_round_robin_meets_every_pair_exactly_once(n):
    rounds = pairing.round_robin(list(range(n)))
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset(p) for r in rounds for p in r)
    assert set(met) == {frozenset(p) for p in combinations(range(n), 2)}
    assert set(met.values()) == {1}
    for r in rounds:  # nobody plays twice in a round
        seated = [p for pair in r for p in pair]
        assert len(seated) == len(set(seated))


def test_swiss_pairs_by_standing_without_repeats_and_moves_the_bye_on():
    met = Counter()
    had_bye: set[int] = set()
    ranked = [1, 2, 3, 4, 5]
    for _ in range(4):
        pairs, bye = pairing.swiss(ranked, met, had_bye)
        assert bye not in had_bye
        had_bye.add(bye)
        assert all(not met[frozenset(p)] for p in pairs)
        pairing.record(met, pairs)
        ranked = ranked[1:] + ranked[:1]
    assert len(had_bye) == 4
    first, _ = pairing.swiss([1, 2, 3, 4], Counter(), set())
    assert first == [(1, 2), (3, 4)]  # the best meets the next best


def test_swiss_repeats_only_when_everybody_met_everybody():
    met = Counter({frozenset(p): 1 for p in combinations([1, 2, 3, 4], 2)})
    pairs, bye = pairing.swiss([1, 2, 3, 4], met, set())
    assert bye is None and sorted(p for pair in pairs for p in pair) == [1, 2, 3, 4]


def test_table_sizes_seat_everybody_or_say_why_not():
    assert pairing.table_sizes(12, 4, 3) == [4, 4, 4]
    assert pairing.table_sizes(10, 4, 3) == [4, 3, 3]
    assert pairing.table_sizes(7, 3, 2) == [3, 2, 2]
    with pytest.raises(ValueError, match="cannot sit"):
        pairing.table_sizes(5, 4, 3)


def test_tables_spread_meetings_more_evenly_than_chance():
    players = list(range(12))
    met, chance = Counter(), Counter()
    rng = random.Random("t")
    for _ in range(4):
        pairing.record(met, pairing.tables(players, [4, 4, 4], met, rng))
        shuffled = players[:]
        rng.shuffle(shuffled)
        pairing.record(chance, [tuple(shuffled[i : i + 4]) for i in (0, 4, 8)])
    # 4 rounds of 3 tables of 4: 72 meetings. From the second round on, each earlier table's
    # 4 players meet 3 tables, so two of them sit together again: 3 repeats a round at least.
    assert sum(met.values()) == 72
    assert max(met.values()) <= 2
    assert sum(v * v for v in met.values()) < sum(v * v for v in chance.values())


def test_a_knockout_round_pairs_best_with_worst_and_snakes_larger_tables():
    assert pairing.knockout([1, 2, 3, 4], 2, 2) == ([(1, 4), (2, 3)], [])
    assert pairing.knockout([1, 2, 3, 4, 5], 2, 2) == ([(2, 5), (3, 4)], [1])
    tables, byes = pairing.knockout(list(range(1, 13)), 4, 3)
    assert byes == [] and sorted(map(sorted, tables)) == [
        [1, 6, 7, 12],
        [2, 5, 8, 11],
        [3, 4, 9, 10],
    ]
    assert pairing.knockout([1, 2, 3], 4, 3) == ([(1, 2, 3)], [])  # the final
    assert pairing.knockout_rounds(8, 2, 2) == 3 and pairing.knockout_rounds(5, 2, 2) == 3
    assert pairing.knockout_rounds(16, 4, 3) == 3  # 16 -> 8 -> 4 -> a final of 4


def test_a_cup_whose_final_would_be_too_small_gives_byes_to_the_best_seeds():
    # New England's cup of 6 at tables of 4: tables of 3 and 3 would send 2 to the final,
    # too few for the game; one table of 4 and two byes send 4.
    assert pairing.knockout_plan(6, 4, 3) == (4, 4)
    assert pairing.knockout(list(range(1, 7)), 4, 3) == ([(3, 4, 5, 6)], [1, 2])
    # At tables of 3 every table sends one of three on: an even count never ends in a
    # final of 3.
    assert pairing.knockout_plan(6, 3, 3) is None and pairing.knockout_plan(4, 3, 3) is None
    assert pairing.knockout_plan(5, 3, 3) == (3, 3)
    assert pairing.knockout_plan(2, 4, 3) is None
    for size, smallest in ((2, 2), (3, 2), (4, 3), (5, 2), (6, 3)):
        for players in range(max(2, smallest), 40):
            plan = pairing.knockout_plan(players, size, smallest)
            if plan is not None:  # each round seats a count tables seat, the last one table
                assert smallest <= plan[-1] <= size
                assert all(pairing.seatable(n, size, smallest) for n in plan)


def test_tables_seat_the_most_they_can_when_a_count_does_not_fit():
    # New England at tables of 3: 10 players are 3 tables and one who sits out.
    assert not pairing.seatable(10, 3, 3) and pairing.largest_seatable(10, 3, 3) == 9
    assert pairing.largest_seatable(5, 4, 3) == 4 and pairing.largest_seatable(2, 4, 3) == 0
    for size, smallest in ((3, 3), (4, 3), (3, 2), (6, 2), (6, 3)):
        for players in range(smallest, 40):
            seated = pairing.largest_seatable(players, size, smallest)
            assert players - seated < size
            assert sum(pairing.table_sizes(seated, size, smallest)) == seated
