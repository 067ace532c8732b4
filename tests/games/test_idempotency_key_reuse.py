"""An idempotency key means one request. The same key with another move is refused and
nothing is applied, on every path; the same move again (in any spelling) is a repeat."""

import pytest

from games import services
from games.models import Move
from tests.api.conftest import token_client
from tests.factories import two_player_match
from tests.web.conftest import logged_in

pytestmark = pytest.mark.django_db


def players(match, first, second):
    seats = {s.number: s.user for s in match.seats.select_related("user")}
    return seats[first], seats[second]


def test_a_key_reused_with_another_move_is_refused_by_the_api():
    match, anna, bram = two_player_match()
    client = token_client(players(match, anna, bram)[0])
    first = client.post(f"/matches/{match.pk}/moves", {"command": "1", "idempotency_key": "k1"})
    assert first.status_code == 200
    played = Move.objects.get(match=match)
    other = client.post(f"/matches/{match.pk}/moves", {"command": "2", "idempotency_key": "k1"})
    assert other.status_code == 409 and other.json()["error"]["code"] == "key_reused"
    assert "already used for another request" in other.json()["error"]["message"]
    assert Move.objects.filter(match=match).count() == 1
    # The same move, by its menu number, its words or as JSON, is a repeat, not a conflict.
    for body in ({"command": "1"}, {"command": f"play {played.payload['card']}"}):
        again = client.post(f"/matches/{match.pk}/moves", {**body, "idempotency_key": "k1"})
        assert again.status_code == 200 and again.json()["duplicate"], body
    again = client.post(
        f"/matches/{match.pk}/moves", {"move": played.payload, "idempotency_key": "k1"}
    )
    assert again.status_code == 200 and again.json()["duplicate"]
    assert Move.objects.filter(match=match).count() == 1


def test_a_form_posted_again_with_another_move_is_refused_on_the_web():
    match, anna, bram = two_player_match()
    client = logged_in(players(match, anna, bram)[0])
    url = f"/matches/{match.pk}/move/"
    assert client.post(url, {"command": "1", "seq": 0, "token": "form-token-1"}).status_code == 302
    page = client.post(
        url, {"command": "2", "seq": 0, "token": "form-token-1"}, follow=True
    ).content.decode()
    assert "already used for another request" in page
    assert Move.objects.filter(match=match).count() == 1


def test_the_service_refuses_a_reused_key_whatever_the_path():
    match, anna, bram = two_player_match()
    anna_user, bram_user = players(match, anna, bram)
    hand = sorted(services.load_state(match)["hands"][anna])
    first = services.submit_move(
        match_id=match.pk,
        player=anna_user,
        move={"type": "play", "card": hand[0]},
        source="email",
        idempotency_key="email:abc:0",
    )
    assert first.outcome == services.Outcome.APPLIED
    other = services.submit_move(
        match_id=match.pk,
        player=anna_user,
        move={"type": "play", "card": hand[1]},
        source="email",
        idempotency_key="email:abc:0",
    )
    assert other.outcome == services.Outcome.KEY_REUSED
    same = services.submit_move(
        match_id=match.pk,
        player=anna_user,
        command=f"play {hand[0]}",
        source="email",
        idempotency_key="email:abc:0",
    )
    assert same.outcome == services.Outcome.REPEAT
    assert Move.objects.filter(match=match).count() == 1


def test_a_new_key_with_another_move_is_a_new_move():
    match, anna, bram = two_player_match()
    anna_user, bram_user = players(match, anna, bram)
    token_client(anna_user).post(
        f"/matches/{match.pk}/moves", {"command": "1", "idempotency_key": "k1"}
    )
    reply = token_client(bram_user).post(
        f"/matches/{match.pk}/moves", {"command": "1", "idempotency_key": "k1"}
    )
    assert reply.status_code == 200 and not reply.json()["duplicate"]
    assert Move.objects.filter(match=match).count() >= 2
