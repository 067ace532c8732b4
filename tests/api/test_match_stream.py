"""A match's own stream (GET /api/v1/matches/{id}/stream): first the whole position the seat
may see, then one event per log entry, the server's own moves for a seat included, each
narrated for that seat, resumable after any entry without a gap or a repeat; closed when the
match is over. And never another seat's secret, for each seat and for a watcher."""

import json
import random

import pytest

from api.v1 import _match_events, _match_state
from games import services
from games.engine import get_game
from games.selectors import load_state
from tests.api.conftest import token_client
from tests.api.test_stream_secrets import flattened
from tests.factories import make_user
from tests.hidden import _others

pytestmark = pytest.mark.django_db


def read(client, match, **params) -> list[dict]:
    """The stream's lines until the server closes it (`hold=0`: what is there now)."""
    params.setdefault("hold", 0)
    headers = params.pop("headers", {})
    response = client.client.get(
        f"/api/v1/matches/{match.pk}/stream", params, headers={**client.headers, **headers}
    )
    assert response.status_code == 200, response.content
    body = b"".join(response.streaming_content).decode()
    if params.get("format") == "sse":
        return [body]
    return [json.loads(line) for line in body.splitlines() if line.strip()]


def play_lowest(match, seat: int):
    match.refresh_from_db()
    card = min(load_state(match)["hands"][seat])
    assert services.submit_move(
        match_id=match.pk, seat=seat, move={"type": "play", "card": card}, source="web"
    ).ok


def test_full_then_each_move_then_resumed_without_gap_or_repeat(duel):
    match, anna, bram = duel
    anna_seat = match.seats.get(user=anna).number
    bram_seat = match.seats.get(user=bram).number
    client = token_client(bram)
    (full,) = read(client, match, legal="true")
    match.refresh_from_db()
    assert full["type"] == "full" and "id" not in full and full["seq"] == match.head_seq
    assert full["match"]["id"] == match.pk and full["view"] and full["board_text"]
    assert (
        full["match"]["your_turn"]
        and full["legal"] == client.get(f"/matches/{match.pk}/legal").json()
    )
    assert full["history"] == client.get(f"/matches/{match.pk}").json()["history"]
    cursor = full["seq"]
    play_lowest(match, anna_seat)
    play_lowest(match, bram_seat)
    lines = read(client, match, since=cursor, legal="true")
    assert lines[0]["type"] == "full"
    moves = lines[1:]
    match.refresh_from_db()
    assert [m["id"] for m in moves] == list(range(cursor + 1, match.head_seq + 1))
    assert {m["type"] for m in moves} == {"move"} and all(m["text"] for m in moves)
    # Only the newest carries the state after it: Bram is asked again, his moves listed.
    assert [("state" in m) for m in moves] == [False] * (len(moves) - 1) + [True]
    state = moves[-1]["state"]
    assert state["match"]["seq"] == match.head_seq and state["match"]["your_turn"]
    assert state["legal"] == client.get(f"/matches/{match.pk}/legal").json()
    # Resumed with Last-Event-ID from the middle: the rest, once.
    middle = moves[len(moves) // 2]["id"]
    again = read(client, match, headers={"Last-Event-ID": str(middle)})[1:]
    assert [m["id"] for m in again] == [m["id"] for m in moves if m["id"] > middle]
    # Server-Sent Events: the full position has no id line; each move has its own.
    (sse,) = read(client, match, since=cursor, format="sse")
    assert sse.startswith("event: full\ndata: ")
    assert sse.count("\nid: ") + sse.startswith("id: ") == len(moves)


def test_the_end_closes_the_stream_and_a_resign_by_api_is_in_it(duel):
    match, anna, bram = duel
    client = token_client(bram)
    (full,) = read(client, match)
    answer = client.post(f"/matches/{match.pk}/resign")
    assert answer.status_code == 200, answer.content
    lines = read(client, match, since=full["seq"], hold=30)  # closes at the end, not at 30 s
    last = lines[-1]
    assert last["last"] is True and last["state"]["match"]["status"] in ("finished", "abandoned")
    match.refresh_from_db()
    assert last["id"] == match.head_seq
    # Over and seen: the stream is its full position alone.
    assert [e["type"] for e in read(client, match, since=match.head_seq, hold=30)] == ["full"]


def test_a_stranger_cannot_open_a_private_matchs_stream(duel, stranger):
    match, _anna, _bram = duel
    match.watchable = False
    match.save(update_fields=["watchable"])
    client = token_client(stranger)
    assert client.get(f"/matches/{match.pk}/stream?hold=0").status_code == 404


GAMES = [("nieuwstad", 2), ("new-england", 3), ("blankenburg", 3)]
WHOLE = [
    pytest.param(slug, players, 10_000, marks=pytest.mark.slow, id=f"{slug}-whole")
    for slug, players in GAMES
]


@pytest.mark.parametrize(
    "slug, players, decisions",
    [*((slug, players, 60) for slug, players in GAMES), *WHOLE],
)
def test_no_match_stream_carries_another_seats_secret(slug, players, decisions):
    """After every move, each seat's and a watcher's new events (and the state and full
    position they would get on connecting) are searched for every secret they may not know
    (`game.secrets`) and for the seed: the opening and middle game here, whole matches in
    the slow run (2 to 3 seats: four- and six-seat matches, checked once by hand, cost the
    slow run minutes more)."""
    game = get_game(slug)
    users = [make_user(f"{slug}-{n}") for n in range(players)]
    match = services.create_match(
        creator=users[0],
        game_slug=slug,
        players=players,
        invite_emails=[u.email for u in users[1:]],
        seed=f"match-stream-secrets-{slug}",
    )
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    viewers = [(u, match.seats.get(user=u).number) for u in users] + [(None, None)]
    seen = {seat: match.head_seq for _, seat in viewers}
    rng = random.Random(3)
    checked = 0
    for _ in range(decisions):
        match.refresh_from_db()
        state = load_state(match)
        secrets = game.secrets(state)
        for user, seat in viewers:
            own = secrets.get(seat, []) if seat is not None else []
            # Another seat's secret inside one of this seat's own ("Plans in hand: Shop" in
            # "Plans in hand: Shop, Tower") cannot be told apart from it: left out, as
            # tests.hidden leaves out an equal one.
            others = [s for s in _others(secrets, seat) if not any(s in o for o in own)]
            forbidden = [] if match.is_over else [*others, match.seed]
            events = _match_events(match.pk, user, seat, True, seen[seat])
            found = [*events, _match_state(match, user, seat, True)]
            for event in found:
                text = "\n".join(flattened(event))
                leaked = [s for s in forbidden if s and s in text]
                assert not leaked, f"seat {seat}'s stream shows {leaked} at {match.head_seq}"
                checked += 1
            seen[seat] = max([seen[seat], *(e["id"] for e in events if "id" in e)])
        if match.is_over:
            break
        asked = next(s for s in match.seats.all() if s.deadline_at is not None)
        move = game.bot_move(state, asked.number, rng)
        assert services.submit_move(
            match_id=match.pk, seat=asked.number, move=move, source="api"
        ).ok
    assert checked >= 100
    assert match.is_over or decisions == 60, "a whole match was not played to its end"


@pytest.mark.django_db(transaction=True)  # another thread commits the moves
def test_under_asgi_a_move_wakes_the_match_stream_and_a_gone_client_leaves_the_hub(duel, settings):
    """The async iterator ASGI serves, woken by the hub of matches when the match's head
    moves; when the client goes away Django cancels it, and it leaves the hub."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor
    from functools import partial

    from django.db import connections

    from api import stream

    settings.STREAM_POLL_SECONDS = 0.05
    match, anna, bram = duel
    anna_seat, bram_seat = (match.seats.get(user=u).number for u in (anna, bram))
    head = match.head_seq

    async def listen():
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
        try:
            await follow()
        finally:
            await loop.run_in_executor(None, connections.close_all)

    async def follow():
        read = partial(_match_events, match.pk, bram, bram_seat, False)
        lines = stream.async_lines("first\n", read, head, 30, stream.NDJSON, match.pk, "match")
        assert await anext(lines) == "first\n"
        waiting = asyncio.ensure_future(anext(lines))
        await asyncio.sleep(0.3)
        assert not waiting.done() and stream.hub("match").waiting.keys() == {match.pk}
        await asyncio.to_thread(play_lowest, match, anna_seat)
        event = json.loads(await asyncio.wait_for(waiting, 5))
        assert (event["type"], event["id"]) == ("move", head + 1)
        waiting = asyncio.ensure_future(anext(lines))
        await asyncio.sleep(0.1)
        waiting.cancel()  # what Django does when the client disconnects
        with pytest.raises(asyncio.CancelledError):
            await waiting
        await lines.aclose()
        assert stream.hub("match").waiting == {}

    asyncio.run(listen())


def test_chat_posted_while_connected_comes_in_the_stream_without_an_id(duel):
    from games.chat import post_message

    match, anna, bram = duel
    post_message(match=match, user=anna, text="before Bram connected")
    client = token_client(bram)
    response = client.client.get(
        f"/api/v1/matches/{match.pk}/stream", {"hold": 0}, headers=client.headers
    )  # the view has run: the stream reads from here on
    post_message(match=match, user=anna, text="Good luck!")
    body = b"".join(response.streaming_content).decode()
    lines = [json.loads(line) for line in body.splitlines() if line.strip()]
    assert [e["type"] for e in lines] == ["full", "chat"]
    said = lines[1]
    assert said["text"] == "Good luck!" and said["author"] == "Anna" and "id" not in said
    assert said["seat"] == match.seats.get(user=anna).number + 1
