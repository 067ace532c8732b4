"""One process of the move storm (test_move_storm.py): it plays the requests the test hands
it, through the path it is given (the web Confirm, API v1 or an email reply), each at the
instant the test releases a round, and writes what it was answered.

    python -m tests.games.storm_worker FOLDER INDEX

The test writes FOLDER/round-N.json ({"requests": [..one per worker..]}) to release round N
and FOLDER/stop to end; each worker writes FOLDER/answer-N-INDEX.json. The database and
the cache come from the environment (DATABASE_URL, CACHE_URL), as the test's own.
"""

from __future__ import annotations

import json
import os
import sys
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path


def main(folder: Path, index: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings

    import tests.sealed_cards  # noqa: F401  the platform's test game

    settings.ALLOWED_HOSTS = ["testserver"]
    (folder / f"ready-{index}").touch()
    number = 1
    while not (folder / "stop").exists():
        released = folder / f"round-{number}.json"
        if not released.exists():
            time.sleep(0.002)
            continue
        request = json.loads(released.read_text())["requests"][index]
        answer = play(request) if request else {"answer": "idle"}
        target = folder / f"answer-{number}-{index}.json"
        target.with_suffix(".tmp").write_text(json.dumps(answer))
        target.with_suffix(".tmp").rename(target)
        number += 1


def play(request: dict) -> dict:
    from django.contrib.auth import get_user_model
    from django.db import close_old_connections
    from django.test import Client

    close_old_connections()
    user = get_user_model().objects.get(pk=request["user"])
    match_id, command, seq = request["match"], request["command"], request["seq"]
    path = request["path"]
    if path == "web":
        client = Client()
        client.force_login(user)
        response = client.post(
            f"/matches/{match_id}/move/",
            {"command": command, "seq": seq, "token": request["key"]},
            follow=True,
        )
        page = response.content.decode()
        if "Already applied" in page:
            return {"answer": "repeat"}
        if "Applied:" in page:
            return {"answer": "applied"}
        if "moved on" in page:
            return {"answer": "moved_on"}
        return {"answer": "other", "status": response.status_code}
    if path == "api":
        response = Client().post(
            f"/api/v1/matches/{match_id}/moves",
            {"command": command, "seq": seq, "idempotency_key": request["key"]},
            content_type="application/json",
            headers={"Authorization": f"Bearer {request['token']}"},
        )
        body = response.json()
        if response.status_code == 200:
            return {"answer": "repeat" if body["duplicate"] else "applied"}
        return {"answer": body["error"]["code"], "status": response.status_code}
    if path == "email":
        from replies import inbound
        from replies.tokens import reply_address

        address = reply_address(match_id, request["seat"], seq)
        message = EmailMessage()
        message["From"] = user.email
        message["To"] = address
        message["Subject"] = "Re: Your turn"
        message["Message-ID"] = request["key"] or make_msgid(domain="player.example")
        message.set_content(f"{command}\n\nOn Monday, Postal Boards wrote:\n> Your turn.\n")
        handled = inbound.receive_raw(message.as_bytes(), recipient=address)
        outcome = handled.outcome
        if "received before" in outcome:
            return {"answer": "repeat"}
        if "Applied" in outcome:
            return {"answer": "applied"}
        if "moved on" in outcome:
            return {"answer": "moved_on"}
        return {"answer": "other", "outcome": outcome}
    raise ValueError(f"unknown path {path!r}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
