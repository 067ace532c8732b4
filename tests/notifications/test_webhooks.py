"""The webhook channel: a Discord/Slack-compatible JSON POST for turn notices."""

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from notifications.models import Channel, Notification, Preferences, Status
from notifications.transports import check_webhook_url

from .conftest import start_match

pytestmark = pytest.mark.django_db


class Hook(BaseHTTPRequestHandler):
    received: list = []
    status = 204

    def do_POST(self):
        length = int(self.headers["Content-Length"])
        Hook.received.append(json.loads(self.rfile.read(length)))
        self.send_response(Hook.status)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def hook_url():
    server = HTTPServer(("127.0.0.1", 0), Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Hook.received, Hook.status = [], 204
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()


def test_turn_notices_go_to_the_webhook(settings, hook_url, anna, ben):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    Preferences.objects.create(user=anna, webhook_url=hook_url)
    match = start_match(anna, ben)
    from notifications import outbox

    outbox.send_due()
    (body,) = Hook.received
    assert body["content"] == body["text"]
    assert f"Sealed Cards #{match.pk}" in body["text"] and "play a card" in body["text"]
    assert "Your hand" not in body["text"]  # a channel may have other readers
    row = Notification.objects.get(channel=Channel.WEBHOOK)
    assert row.status == Status.SENT


def test_a_gone_webhook_fails_permanently(settings, hook_url, anna, ben):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    Hook.status = 404
    Preferences.objects.create(user=anna, webhook_url=hook_url)
    start_match(anna, ben)
    from notifications import outbox

    outbox.send_due()
    assert Notification.objects.get(channel=Channel.WEBHOOK).status == Status.FAILED


def test_private_addresses_are_refused_in_production(settings):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = False
    assert "https" in check_webhook_url("http://example.com/hook")
    assert "public" in check_webhook_url("https://127.0.0.1/hook")
    assert check_webhook_url("ftp://example.com/") != ""
