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


def test_the_swiss_of_five_ranks_its_byes_with_the_rest():
    """Issue 40's Swiss of 5, results by seed: round 1 2>1, 4>3 (5 the bye); round 2 4>2,
    1>5 (3 the bye); round 3 5>4, 3>2 (1 the bye). Seeds 1, 3, 4 and 5 finish on 2 points
    and equal scores; head to head among them: 1 beat 5, 4 beat 3, 5 beat 4, 3 beat none
    of them. So 1, 4, 5 (1 each, then by seed), 3, and 2 on 1 point."""
    seeds = {p: p for p in range(1, 6)}

    def won(winner, loser):
        return Finished(players=[winner, loser], places=[1, 2], scores=[0, 0])

    matches = [won(2, 1), won(4, 3), won(4, 2), won(1, 5), won(5, 4), won(3, 2)]
    rows = standings(seeds, matches, byes=[5, 3, 1])
    assert [r.player for r in rows] == [1, 4, 5, 3, 2]
    assert [r.points for r in rows] == [2, 2, 2, 2, 1]
    assert [r.head_to_head for r in rows] == [1, 1, 1, 0, 0]
    # The order of the results does not matter: the byes are counted before any tie-break.
    assert standings(seeds, reversed(matches), byes=[1, 3, 5]) == rows
