"""An API client that reuses an idempotency key for a different move is told so and nothing
is applied; the same move again (in any spelling) is answered as a duplicate."""

import json

import pytest

from games.api import api_token
from games.models import Move
from tests.factories import two_player_match

pytestmark = pytest.mark.django_db


def post(client, match, body, token):
    return client.post(
        f"/api/matches/{match.pk}/moves/",
        json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def test_a_key_reused_with_another_move_is_refused(client):
    match, anna, bram = two_player_match()
    token = api_token(match.seats.get(number=anna).user)
    first = post(client, match, {"command": "1", "seq": 0, "idempotency_key": "k1"}, token)
    assert first.status_code == 200
    played = Move.objects.get(match=match)
    other = post(client, match, {"command": "2", "seq": 0, "idempotency_key": "k1"}, token)
    assert other.status_code == 409
    assert "already used for another move" in other.json()["error"]
    assert Move.objects.filter(match=match).count() == 1
    # The same move, by its menu number or by its words, is a duplicate, not a conflict.
    words = f"play {played.payload['card']}"
    for command in ("1", words):
        again = post(client, match, {"command": command, "seq": 0, "idempotency_key": "k1"}, token)
        assert again.status_code == 200 and again.json()["duplicate"], command
    assert Move.objects.filter(match=match).count() == 1


def test_a_new_key_with_another_move_is_a_new_move(client):
    match, anna, bram = two_player_match()
    token = api_token(match.seats.get(number=anna).user)
    post(client, match, {"command": "1", "seq": 0, "idempotency_key": "k1"}, token)
    bram_token = api_token(match.seats.get(number=bram).user)
    reply = post(client, match, {"command": "1", "idempotency_key": "k1"}, bram_token)
    assert reply.status_code == 200 and not reply.json()["duplicate"]
    assert Move.objects.filter(match=match).count() >= 2
