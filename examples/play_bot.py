#!/usr/bin/env python3
"""A bot that plays any game on a Postal Boards server through its API.

Plain Python, no packages. Make a bot account, give it a token with the "bot" scope on
/account/tokens/, then:

    python examples/play_bot.py --server http://127.0.0.1:8000 --token pb_...

It listens to its account's event stream (GET /api/v1/stream, one JSON event a line) and
never polls: each `turn` event carries the match, the position's seq and the legal moves; it
picks one at random and plays it with that seq and an idempotency key made from the event,
so a request sent twice (a retry, a restart) never plays twice. It waits as long as a 429's
Retry-After asks, backs off (1, 2, 4 ... 60 s) after a network error or a 5xx, and
reconnects with the id of the last event it handled, which it keeps in --state (so a
restarted bot resumes where it stopped; without one it asks /turns what is waiting).

--create GAME:PLAYERS starts a match against the server's own bots (--matches N of them, at
once); --until-finished stops once those matches are over.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

log = logging.getLogger("play_bot")

MAX_ATTEMPTS = 30
READ_TIMEOUT = 60  # seconds: the stream sends a blank line every 15 s while quiet


class ApiError(Exception):
    def __init__(self, status: int, error: dict):
        super().__init__(f"{status} {error.get('code')}: {error.get('message')}")
        self.status, self.code = status, error.get("code")


class Api:
    def __init__(self, server: str, token: str):
        self.base = server.rstrip("/") + "/api/v1"
        self.token = token

    def request(self, method: str, path: str, body: dict | None = None, headers=None):
        return urllib.request.Request(
            self.base + path,
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={
                "Authorization": f"Bearer {self.token}",
                "Content-Type": "application/json",
                **(headers or {}),
            },
        )

    def open(self, request: urllib.request.Request, timeout: float):
        """Send `request` as a polite client does: after a 429 wait the `Retry-After` the
        server sent; after a network error or a 5xx back off (1, 2, 4 ... 60 s). Any other
        error is the caller's (ApiError)."""
        backoff = 1.0
        for _attempt in range(MAX_ATTEMPTS):
            try:
                return urllib.request.urlopen(request, timeout=timeout)
            except urllib.error.HTTPError as error:
                answer = _json_or_empty(error.read())
                if error.code == 429:
                    wait = float(error.headers.get("Retry-After") or backoff)
                    log.warning("rate limited: waiting %.0f s as the server asks", wait)
                    time.sleep(wait)
                    continue
                if error.code < 500:
                    raise ApiError(error.code, answer.get("error", {})) from None
                reason = f"{error.code} from the server"
            except (urllib.error.URLError, OSError) as error:  # no answer: try again later
                reason = str(getattr(error, "reason", error))
            log.warning("%s: trying again in %.0f s", reason, backoff)
            time.sleep(backoff)
            backoff = min(60.0, backoff * 2)
        raise ApiError(503, {"code": "unavailable", "message": f"gave up after {MAX_ATTEMPTS}"})

    def call(self, method: str, path: str, body: dict | None = None):
        """One request and its JSON answer (retried as `open` says). A retried move is safe:
        it carries its idempotency key."""
        with self.open(self.request(method, path, body), timeout=60) as response:
            return json.loads(response.read() or b"null")

    def events(self, since: int | None):
        """The account's events from the stream, after `since` (None: from now; the first
        line, `hello`, says the newest id). Ends when the server closes the stream; raises
        OSError when the connection breaks."""
        query = "" if since is None else "?" + urllib.parse.urlencode({"since": since})
        response = self.open(self.request("GET", "/stream" + query), timeout=READ_TIMEOUT)
        with response:
            for line in response:
                if line.strip():  # a blank line only says the stream is alive
                    yield json.loads(line)


def _json_or_empty(body: bytes) -> dict:
    try:
        return json.loads(body or b"{}")
    except ValueError:
        return {}


class Memory:
    """What survives a restart: the last event handled, the matches this bot created and is
    waiting to see end, and how many it created."""

    def __init__(self, path: str | None):
        self.path = path
        self.last_event_id: int | None = None
        self.watching: list[int] = []
        self.created = 0
        if path and os.path.exists(path):
            with open(path) as saved:
                data = json.load(saved)
            self.last_event_id = data["last_event_id"]
            self.watching, self.created = data["watching"], data["created"]

    def save(self) -> None:
        if not self.path:
            return
        data = {"last_event_id": self.last_event_id, "watching": self.watching}
        with open(self.path + ".tmp", "w") as out:
            json.dump({**data, "created": self.created}, out)
        os.replace(self.path + ".tmp", self.path)  # never half a file


class Bot:
    def __init__(self, api: Api, seed: int | None, memory: Memory):
        self.api, self.seed, self.memory = api, seed, memory

    def play(self, match_id: int, seq: int, legal: list[dict], key: str) -> None:
        """One of the legal moves, at the position `seq` the question was asked at. The
        choice follows from the key, so a restarted bot that answers the same event again
        sends the same request, which the server answers as already applied."""
        if not legal:
            return
        choice = random.Random(f"{self.seed}:{key}").choice(legal)
        try:
            answer = self.api.call(
                "POST",
                f"/matches/{match_id}/moves",
                {"move": choice["move"], "seq": seq, "idempotency_key": key},
            )
            log.info("#%s seq %s: %s", match_id, seq, answer["message"])
        except ApiError as error:
            if error.code not in ("moved_on", "not_your_turn", "not_in_play"):
                raise
            log.info("#%s seq %s: not played, %s", match_id, seq, error.code)

    def catch_up(self) -> None:
        """With no event id to resume from: what is waiting now, from the matches' state."""
        for match in self.api.call("GET", "/turns")["matches"]:
            legal = self.api.call("GET", f"/matches/{match['id']}/legal")
            self.play(match["id"], match["seq"], legal, f"bot-{match['id']}-{match['seq']}")

    def handle(self, event: dict) -> None:
        kind, match_id = event["type"], event.get("match")
        log.info("event %s: %s #%s", event["id"], kind, match_id)
        if kind == "turn":
            key = f"bot-{match_id}-{event['seq']}"  # the same after a restart
            self.play(match_id, event["seq"], event["legal"], key)
        elif kind == "match_over":
            log.info("#%s is %s", match_id, event["status"])
            if match_id in self.memory.watching:
                self.memory.watching.remove(match_id)
        elif kind == "chat":
            log.info("#%s chat from %s: %s", match_id, event["author"], event["text"])

    def create(self, spec: str) -> None:
        game, players = spec.split(":")
        match = self.api.call(
            "POST",
            "/matches",
            {"game": game, "players": int(players), "bots": int(players) - 1, "rated": False},
        )
        self.memory.watching.append(match["id"])
        self.memory.created += 1
        self.memory.save()
        log.info("created match #%s (%s, %s players)", match["id"], game, players)


def run(bot: Bot, create: str | None, matches: int, until_finished: bool) -> int:
    memory = bot.memory
    backoff = 1.0
    while True:
        try:
            for event in bot.api.events(memory.last_event_id):
                backoff = 1.0
                if event["type"] == "hello":
                    fresh = memory.last_event_id is None
                    memory.last_event_id = event["after"]  # the events follow this one
                    memory.save()
                    log.info("stream open after event %s", event["after"])
                    if fresh:
                        bot.catch_up()
                    while create and memory.created < matches:  # the stream listens already
                        bot.create(create)
                elif event["type"] == "closed":  # another run of this bot took over
                    log.info("the server closed the stream: %s; stopping", event["reason"])
                    return 0
                else:
                    bot.handle(event)
                    memory.last_event_id = event["id"]
                    memory.save()
                if until_finished and memory.created >= matches and not memory.watching:
                    log.info("every match is over")
                    return 0
            log.info("the server closed the stream: connecting again")
        except (OSError, ValueError) as error:  # a broken connection or a cut line
            log.warning("stream lost (%s): reconnecting in %.0f s", error, backoff)
            time.sleep(backoff)
            backoff = min(60.0, backoff * 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--create", metavar="GAME:PLAYERS", help="start a match against bots")
    parser.add_argument("--matches", type=int, default=1, help="how many to --create")
    parser.add_argument("--until-finished", action="store_true")
    parser.add_argument("--state", help="file keeping the last event id across restarts")
    parser.add_argument("--seed", type=int, default=None, help="for repeatable choices")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stdout, force=True
    )
    api = Api(args.server, args.token)
    me = api.call("GET", "/me")
    log.info("playing as %s (bot: %s)", me["name"], me["bot"])
    bot = Bot(api, args.seed, Memory(args.state))
    return run(bot, args.create, args.matches, args.until_finished)


if __name__ == "__main__":
    sys.exit(main())
