"""The open API, version 1: what each token may do, the one error shape, and play."""

import pytest
from django.core.cache import cache
from django.test import Client

from api.models import ApiToken
from api.throttles import PER_MATCH_MINUTE, PER_MINUTE
from api.tokens import make_token
from games.models import Match
from games.selectors import load_state
from tests.api.conftest import TokenClient, token_client

pytestmark = pytest.mark.django_db


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    return body["error"]


def test_without_a_token_the_answer_is_401_in_the_one_error_shape():
    response = Client().get("/api/v1/matches")
    assert response.status_code == 401
    assert error_of(response)["code"] == "unauthenticated"
    bogus = TokenClient("pb_not-a-real-token").get("/matches")
    assert bogus.status_code == 401


def test_only_a_hash_of_the_token_is_stored_and_a_revoked_token_stops_working(duel):
    _match, anna, _bram = duel
    token, key = make_token(user=anna, name="script", scope="read")
    assert key not in str(list(ApiToken.objects.values_list()))
    client = TokenClient(key)
    assert client.get("/me").json() == {
        "id": anna.pk,
        "name": "Anna",
        "bot": False,
        "scope": "read",
    }
    page = Client()
    page.force_login(anna)
    page.post("/account/tokens/", {"action": "revoke", "token": token.pk})
    assert client.get("/me").status_code == 401


def test_the_account_page_makes_a_token_shown_once(duel):
    _match, anna, _bram = duel
    page = Client()
    page.force_login(anna)
    made = page.post("/account/tokens/", {"action": "make", "name": "bot", "scope": "play"})
    key = made.context["new_key"]
    assert key.startswith("pb_") and key in made.content.decode()
    assert TokenClient(key).get("/me").json()["scope"] == "play"
    assert key not in page.get("/account/tokens/").content.decode()


def test_a_read_token_cannot_move_chat_or_create(duel):
    match, anna, _bram = duel
    reader = token_client(anna, scope="read")
    assert reader.get(f"/matches/{match.pk}").status_code == 200
    for path, body in (
        (f"/matches/{match.pk}/moves", {"command": "play 1"}),
        (f"/matches/{match.pk}/chat", {"text": "hello"}),
        ("/matches", {"game": "sealed-cards", "players": 2}),
    ):
        response = reader.post(path, body)
        assert response.status_code == 403 and error_of(response)["code"] == "scope", path
    assert match.moves.count() == 0


def test_each_seat_sees_its_own_view_and_a_stranger_sees_nothing_of_a_private_match(duel, stranger):
    match, anna, bram = duel
    state = load_state(match)
    anna_seat = match.seats.get(user=anna).number
    bram_seat = match.seats.get(user=bram).number
    mine = token_client(anna).get(f"/matches/{match.pk}").json()
    assert mine["view"]["hand"] == state["hands"][anna_seat]
    assert str(state["hands"][bram_seat]) not in str(mine)
    assert mine["seed"] is None and mine["match"]["your_seat"] == anna_seat + 1
    hidden = token_client(stranger).get(f"/matches/{match.pk}")
    assert hidden.status_code == 404 and error_of(hidden)["code"] == "not_found"
    Match.objects.filter(pk=match.pk).update(watchable=True)
    watched = token_client(stranger).get(f"/matches/{match.pk}").json()
    assert watched["view"]["hand"] is None and watched["match"]["your_seat"] is None
    assert token_client(stranger).get(f"/matches/{match.pk}/legal").json() == []


def test_legal_moves_and_a_move_by_command_and_by_json(duel):
    match, anna, bram = duel
    anna_api, bram_api = token_client(anna), token_client(bram)
    legal = anna_api.get(f"/matches/{match.pk}/legal").json()
    assert [m["number"] for m in legal] == [1, 2, 3]
    assert all(m["command"].startswith("play ") for m in legal)
    played = anna_api.post(f"/matches/{match.pk}/moves", {"command": legal[0]["command"]})
    assert played.status_code == 200, played.content
    assert played.json()["seq"] == 1
    bram_legal = bram_api.get(f"/matches/{match.pk}/legal").json()
    moved = bram_api.post(f"/matches/{match.pk}/moves", {"move": bram_legal[-1]["move"]})
    assert moved.status_code == 200 and moved.json()["seq"] == 2
    assert match.moves.count() == 2


def test_an_idempotency_key_plays_once_and_a_stale_position_is_refused(duel):
    match, anna, bram = duel
    api = token_client(anna)
    body = {"command": "1", "seq": 0, "idempotency_key": "k-1"}
    first = api.post(f"/matches/{match.pk}/moves", body).json()
    again = api.post(f"/matches/{match.pk}/moves", body).json()
    assert first["duplicate"] is False and again["duplicate"] is True
    assert match.moves.count() == 1
    # Anna's sealed card does not make Bram's question older; the next trick does.
    bram_api = token_client(bram)
    assert (
        bram_api.post(f"/matches/{match.pk}/moves", {"command": "1", "seq": 0}).status_code == 200
    )
    stale = bram_api.post(f"/matches/{match.pk}/moves", {"command": "1", "seq": 1})
    assert stale.status_code == 409 and error_of(stale)["code"] == "moved_on"
    api = token_client(anna)
    assert api.post(f"/matches/{match.pk}/moves", {"command": "1", "seq": 2}).status_code == 200
    not_yours = api.post(f"/matches/{match.pk}/moves", {"command": "1"})  # Bram's turn now
    assert not_yours.status_code == 409 and error_of(not_yours)["code"] == "not_your_turn"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"command": "play 99"},
        {"command": "dance"},
        {"move": {"type": "play", "card": 3.5}},
        {"move": {"type": "play", "card": True}},
        {"move": [1, 2]},
        {"command": "1", "move": {"type": "play", "card": 1}},
        {"command": "1", "seq": -1},
        {"command": "x" * 3000},
    ],
)
def test_bad_moves_get_a_clear_error_and_change_nothing(duel, body):
    match, anna, _bram = duel
    response = token_client(anna).post(f"/matches/{match.pk}/moves", body)
    assert response.status_code in (400, 422), response.content
    assert error_of(response)["message"]
    assert match.moves.count() == 0


def test_chat_create_join_and_my_matches(duel, stranger):
    match, anna, _bram = duel
    anna_api = token_client(anna)
    posted = anna_api.post(f"/matches/{match.pk}/chat", {"text": "Good luck & have fun"})
    assert posted.status_code == 201 and posted.json()["text"] == "Good luck & have fun"
    assert anna_api.get(f"/matches/{match.pk}/chat").json()[-1]["author"] == "Anna"
    created = anna_api.post("/matches", {"game": "sealed-cards", "players": 2})
    assert created.status_code == 201
    new_id = created.json()["id"]
    joined = token_client(stranger).post(f"/matches/{new_id}/join")
    assert joined.status_code == 200 and joined.json()["status"] == "active"
    mine = anna_api.get("/matches").json()
    assert {m["id"] for m in mine["items"]} == {match.pk, new_id}
    refused = anna_api.post("/matches", {"game": "no-such-game", "players": 2})
    assert refused.status_code == 400 and error_of(refused)["code"] == "refused"


def test_turns_lists_where_you_are_asked_and_long_polls_when_nowhere(duel):
    match, anna, bram = duel
    turns = token_client(anna).get("/turns").json()
    assert [m["id"] for m in turns["matches"]] == [match.pk]
    assert turns["matches"][0]["your_turn"] and turns["matches"][0]["deadline_at"]
    token_client(anna).post(f"/matches/{match.pk}/moves", {"command": "1"})
    waited = token_client(anna).get("/turns", wait=1).json()
    assert waited["matches"] == [] and waited["waited"] >= 1


def test_history_archive_and_ratings(duel):
    match, anna, bram = duel
    token_client(anna).post(f"/matches/{match.pk}/moves", {"command": "1"})
    history = token_client(bram).get(f"/matches/{match.pk}/history").json()
    assert len(history) == 1 and "face down" in history[0]["text"]
    archive = token_client(anna).get("/archive", game="sealed-cards").json()
    assert archive["items"] == [] and archive["page"] == 1
    ratings = token_client(anna).get("/ratings/sealed-cards").json()
    assert ratings["items"] == []
    assert token_client(anna).get("/ratings/no-such-game").status_code == 404


def test_a_token_is_rate_limited_per_account(duel, settings):
    _match, anna, _bram = duel
    cache.clear()
    api = token_client(anna, scope="read")
    limit = PER_MINUTE + PER_MATCH_MINUTE  # Anna plays one match
    answers = [api.get("/me") for _ in range(limit + 5)]
    assert [a.status_code for a in answers[:limit]] == [200] * limit
    assert 429 in [a.status_code for a in answers[limit:]]
    # Every answer says what is left of the tightest window, and when it starts again.
    assert answers[0]["RateLimit-Limit"] == str(limit)
    assert answers[0]["RateLimit-Remaining"] == str(limit - 1)
    assert answers[limit - 1]["RateLimit-Remaining"] == "0"
    assert 0 < int(answers[0]["RateLimit-Reset"]) <= 60
    limited = api.get("/me")
    assert error_of(limited)["code"] == "rate_limited"
    assert 0 < int(limited["Retry-After"]) <= 60 and limited["RateLimit-Remaining"] == "0"


def test_the_schema_describes_every_endpoint():
    schema = Client().get("/api/v1/openapi.json").json()
    paths = set(schema["paths"])
    for path in (
        "/api/v1/me",
        "/api/v1/games",
        "/api/v1/matches",
        "/api/v1/turns",
        "/api/v1/matches/{match_id}",
        "/api/v1/matches/{match_id}/legal",
        "/api/v1/matches/{match_id}/moves",
        "/api/v1/matches/{match_id}/history",
        "/api/v1/matches/{match_id}/chat",
        "/api/v1/matches/{match_id}/join",
        "/api/v1/archive",
        "/api/v1/ratings/{game}",
    ):
        assert path in paths, path
    assert "bearer" in str(schema["components"]["securitySchemes"]).lower()


def test_a_match_number_no_key_can_hold_is_not_found(duel):
    _match, anna, _bram = duel
    huge = 10**20
    api = token_client(anna)
    assert api.post(f"/matches/{huge}/takeback").status_code == 404
    assert api.post(f"/matches/{huge}/moves", {"command": "1"}).status_code == 404


def test_resign_by_api_ends_the_players_part_once(duel):
    """POST /matches/{id}/resign (issue 42): the seat resigns, a bot plays it on; the same
    key again is a repeat; a read token and a stranger are refused."""
    match, anna, bram = duel
    assert token_client(anna, scope="read").post(f"/matches/{match.pk}/resign").status_code == 403
    client = token_client(anna)
    first = client.post(f"/matches/{match.pk}/resign?idempotency_key=r1")
    assert first.status_code == 200, first.content
    assert client.post(f"/matches/{match.pk}/resign?idempotency_key=r1").json()["duplicate"]
    match.refresh_from_db()
    assert match.seats.get(user=anna).resigned
    again = client.post(f"/matches/{match.pk}/resign?idempotency_key=r2")
    assert again.status_code == 409 and error_of(again)["code"] == "not_in_play"


def test_a_move_read_against_a_position_others_changed_is_moved_on_not_illegal(duel):
    """Bram is asked while Anna answers the same trick: a move he sends with the position he
    saw, which the position now refuses, is answered `moved_on` (look again), not `illegal`;
    without `seq`, or with the newest, an illegal move is `illegal`."""
    match, anna, bram = duel
    assert (
        token_client(anna).post(f"/matches/{match.pk}/moves", {"command": "1"}).status_code == 200
    )
    bram_api = token_client(bram)
    old = bram_api.post(f"/matches/{match.pk}/moves", {"command": "play 99", "seq": 0})
    assert old.status_code == 409 and error_of(old)["code"] == "moved_on"
    match.refresh_from_db()
    newest = bram_api.post(
        f"/matches/{match.pk}/moves", {"command": "play 99", "seq": match.head_seq}
    )
    assert newest.status_code == 400 and error_of(newest)["code"] == "illegal"
    assert match.moves.count() == 1
