"""A match's chat channels (issue 31, item 4): a Discord/Slack endpoint on loopback is told of
each move, the turn and the end, once each and in order, naming the match and the game; an
endpoint down for an hour gets them all later, once; only what a spectator may know."""

import threading
from datetime import timedelta
from http.server import HTTPServer

import pytest
import time_machine
from django.utils import timezone

from games import services
from games.models import Seat
from games.selectors import load_state
from notifications import outbox
from notifications.hooks import add_hook
from notifications.models import Kind, Notification, Status

from .conftest import start_match
from .test_webhooks import Hook

pytestmark = pytest.mark.django_db


@pytest.fixture
def channel_url():
    """A Discord/Slack endpoint on loopback (test_webhooks' Hook records what it gets)."""
    server = HTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Hook.received, Hook.status = [], 204
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()


def play_to_the_end(match, players):
    while True:
        match.refresh_from_db()
        if match.status != "active":
            return
        seat = match.to_act[0]
        card = load_state(match)["hands"][seat][0]
        user = Seat.objects.get(match=match, number=seat).user
        services.submit_move(
            match_id=match.pk, player=user, move={"type": "play", "card": card}, source="web"
        )


def test_a_channel_hears_each_move_and_the_end_once_in_order(settings, channel_url, anna, ben):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    match = start_match(anna, ben)
    add_hook(match, anna, channel_url, "slack", chat=False)
    play_to_the_end(match, [anna, ben])
    outbox.send_due()
    texts = [body["text"] for body in Hook.received]
    rows = Notification.objects.filter(kind=Kind.CHANNEL).order_by("pk")
    assert len(texts) == rows.count() >= 2 and all(r.status == Status.SENT for r in rows)
    # The match named once, its game in its name (issue 41: the title was said twice).
    assert all(t.count("Sealed Cards") == 1 and f"Sealed Cards #{match.pk}" in t for t in texts)
    assert texts[-1].startswith(f"Sealed Cards #{match.pk} is over")
    assert [r.seq for r in rows] == sorted(r.seq for r in rows)  # in the order they happened
    state = load_state(match)
    secrets = [s for found in match.game.secrets(state).values() for s in found]
    assert not [s for s in secrets for t in texts if s in t]  # a spectator's knowledge only
    outbox.send_due()
    assert len(Hook.received) == len(texts)  # once each


def test_an_endpoint_down_for_an_hour_gets_everything_later_once(settings, channel_url, anna, ben):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    start = timezone.now()
    Hook.status = 503
    with time_machine.travel(start, tick=False):
        match = start_match(anna, ben)
        add_hook(match, anna, channel_url, "discord")
        play_to_the_end(match, [anna, ben])
        outbox.send_due()
    expected = Notification.objects.filter(kind=Kind.CHANNEL).count()
    assert expected >= 2 and Hook.received  # tried, refused
    assert not Notification.objects.filter(kind=Kind.CHANNEL, status=Status.SENT).exists()
    Hook.received.clear()
    for minutes in range(5, 65, 5):  # down for an hour: retried with backoff
        with time_machine.travel(start + timedelta(minutes=minutes), tick=False):
            outbox.send_due()
    Hook.received.clear()
    Hook.status = 204
    with time_machine.travel(start + timedelta(hours=2), tick=False):
        outbox.send_due()
        outbox.send_due()
    assert len(Hook.received) == expected
    assert Notification.objects.filter(kind=Kind.CHANNEL, status=Status.SENT).count() == expected


def test_only_a_player_connects_a_public_address(settings, anna, ben, django_user_model):
    match = start_match(anna, ben)
    stranger = django_user_model.objects.create_user("eve", "eve@example.com", "pw")
    with pytest.raises(services.ServiceError, match="Only a player"):
        add_hook(match, stranger, "https://discord.com/api/webhooks/1/x")
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = False
    with pytest.raises(services.ServiceError):
        add_hook(match, anna, "http://127.0.0.1:9/hook")


def test_a_channel_hears_the_match_in_the_language_of_who_connected_it(
    settings, channel_url, anna, ben
):
    from players.models import Preferences

    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    Preferences.objects.update_or_create(user=ben, defaults={"language": "de"})
    match = start_match(anna, ben)
    add_hook(match, ben, channel_url, "discord", chat=False)
    add_hook(match, anna, channel_url + "2", "discord", chat=False)
    play_to_the_end(match, [anna, ben])
    rows = Notification.objects.filter(kind=Kind.CHANNEL).order_by("pk")
    german = [r.context["text"] for r in rows if r.address == channel_url]
    english = [r.context["text"] for r in rows if r.address == channel_url + "2"]
    assert len(german) == len(english) >= 2
    assert "Zug von" in german[0] and "move by" in english[0]
    assert " ist vorbei" in german[-1] and " is over" in english[-1]


def test_discord_and_slack_show_the_board_as_an_image_a_spectator_may_see(
    settings, channel_url, anna, ben, client
):
    """Each move's message carries the board after it as a PNG (Discord: an embed's image;
    Slack: an image block; a JSON webhook: its address), drawn for no seat, from an address
    we signed; a forged address answers 404."""
    import random

    from django.core import signing

    from games.board_image import public_board_svg
    from notifications.hooks import BOARD_SALT

    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    match = start_match(anna, ben, game_slug="blankenburg")
    for kind in ("discord", "slack", "json"):
        add_hook(match, anna, f"{channel_url}?{kind}", kind)
    rng = random.Random(5)
    for _ in range(8):
        match.refresh_from_db()
        seat = match.to_act[0]
        move = match.game.bot_move(load_state(match), seat, rng)
        assert services.submit_move(match_id=match.pk, seat=seat, move=move, source="web").ok
    outbox.send_due()
    discord = [b["embeds"][0]["image"]["url"] for b in Hook.received if "embeds" in b]
    slack = [b["blocks"][1]["image_url"] for b in Hook.received if "blocks" in b]
    plain = [b["image"] for b in Hook.received if "match" in b]
    assert len(discord) == len(slack) == len(plain) > 0 and discord == slack == plain
    assert all(b["blocks"][0]["text"]["text"] == b["text"] for b in Hook.received if "blocks" in b)
    for url in discord:
        response = client.get(url.removeprefix(settings.SITE_URL))
        assert response.status_code == 200 and response["Content-Type"] == "image/png"
        assert response.content.startswith(b"\x89PNG\r\n\x1a\n")
    # What is drawn is what a spectator may know: no seat's secret, after any move.
    match.refresh_from_db()
    for seq in range(1, match.head_seq + 1):
        state = load_state(match, upto=seq)
        secrets = [s for found in match.game.secrets(state).values() for s in found]
        svg = public_board_svg(match, seq)
        assert svg and not [s for s in secrets if s in svg]
    forged = signing.dumps([match.pk, 1, "en"], salt="another salt")
    assert client.get(f"/n/boards/{forged}.png").status_code == 404
    ahead = signing.dumps([match.pk, match.head_seq + 5, "en"], salt=BOARD_SALT)
    assert client.get(f"/n/boards/{ahead}.png").status_code == 404
