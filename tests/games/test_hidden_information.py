"""The hidden-information check applied to the test game, and proof that it can fail."""

import pytest

from games.engine import register
from tests.hidden import check_match_for_leaks
from tests.sealed_cards import SealedCards

pytestmark = pytest.mark.django_db


class LeakyCards(SealedCards):
    """Shows every hand to everyone: the check must catch it."""

    slug = "leaky-cards"

    def view(self, state, seat):
        view = super().view(state, seat)
        view["all_hands"] = [self.render_text({**view, "hand": h}) for h in state["hands"]]
        return view


def test_no_secret_of_the_test_game_reaches_another_seat(django_capture_on_commit_callbacks):
    report = check_match_for_leaks("sealed-cards", 3, on_commit=django_capture_on_commit_callbacks)
    assert report.leaks == []
    assert report.positions >= 7 and report.secrets_seen > 0


def test_the_check_catches_a_leaking_view(django_capture_on_commit_callbacks):
    from games.engine import registry

    register(LeakyCards())
    try:
        report = check_match_for_leaks(
            "leaky-cards", 2, on_commit=django_capture_on_commit_callbacks
        )
    finally:
        del registry._games["leaky-cards"]  # other tests iterate over every registered game
    assert report.leaks, "a view showing every hand must be reported"
    assert any("api" in leak for leak in report.leaks)


HOSTED = [
    ("nieuwstad", 2),
    ("nieuwstad", 4),
    ("new-england", 3),
    ("new-england", 4),
    ("blankenburg", 2),
    ("blankenburg", 5),
]


@pytest.mark.once  # what a page shows does not depend on the database behind it
@pytest.mark.parametrize(("slug", "players"), HOSTED)
def test_no_secret_of_a_hosted_game_reaches_another_seat(
    slug, players, django_capture_on_commit_callbacks
):
    """Every 20th position (and the last) of one match per game: the fast run."""
    report = check_match_for_leaks(
        slug, players, seed=f"fast-{slug}", every=20, on_commit=django_capture_on_commit_callbacks
    )
    assert report.leaks == []
    assert report.secrets_seen > 0 and report.skipped_rows_compared > 0


@pytest.mark.slow
@pytest.mark.parametrize(
    ("slug", "players"), [("nieuwstad", 3), ("new-england", 3), ("blankenburg", 4)]
)
def test_no_secret_at_any_position(slug, players, django_capture_on_commit_callbacks):
    """A whole match, checked at every fourth position (every fifth at an even number of
    players, so that a step that shares no factor with the table checks the positions after
    each seat's moves in turn), at every position where a seat decides unasked, and at the
    end; at every sixteenth or so, the history and replay read back from half-way too.
    Checking every position took 2,100 s of test time for these three matches (on a loaded
    box), and every second or third still 430 s on a slower one, most of CI's long step; the
    fast test above samples every 20th position of six more."""
    every = 4 if players % 2 else 5
    report = check_match_for_leaks(
        slug,
        players,
        seed=f"every-{slug}",
        every=every,
        deep_every=16 // every,
        on_commit=django_capture_on_commit_callbacks,
    )
    assert report.leaks == []
    assert report.secrets_seen > 0
