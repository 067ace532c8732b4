"""The example client in examples/ plays a whole match against a running server, as a bot
account, through the API alone; its seat says "(bot)" on the page and the match is unrated."""

import importlib.util
from pathlib import Path

import pytest
from django.test import Client

from api.tokens import make_bot_account, make_token
from community.models import RatingChange
from games.models import Match
from notifications.models import Notification
from tests.factories import make_user

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "play_bot.py"


def load_example():
    spec = importlib.util.spec_from_file_location("play_bot", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.django_db(transaction=True)
def test_the_example_client_plays_a_whole_match_as_a_bot_account(live_server, capsys):
    robot = make_user("Robo")
    make_bot_account(user=robot, note="the example client")
    _token, key = make_token(user=robot, name="example", scope="bot")
    code = load_example().main(
        [
            "--server",
            live_server.url,
            "--token",
            key,
            "--create",
            "sealed-cards:2",
            "--until-finished",
            "--seed",
            "7",
        ]
    )
    assert code == 0
    match = Match.objects.get(created_by=robot)
    assert match.status == "finished"
    mine = match.seats.get(user=robot)
    # Three cards each: the bot chose through the API, the server played its last, forced one.
    assert match.moves.filter(seat=mine.number).count() == 3
    assert match.moves.filter(seat=mine.number, source="api").count() >= 2
    assert "is finished" in capsys.readouterr().out
    assert mine.display_name == "Robo (bot)"
    viewer = Client()
    viewer.force_login(robot)
    assert "Robo (bot)" in viewer.get(f"/matches/{match.pk}/").content.decode()
    assert not RatingChange.objects.filter(match=match).exists()
    # A program learns of its turns through the API: not one notice for the bot account.
    assert not Notification.objects.filter(user=robot).exists()


@pytest.mark.django_db
def test_bot_tokens_are_for_bot_accounts_and_a_played_account_cannot_become_one():
    from api.tokens import TokenError

    person = make_user("Pat")
    with pytest.raises(TokenError):
        make_token(user=person, name="x", scope="bot")
    from tests.factories import two_player_match

    match, _a, _b = two_player_match()
    with pytest.raises(TokenError):
        make_bot_account(user=match.created_by)


def test_a_bot_accounts_seat_is_a_bot_in_the_api(db):
    from games import services
    from tests.api.conftest import token_client
    from tests.factories import make_user

    robot = make_user("Robot")
    make_bot_account(user=robot)
    person = make_user("Person")
    match = services.create_match(
        creator=person, game_slug="sealed-cards", players=2, invite_emails=[robot.email]
    )
    services.join_match(match_id=match.pk, user=robot)
    players = token_client(person).get(f"/matches/{match.pk}").json()["match"]["players"]
    assert {p["name"]: p["bot"] for p in players} == {"Person": False, "Robot (bot)": True}


def test_the_example_client_waits_as_long_as_a_429_asks_and_backs_off_after_a_5xx(caplog):
    """A throwaway server answers 429 (Retry-After: 2), then 503, then the answer: the client
    sleeps what it was told, backs off once, and gets its answer without raising."""
    import threading
    import time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    answers = [(429, {"Retry-After": "2"}), (503, {}), (200, {})]
    seen = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            seen.append(time.monotonic())
            status, headers = answers.pop(0)
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(b'{"name": "Robo"}' if status == 200 else b"{}")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        api = load_example().Api(f"http://127.0.0.1:{server.server_address[1]}", "pb_x")
        assert api.call("GET", "/me") == {"name": "Robo"}
    finally:
        server.shutdown()
    assert len(seen) == 3
    assert seen[1] - seen[0] >= 2.0  # the Retry-After, not a guess of its own
    assert seen[2] - seen[1] >= 1.0  # the first backoff after a 5xx
    assert "waiting 2 s as the server asks" in caplog.text
    assert "503 from the server" in caplog.text
