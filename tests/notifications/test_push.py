"""Push to the browser (issue 31, item 5): a subscription stored, a push sent with a valid
VAPID signature (checked by decoding it), an expired subscription removed, quiet hours held."""

import base64
import json
import os
import threading
from datetime import time
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from notifications import outbox
from notifications.models import Channel, Notification, PushSubscription, Status
from players.models import Preferences

from .conftest import start_match

pytestmark = pytest.mark.django_db


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService(BaseHTTPRequestHandler):
    received: list = []
    status = 201

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        PushService.received.append((dict(self.headers), body))
        self.send_response(PushService.status)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def endpoint(settings):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True  # the push service is on loopback
    server = HTTPServer(("127.0.0.1", 0), PushService)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    PushService.received, PushService.status = [], 201
    yield f"http://127.0.0.1:{server.server_port}/push/abc"
    server.shutdown()


def browser_subscription(endpoint: str) -> dict:
    """What PushSubscription.toJSON() gives: the browser's own key pair and auth secret."""
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    raw = key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {"endpoint": endpoint, "keys": {"p256dh": b64(raw), "auth": b64(os.urandom(16))}}


def subscribe(client, user, endpoint) -> None:
    client.force_login(user)
    response = client.post(
        "/n/push/subscribe/", json.dumps(browser_subscription(endpoint)), "application/json"
    )
    assert response.status_code == 200, response.content


def test_a_turn_is_pushed_with_a_valid_vapid_signature(client, anna, ben, endpoint):
    subscribe(client, anna, endpoint)
    assert PushSubscription.objects.filter(user=anna, endpoint=endpoint).exists()
    assert Preferences.objects.get(user=anna).push_turns
    start_match(anna, ben)
    outbox.send_due()
    row = Notification.objects.get(user=anna, channel=Channel.PUSH)
    assert row.status == Status.SENT
    (headers, body), *_ = PushService.received
    headers = {k.lower(): v for k, v in headers.items()}
    assert headers["content-encoding"] == "aes128gcm" and body  # encrypted for the browser
    scheme, _, params = headers["authorization"].partition(" ")
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert scheme == "vapid"
    token, key = fields["t"], fields["k"]
    header, claims, signature = token.split(".")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # or raises
    decoded = json.loads(unb64(claims))
    assert decoded["aud"] == endpoint.rsplit("/push", 1)[0] and decoded["sub"].startswith("mailto:")
    assert json.loads(unb64(header))["alg"] == "ES256"


def test_a_subscription_the_push_service_says_is_gone_is_removed(client, anna, ben, endpoint):
    subscribe(client, anna, endpoint)
    PushService.status = 410
    start_match(anna, ben)
    outbox.send_due()
    assert not PushSubscription.objects.filter(user=anna).exists()


def test_quiet_hours_hold_push_too(client, anna, ben, endpoint):
    subscribe(client, anna, endpoint)
    prefs = Preferences.objects.get(user=anna)
    prefs.quiet_start, prefs.quiet_end = time(0, 0), time(23, 59)
    prefs.save()
    start_match(anna, ben)
    row = Notification.objects.get(user=anna, channel=Channel.PUSH)
    assert row.send_after > row.created_at  # held to the end of the quiet hours
    outbox.send_due()
    assert PushService.received == []


def test_a_private_endpoint_is_refused_outside_development(client, anna, settings):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = False
    client.force_login(anna)
    response = client.post(
        "/n/push/subscribe/",
        json.dumps(browser_subscription("http://10.0.0.1/push")),
        "application/json",
    )
    assert response.status_code == 400 and not PushSubscription.objects.exists()


@pytest.mark.parametrize("body", ["[]", '"x"', '{"endpoint": 1, "keys": []}', "{not json"])
def test_a_garbled_subscription_is_refused_not_a_500(client, anna, body):
    client.force_login(anna)
    response = client.post("/n/push/subscribe/", body, "application/json")
    assert response.status_code == 400 and not PushSubscription.objects.exists()
