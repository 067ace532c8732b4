"""A match replays with the rules version it was created with; stored logs from earlier
versions keep replaying to their digests."""

import json
from pathlib import Path

import pytest

from games import services
from games.engine import get_game, register
from games.selectors import verify_match
from tests.sealed_cards import SealedCards

pytestmark = pytest.mark.django_db

STORED_LOGS = sorted((Path(__file__).parents[1] / "fixtures" / "logs").glob("*.json"))


class SealedCardsV2(SealedCards):
    """A later version whose scoring differs: a trick scores one point more."""

    version = 2

    def apply(self, state, seat, move, rng):
        before = list(state["scores"])
        state = super().apply(state, seat, move, rng)
        for s, (old, new) in enumerate(zip(before, state["scores"])):
            if new != old:
                state["scores"][s] += 1
        return state


def test_old_matches_keep_their_version_when_a_new_one_is_registered():
    old = services.create_match(
        creator=None, game_slug="sealed-cards", players=3, bots=3, seed="v1-match"
    )
    register(SealedCardsV2())
    try:
        assert get_game("sealed-cards").version == 2
        new = services.create_match(
            creator=None, game_slug="sealed-cards", players=3, bots=3, seed="v1-match"
        )
        assert old.rules_version == 1 and new.rules_version == 2
        assert verify_match(old).ok and verify_match(new).ok
        old.refresh_from_db()
        new.refresh_from_db()
        assert sum(new.result["scores"]) == sum(old.result["scores"]) + 3
    finally:
        from games.engine import registry

        del registry._games["sealed-cards"][2]


@pytest.mark.parametrize("path", STORED_LOGS, ids=[p.stem for p in STORED_LOGS])
def test_stored_logs_replay_to_their_digests(path):
    data = json.loads(path.read_text())
    match = services.import_match(data=data)  # refuses any move that replays differently
    assert verify_match(match).ok
    assert match.moves.count() == len(data["moves"])


def test_there_are_stored_logs():
    assert STORED_LOGS


@pytest.mark.parametrize("slug", ["new-england", "blankenburg"])
def test_new_matches_of_a_game_with_a_second_version_use_it(slug):
    newest = get_game(slug)
    assert newest.version >= 2 and get_game(slug, 1).version == 1
    match = services.create_match(creator=None, game_slug=slug, players=3, bots=3, seed="new")
    assert match.rules_version == newest.version
    assert verify_match(match).ok
