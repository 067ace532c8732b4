"""Standings, pure: points by place, then score, then head to head, then seed."""

from fractions import Fraction

from tournaments.standings import Finished, match_points, standings


def test_points_by_place_share_shared_places():
    assert match_points([1, 2]) == [1, 0]
    assert match_points([1, 1]) == [Fraction(1, 2), Fraction(1, 2)]
    assert match_points([1, 2, 3, 4]) == [1, Fraction(2, 3), Fraction(1, 3), 0]
    assert match_points([1, 2, 2, 4]) == [1, Fraction(1, 2), Fraction(1, 2), 0]


def test_ties_go_to_score_then_head_to_head_then_seed():
    seeds = {10: 1, 20: 2, 30: 3, 40: 4}
    matches = [
        Finished(players=[10, 20], places=[2, 1], scores=[5, 6]),  # 20 beat 10
        Finished(players=[30, 40], places=[1, 2], scores=[6, 5]),
        Finished(players=[10, 30], places=[1, 2], scores=[9, 2]),
        Finished(players=[20, 40], places=[2, 1], scores=[5, 6]),
    ]
    rows = standings(seeds, matches)
    # 10: 1 point, score 14; 20: 1, 11; 30: 1, 8; 40: 1, 11. 20 and 40 tie on points and
    # score; 40 beat 20 head to head, though 20 has the better seed.
    assert [r.player for r in rows] == [10, 40, 20, 30]
    assert [r.points for r in rows] == [1, 1, 1, 1]
    head = standings(
        {1: 2, 2: 1},
        [
            Finished([1, 2], [1, 2], [3, 3]),
            Finished([2, 1], [1, 2], [3, 3]),
            Finished([1, 2], [1, 1], [0, 0]),
        ],
    )
    assert [r.player for r in head] == [2, 1]  # level on everything: the better seed
    ahead = standings(
        {1: 2, 2: 1, 3: 3},
        [Finished([1, 2, 3], [1, 2, 3], [5, 5, 5]), Finished([2, 1, 3], [1, 3, 2], [5, 5, 5])],
    )
    # 1: 1 + 0 = 1, 2: 0.5 + 1 = 1.5, 3: 0 + 0.5 = 0.5.
    assert [r.player for r in ahead] == [2, 1, 3]
