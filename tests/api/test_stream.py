"""The event stream (GET /api/v1/stream): what each account is told, numbered without a
gap, resumed after any id, written with the move (a rolled-back move tells nothing), and
served the same under WSGI (a plain iterator) and ASGI (an async one, in tests/api/
test_stream_asgi.py)."""

import json

import pytest
from django.db import transaction

from api.models import AccountEvent
from games import services
from games.selectors import load_state
from tests.api.conftest import token_client

pytestmark = pytest.mark.django_db


def read(client, **params) -> list[dict]:
    """The stream's lines until the server closes it (`hold=0`: what is there now)."""
    params.setdefault("hold", 0)
    headers = params.pop("headers", {})
    response = client.client.get("/api/v1/stream", params, headers={**client.headers, **headers})
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/x-ndjson"
    body = b"".join(response.streaming_content).decode()
    return [json.loads(line) for line in body.splitlines() if line.strip()]


def play_lowest(match, seat: int):
    match.refresh_from_db()
    card = min(load_state(match)["hands"][seat])
    return services.submit_move(
        match_id=match.pk, seat=seat, move={"type": "play", "card": card}, source="web"
    )


def seat_of(match, user) -> int:
    return match.seats.get(user=user).number


def test_a_stream_starts_now_then_tells_each_turn_with_its_legal_moves(duel):
    match, anna, bram = duel
    client = token_client(bram)
    assert read(client) == [{"type": "hello", "last_event_id": 0, "after": 0}]
    play_lowest(match, seat_of(match, anna))
    assert read(client, since=0)[1:] == []  # Bram was already asked: nothing new for him
    play_lowest(match, seat_of(match, bram))  # the trick ends: both are asked again
    lines = read(client, since=0)
    assert [e["type"] for e in lines] == ["hello", "turn"]
    turn = lines[1]
    match.refresh_from_db()
    assert turn["id"] == 1 and turn["match"] == match.pk and turn["seq"] == match.head_seq
    assert turn["seat"] == seat_of(match, bram) + 1 and turn["prompt"]
    legal = client.get(f"/matches/{match.pk}/legal").json()
    assert turn["legal"] == legal  # the same list /legal answers
    # Played from the event alone: its seq and one of its moves.
    answer = client.post(
        f"/matches/{match.pk}/moves", {"move": turn["legal"][0]["move"], "seq": turn["seq"]}
    )
    assert answer.status_code == 200, answer.content


def test_events_are_numbered_without_a_gap_and_resume_after_any_id(duel):
    match, anna, bram = duel
    client = token_client(bram)
    read(client)
    for _ in range(2):  # the third card each is forced: the match ends
        play_lowest(match, seat_of(match, anna))
        play_lowest(match, seat_of(match, bram))
    everything = read(client, since=0)[1:]
    ids = [e["id"] for e in everything]
    assert ids == list(range(1, len(ids) + 1)) and len(ids) >= 2
    assert everything[-1]["type"] == "match_over"
    assert everything[-1]["result"]["ranking"]
    assert read(client, since=1)[1:] == everything[1:]
    resumed = read(client, headers={"Last-Event-ID": "1"})
    assert resumed[0] == {"type": "hello", "last_event_id": ids[-1], "after": 1}
    assert resumed[1:] == everything[1:]
    # An id from the future (another server's, a typo) resumes from the newest.
    assert read(client, since=10**9) == [
        {"type": "hello", "last_event_id": ids[-1], "after": ids[-1]}
    ]


def test_an_event_exists_only_if_its_move_committed(duel):
    match, anna, bram = duel
    client = token_client(bram)
    read(client)
    play_lowest(match, seat_of(match, anna))
    with pytest.raises(RuntimeError), transaction.atomic():
        assert play_lowest(match, seat_of(match, bram)).ok
        assert AccountEvent.objects.filter(user=bram).count() == 1  # written with the move
        raise RuntimeError("the move's transaction rolls back")
    assert not AccountEvent.objects.filter(user=bram).exists()
    assert read(client, since=0)[1:] == []


def test_chat_reaches_the_other_players(duel):
    match, anna, bram = duel
    listening = token_client(bram)
    read(listening)
    token_client(anna).post(f"/matches/{match.pk}/chat", {"text": "good luck"})
    events = read(listening, since=0)[1:]
    assert [(e["type"], e["text"], e["seat"]) for e in events] == [
        ("chat", "good luck", seat_of(match, anna) + 1)
    ]


def test_an_invitation_and_the_start(db):
    from tests.factories import make_user

    anna, bram = make_user("Anna"), make_user("Bram")
    listening = token_client(bram)
    read(listening)
    match = services.create_match(
        creator=anna, game_slug="sealed-cards", players=2, invite_emails=[bram.email]
    )
    services.join_match(match_id=match.pk, user=bram)
    kinds = [e["type"] for e in read(listening, since=0)[1:]]
    assert kinds[:2] == ["invitation", "match_started"]
    assert "turn" in kinds


def test_server_sent_events_carry_the_id_for_the_browsers_resume(duel):
    match, anna, bram = duel
    client = token_client(bram)
    read(client)
    play_lowest(match, seat_of(match, anna))
    play_lowest(match, seat_of(match, bram))
    response = client.client.get(
        "/api/v1/stream",
        {"hold": 0, "since": 0},
        headers={**client.headers, "Accept": "text/event-stream"},
    )
    assert response["Content-Type"] == "text/event-stream"
    body = b"".join(response.streaming_content).decode()
    assert body.startswith("event: hello\n")
    assert "\nid: 1\nevent: turn\ndata: {" in body


def test_a_bad_last_event_id_is_refused_in_the_error_shape(duel):
    _match, _anna, bram = duel
    client = token_client(bram)
    response = client.client.get(
        "/api/v1/stream", {"hold": 0}, headers={**client.headers, "Last-Event-ID": "x1"}
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_request"
    assert token_client(bram).client.get("/api/v1/stream").status_code == 401


@pytest.mark.django_db(transaction=True)
def test_under_asgi_a_stream_wakes_on_commit_and_leaves_the_hub_on_disconnect(duel, settings):
    """The async iterator ASGI serves: an event committed by another thread reaches it within
    the hub's poll; when the client goes away Django cancels it, and it leaves the hub. (What
    an idle stream costs in threads and memory: bench/streams.py.)"""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    from api import stream

    settings.STREAM_POLL_SECONDS = 0.05
    match, anna, bram = duel
    stream.open_stream(bram.pk)

    async def listen():
        # One thread for the stream's reads, so that its connection can be closed at the end
        # (PostgreSQL drops the test database only when no session is left).
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
        try:
            await follow()
        finally:
            await loop.run_in_executor(None, connections.close_all)

    async def follow():
        lines = stream.async_stream(bram.pk, 0, 30, stream.NDJSON)
        assert json.loads(await anext(lines))["type"] == "hello"
        waiting = asyncio.ensure_future(anext(lines))
        await asyncio.sleep(0.3)
        assert not waiting.done() and stream.hub().waiting.keys() == {bram.pk}
        await asyncio.to_thread(play_lowest, match, seat_of(match, anna))
        await asyncio.to_thread(play_lowest, match, seat_of(match, bram))
        event = json.loads(await asyncio.wait_for(waiting, 5))
        assert (event["type"], event["id"]) == ("turn", 1)
        waiting = asyncio.ensure_future(anext(lines))
        await asyncio.sleep(0.1)
        waiting.cancel()  # what Django does when the client disconnects
        with pytest.raises(asyncio.CancelledError):
            await waiting
        await lines.aclose()
        assert stream.hub().waiting == {}

    asyncio.run(listen())
