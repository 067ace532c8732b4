"""One stream per account (issue 42): a second connection replaces the first, which is told
why in a closing event and closed, under WSGI and under ASGI; events resume on the new one."""

import json

import pytest

from api import stream
from tests.api.conftest import token_client

pytestmark = pytest.mark.django_db


def lines_of(response) -> list[dict]:
    body = b"".join(response.streaming_content).decode()
    return [json.loads(line) for line in body.splitlines() if line.strip()]


def test_a_second_connection_closes_the_first_with_the_reason(duel):
    _match, _anna, bram = duel
    client = token_client(bram)
    first = client.client.get("/api/v1/stream", {"hold": 20}, headers=client.headers)
    second = client.client.get("/api/v1/stream", {"hold": 0}, headers=client.headers)
    # The first, read now, says it was replaced and ends at once (not after its 20 s).
    told = lines_of(first)
    assert [e["type"] for e in told] == ["hello", "closed"]
    assert "another connection" in told[1]["reason"] and "id" not in told[1]
    assert [e["type"] for e in lines_of(second)] == ["hello"]


@pytest.mark.django_db(transaction=True)  # the replacing connection commits in another thread
def test_under_asgi_the_replaced_stream_is_woken_and_closed(duel, settings):
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    settings.STREAM_POLL_SECONDS = 0.05
    _match, _anna, bram = duel

    async def listen():
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
        try:
            await follow()
        finally:
            await loop.run_in_executor(None, connections.close_all)

    async def follow():
        newest, mine = await asyncio.to_thread(stream.connect, bram.pk)
        lines = stream.async_stream(bram.pk, newest, 60, stream.NDJSON, newest, mine)
        assert json.loads(await anext(lines))["type"] == "hello"
        waiting = asyncio.ensure_future(anext(lines))
        await asyncio.sleep(0.3)
        assert not waiting.done()
        await asyncio.to_thread(stream.connect, bram.pk)  # another connection opens
        closed = json.loads(await asyncio.wait_for(waiting, 5))
        assert closed["type"] == "closed"
        with pytest.raises(StopAsyncIteration):
            await anext(lines)
        assert stream.hub().waiting == {}

    asyncio.run(listen())


def test_under_gunicorns_sync_workers_a_stream_is_refused_at_once_with_the_alternative(duel):
    match, _anna, bram = duel
    client = token_client(bram)
    sync_worker = {"SERVER_SOFTWARE": "gunicorn/23.0.0", "wsgi.multithread": False}
    for path in ("/api/v1/stream", f"/api/v1/matches/{match.pk}/stream"):
        refused = client.client.get(path, {"hold": 20}, headers=client.headers, **sync_worker)
        assert refused.status_code == 501
        error = refused.json()["error"]
        assert error["code"] == "streams_unavailable" and "/turns?wait=25" in error["message"]
    # A threaded gunicorn worker (gthread) holds a thread, not the worker: served.
    threaded = {"SERVER_SOFTWARE": "gunicorn/23.0.0", "wsgi.multithread": True}
    served = client.client.get("/api/v1/stream", {"hold": 0}, headers=client.headers, **threaded)
    assert served.status_code == 200
