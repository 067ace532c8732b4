import json

import pytest
from sesame.utils import get_token

from games.api import api_token
from games.models import Move
from games.selectors import load_state
from tests.factories import make_user, two_player_match

pytestmark = pytest.mark.django_db


def post(client, match, body, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(
        f"/api/matches/{match.pk}/moves/",
        json.dumps(body),
        content_type="application/json",
        **headers,
    )


def test_player_reads_own_view_and_a_stranger_the_public_one(client):
    match, anna, bram = two_player_match(watchable=True)
    anna_user = match.seats.get(number=anna).user
    client.force_login(anna_user)
    data = client.get(f"/api/matches/{match.pk}/").json()
    assert data["your_seat"] == anna
    assert data["view"]["hand"] == load_state(match)["hands"][anna]
    assert data["seed"] is None and len(data["seed_commitment"]) == 64
    assert [e["number"] for e in data["legal"]] == [1, 2, 3]
    client.force_login(make_user("Cor"))
    public = client.get(f"/api/matches/{match.pk}/").json()
    assert public["your_seat"] is None and public["view"]["hand"] is None
    assert public["legal"] == []


def test_anonymous_gets_401_and_unknown_match_404(client):
    match, *_ = two_player_match()
    assert client.get(f"/api/matches/{match.pk}/").status_code == 401
    client.force_login(make_user("Cor"))
    assert client.get("/api/matches/9999/").status_code == 404


def test_move_by_token_with_menu_number_and_idempotency_key(client):
    match, anna, bram = two_player_match()
    token = api_token(match.seats.get(number=anna).user)
    first = post(client, match, {"command": "1", "seq": 0, "idempotency_key": "k1"}, token)
    again = post(client, match, {"command": "1", "seq": 0, "idempotency_key": "k1"}, token)
    assert first.status_code == 200 and first.json()["ok"]
    assert again.status_code == 200 and again.json()["duplicate"]
    assert Move.objects.filter(match=match).count() == 1


def test_bad_input_gets_a_clear_answer_and_changes_nothing(client):
    match, anna, bram = two_player_match()
    token = api_token(match.seats.get(number=anna).user)
    assert post(client, match, {"nothing": 1}, token).status_code == 400
    garbled = client.post(
        f"/api/matches/{match.pk}/moves/",
        "{not json",
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert garbled.status_code == 400
    wrong = post(client, match, {"command": "play 99"}, token)
    assert wrong.status_code == 400 and "cannot play" in wrong.json()["error"]
    assert post(client, match, {"command": "hello"}, token).json()["error"].startswith("Expected")
    stranger = api_token(make_user("Cor"))
    assert post(client, match, {"command": "1"}, stranger).status_code == 403
    assert post(client, match, {"command": "1"}, "forged-token").status_code == 401
    assert Move.objects.filter(match=match).count() == 0


def test_session_post_without_csrf_token_is_refused():
    from django.test import Client

    match, anna, bram = two_player_match()
    client = Client(enforce_csrf_checks=True)
    client.force_login(match.seats.get(number=anna).user)
    response = post(client, match, {"command": "1"})
    assert response.status_code == 403
    assert Move.objects.filter(match=match).count() == 0


def test_a_parser_that_trips_gives_a_clear_answer_not_a_500(client, monkeypatch):
    from tests.sealed_cards import GAME

    match, anna, bram = two_player_match()
    token = api_token(match.seats.get(number=anna).user)

    def broken_parse(text, state, seat):
        raise IndexError("list index out of range")

    monkeypatch.setattr(GAME, "parse", broken_parse)
    response = post(client, match, {"command": "play now"}, token)
    assert response.status_code == 400
    assert "could not be read" in response.json()["error"]
    assert Move.objects.filter(match=match).count() == 0


def test_a_token_is_checked_against_the_seat_the_lock_reads(client):
    """The token's user and seat are read with the match lock: a token that names a seated
    player but is not good for them writes nothing and answers 401, as before a seat was read;
    a good token answers 403 where its user has no seat and 404 where there is no match."""
    match, anna, bram = two_player_match()
    anna_user = match.seats.get(number=anna).user
    token = api_token(anna_user)
    tampered = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    assert post(client, match, {"command": "1"}, tampered).status_code == 401
    site_token = get_token(anna_user)  # the same user's token for the site, not the API
    assert post(client, match, {"command": "1"}, site_token).status_code == 401
    anna_user.set_password("a new password")  # sesame's tokens die with the password
    anna_user.save()
    assert post(client, match, {"command": "1"}, token).status_code == 401
    fresh = api_token(anna_user)
    anna_user.is_active = False
    anna_user.save()
    assert post(client, match, {"command": "1"}, fresh).status_code == 401
    assert Move.objects.filter(match=match).count() == 0

    stranger = api_token(make_user("Cor"))
    assert post(client, match, {"command": "1"}, stranger).status_code == 403
    gone = type(match)(pk=987654)
    assert post(client, gone, {"command": "1"}, stranger).status_code == 404
    assert post(client, gone, {"command": "1"}, tampered).status_code == 401
    assert post(client, gone, {"command": "1"}).status_code == 401


def test_a_session_player_moves_through_the_same_claim(client):
    match, anna, bram = two_player_match()
    client.force_login(match.seats.get(number=anna).user)
    first = post(client, match, {"command": "1", "seq": 0})
    assert first.status_code == 200 and first.json()["seq"] == 1
    again = post(client, match, {"command": "1", "seq": 0})
    assert again.status_code == 409  # not this seat's turn any more
    client.force_login(make_user("Cor"))
    assert post(client, match, {"command": "1"}).status_code == 403
    assert Move.objects.filter(match=match).count() == 1
