"""Web Push (RFC 8030, with VAPID, RFC 8292) through pywebpush: "your turn in ..." on the
player's browsers, which opens the match when clicked (static/js/push_sw.js).

The server's VAPID key pair comes from `VAPID_PRIVATE_KEY` (PEM) in production; without it
one is made once and kept in the var directory, so a development server pushes too. A push
service's endpoint is a URL the browser gave us: it is checked as webhooks are (https to a
public address) when stored and again when used, and a subscription the push service says is
gone (404, 410) is deleted.
"""

from __future__ import annotations

import base64
import json
from email.utils import parseaddr
from functools import cache

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_noop
from pywebpush import WebPushException, webpush

from .models import PushSubscription
from .transports import TransportError, check_webhook_url

GONE = (404, 410)
ANOTHER_ACCOUNT = gettext_noop(
    "This browser already gets another account's notifications: turn them off there first."
)


class AnotherAccounts(ValueError):
    """The endpoint is another account's subscription."""


@cache
def _private_key() -> ec.EllipticCurvePrivateKey:
    pem = getattr(settings, "VAPID_PRIVATE_KEY", "")
    if not pem:
        path = settings.VAR_DIR / "vapid_private.pem"
        if not path.exists():
            key = ec.generate_private_key(ec.SECP256R1())
            path.write_bytes(
                key.private_bytes(
                    serialization.Encoding.PEM,
                    serialization.PrivateFormat.PKCS8,
                    serialization.NoEncryption(),
                )
            )
            path.chmod(0o600)
        pem = path.read_text()
    return serialization.load_pem_private_key(pem.encode(), password=None)


def public_key() -> str:
    """The applicationServerKey a browser subscribes with: base64url of the raw point."""
    raw = (
        _private_key()
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _private_key_text() -> str:
    raw = _private_key().private_numbers().private_value.to_bytes(32, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _subject() -> str:
    """Who runs this server, for the push services (a mailto: of the sender's address)."""
    address = parseaddr(settings.DEFAULT_FROM_EMAIL)[1] or "play@localhost"
    return f"mailto:{address}"


def subscribe(user, data: dict) -> PushSubscription:
    """Store a browser's subscription (the JSON `PushSubscription.toJSON()` gives)."""
    if not isinstance(data, dict):
        raise ValueError("Not a subscription.")
    endpoint = str(data.get("endpoint", ""))
    keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
    problem = check_webhook_url(endpoint) if endpoint else "No endpoint."
    if problem or not keys.get("p256dh") or not keys.get("auth"):
        raise ValueError(problem or "The subscription has no keys.")
    with transaction.atomic():
        found, _ = PushSubscription.objects.select_for_update().get_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": keys["p256dh"], "auth": keys["auth"]},
        )
        # A subscription belongs to the account that made it: posting another account's
        # endpoint must not move that browser's notifications to the poster.
        if found.user_id != user.pk:
            raise AnotherAccounts(ANOTHER_ACCOUNT)
        if (found.p256dh, found.auth) != (keys["p256dh"], keys["auth"]):
            found.p256dh, found.auth = keys["p256dh"], keys["auth"]
            found.save(update_fields=["p256dh", "auth"])
    return found


def send(user, title: str, body: str, url: str) -> int:
    """Push to each of `user`'s browsers; the number it reached. TransportError when none
    could be reached for a reason that may pass (the outbox tries again)."""
    payload = json.dumps({"title": title, "body": body, "url": url})
    reached, failure = 0, None
    for subscription in PushSubscription.objects.filter(user=user):
        problem = check_webhook_url(subscription.endpoint)
        if problem:
            subscription.delete()
            continue
        try:
            webpush(
                subscription_info={
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                data=payload,
                vapid_private_key=_private_key_text(),
                vapid_claims={"sub": _subject()},
                timeout=10,
                ttl=24 * 3600,
            )
            reached += 1
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in GONE:
                subscription.delete()  # the browser unsubscribed, or the push expired
            else:
                failure = error
    if failure is not None and not reached:
        raise TransportError(f"push failed: {failure}")
    return reached
