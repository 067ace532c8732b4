"""Each plan's mark on the fitted board (issue 28, item 6): one for every plan, of one to three
letters, no two alike, so the legend under the board names each mark once."""

from games.rules.blankenburg.data import PLAN_NAMES
from games.rules.blankenburg.view import MARKS


def test_every_plan_has_its_own_short_mark():
    assert set(MARKS) == set(PLAN_NAMES)
    assert all(1 <= len(mark) <= 3 for mark in MARKS.values())
    assert len(set(MARKS.values())) == len(MARKS)
