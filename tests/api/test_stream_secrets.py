"""A seat's event stream never carries another seat's secret: in each game, people with
streams play (the games' own bots choosing their moves), and after every move each account's
new events are searched for the secrets (`game.secrets(state)`) of every other seat and of
nobody, and for the seed."""

import random

import pytest

from api.models import AccountEvent
from api.stream import events_after, open_stream
from games import services
from games.engine import get_game
from games.selectors import load_state
from tests.factories import make_user
from tests.hidden import _others

pytestmark = pytest.mark.django_db

DECISIONS = 80  # the opening and the middle game of each; a whole match is slow here


def flattened(value) -> list[str]:
    """An event's keys and values as strings, so an escaped secret is still found."""
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in [str(key), *flattened(item)]]
    if isinstance(value, list):
        return [s for item in value for s in flattened(item)]
    return [] if value is None else [str(value)]


@pytest.mark.parametrize(
    "slug, players", [("nieuwstad", 2), ("new-england", 3), ("blankenburg", 3)]
)
def test_a_seats_stream_never_carries_another_seats_secret(slug, players):
    game = get_game(slug)
    users = [make_user(f"{slug}-{n}") for n in range(players)]
    for user in users:
        open_stream(user.pk)
    match = services.create_match(
        creator=users[0],
        game_slug=slug,
        players=players,
        invite_emails=[u.email for u in users[1:]],
        seed=f"stream-secrets-{slug}",
    )
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    seat_of = {s.user_id: s.number for s in match.seats.all()}
    seen = dict.fromkeys(seat_of, 0)
    rng = random.Random(5)
    checked = 0
    for _ in range(DECISIONS):
        match.refresh_from_db()
        state = load_state(match)
        secrets = game.secrets(state)
        for user_id, seat in seat_of.items():
            forbidden = [] if match.is_over else [*_others(secrets, seat), match.seed]
            for event in events_after(user_id, seen[user_id]):
                seen[user_id] = event["id"]
                text = "\n".join(flattened(event))
                leaked = [s for s in forbidden if s and s in text]
                assert not leaked, f"seat {seat}'s {event['type']} event shows {leaked}"
                checked += 1
        if match.is_over:
            break
        asked = next(s for s in match.seats.all() if s.deadline_at is not None)
        move = game.bot_move(state, asked.number, rng)
        assert services.submit_move(
            match_id=match.pk, seat=asked.number, move=move, source="api"
        ).ok
    assert checked >= 10
    # Each seat was told its own turns, with moves from its own legal list only.
    for user_id in seat_of:
        assert AccountEvent.objects.filter(user_id=user_id, kind="turn").exists()
