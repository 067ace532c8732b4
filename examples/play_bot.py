#!/usr/bin/env python3
"""A bot that plays any game on a Postal Boards server through its API.

Plain Python, no packages. Make a bot account, give it a token with the "bot" scope on
/account/tokens/, then:

    python examples/play_bot.py --server http://127.0.0.1:8000 --token pb_...

It waits for its turn with the long-poll (GET /api/v1/turns?wait=25), picks a legal move at
random from GET /api/v1/matches/{id}/legal and plays it with the position it saw and an
idempotency key, so a retried request never plays twice. It waits as long as a 429's
Retry-After asks, and backs off after a network error or a 5xx. --create GAME:PLAYERS starts a
match against the server's own bots first; --until-finished stops once that match is over.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request
import uuid

MAX_ATTEMPTS = 30


class Api:
    def __init__(self, server: str, token: str):
        self.base = server.rstrip("/") + "/api/v1"
        self.token = token

    def call(self, method: str, path: str, body: dict | None = None) -> dict | list:
        """One request, retried as a polite client does: after a 429 it waits the
        `Retry-After` the server sent; after a network error or a 5xx it backs off (1, 2, 4
        ... 60 s). A retried move is safe: it carries its idempotency key."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        backoff = 1.0
        for _attempt in range(MAX_ATTEMPTS):
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    return json.loads(response.read() or b"null")
            except urllib.error.HTTPError as error:
                answer = json.loads(error.read() or b"{}")
                if error.code == 429:
                    wait = float(error.headers.get("Retry-After") or backoff)
                    print(f"rate limited: waiting {wait:.0f} s as the server asks", flush=True)
                    time.sleep(wait)
                    continue
                if error.code < 500:
                    raise ApiError(error.code, answer.get("error", {})) from None
                reason = f"{error.code} from the server"
            except (urllib.error.URLError, OSError) as error:  # no answer: try again later
                reason = str(getattr(error, "reason", error))
            print(f"{reason}: trying again in {backoff:.0f} s", flush=True)
            time.sleep(backoff)
            backoff = min(60.0, backoff * 2)
        raise ApiError(
            503, {"code": "unavailable", "message": f"gave up after {MAX_ATTEMPTS} tries"}
        )


class ApiError(Exception):
    def __init__(self, status: int, error: dict):
        super().__init__(f"{status} {error.get('code')}: {error.get('message')}")
        self.status, self.code = status, error.get("code")


def play_one_turn(api: Api, match: dict, rng: random.Random) -> None:
    legal = api.call("GET", f"/matches/{match['id']}/legal")
    if not legal:
        return
    choice = rng.choice(legal)
    try:
        api.call(
            "POST",
            f"/matches/{match['id']}/moves",
            {"move": choice["move"], "seq": match["seq"], "idempotency_key": uuid.uuid4().hex},
        )
        print(f"#{match['id']} seq {match['seq']}: {choice['command']}", flush=True)
    except ApiError as error:
        if error.code not in ("moved_on", "not_your_turn"):  # someone else moved first
            raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--create", metavar="GAME:PLAYERS", help="start a match against bots")
    parser.add_argument("--until-finished", action="store_true")
    parser.add_argument("--seed", type=int, default=None, help="for repeatable choices")
    parser.add_argument("--max-turns", type=int, default=100000)
    args = parser.parse_args(argv)
    api = Api(args.server, args.token)
    rng = random.Random(args.seed)
    me = api.call("GET", "/me")
    print(f"Playing as {me['name']} (bot: {me['bot']})", flush=True)
    watched = None
    if args.create:
        game, players = args.create.split(":")
        match = api.call(
            "POST",
            "/matches",
            {"game": game, "players": int(players), "bots": int(players) - 1, "rated": False},
        )
        watched = match["id"]
        print(f"Created match #{watched}", flush=True)
    for _ in range(args.max_turns):
        turns = api.call("GET", "/turns?wait=5" if watched else "/turns?wait=25")
        for match in turns["matches"]:
            play_one_turn(api, match, rng)
        # Only when nothing is asked can the watched match be over: one more request then.
        if not turns["matches"] and watched is not None and args.until_finished:
            status = api.call("GET", f"/matches/{watched}")["match"]["status"]
            if status in ("finished", "abandoned"):
                print(f"Match #{watched} is {status}.", flush=True)
                return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
