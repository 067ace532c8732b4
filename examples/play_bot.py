#!/usr/bin/env python3
"""A bot that plays any game on a Postal Boards server through its API.

Plain Python, no packages. Make a bot account, give it a token with the "bot" scope on
/account/tokens/, then:

    python examples/play_bot.py --server http://127.0.0.1:8000 --token pb_...

It waits for its turn with the long-poll (GET /api/v1/turns?wait=25), picks a legal move at
random from GET /api/v1/matches/{id}/legal and plays it with the position it saw and an
idempotency key, so a retried request never plays twice. --create GAME:PLAYERS starts a
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


class Api:
    def __init__(self, server: str, token: str):
        self.base = server.rstrip("/") + "/api/v1"
        self.token = token

    def call(self, method: str, path: str, body: dict | None = None) -> dict | list:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        for attempt in range(5):
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    return json.loads(response.read() or b"null")
            except urllib.error.HTTPError as error:
                answer = json.loads(error.read() or b"{}")
                if error.code == 429:  # rate limited: wait and try again
                    time.sleep(2 * (attempt + 1))
                    continue
                raise ApiError(error.code, answer.get("error", {})) from None
        raise ApiError(429, {"code": "rate_limited", "message": "still rate limited"})


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
        if watched is not None and args.until_finished:
            status = api.call("GET", f"/matches/{watched}")["match"]["status"]
            if status in ("finished", "abandoned"):
                print(f"Match #{watched} is {status}.", flush=True)
                return 0
        turns = api.call("GET", "/turns?wait=5" if watched else "/turns?wait=25")
        for match in turns["matches"]:
            play_one_turn(api, match, rng)
    return 0


if __name__ == "__main__":
    sys.exit(main())
