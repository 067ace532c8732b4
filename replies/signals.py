"""Anymail's inbound signal (connected in apps.ready): an ESP posted a reply."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction

from notifications.handoff import hand_off

from . import inbound
from .models import InboundStatus
from .tasks import handle_inbound

log = logging.getLogger(__name__)


def on_inbound(sender, event, esp_name, **kwargs) -> None:
    """An ESP posted a message: record it, answer 200 fast, handle it in a worker. A message
    that cannot be read is recorded as such; only a database outage answers 5xx (the ESP
    retries, and the Message-ID keeps the retry from counting twice)."""
    if not getattr(settings, "ANYMAIL", {}).get("WEBHOOK_SECRET"):
        # Without the shared secret anyone could post moves: refuse to act on them.
        log.error("inbound mail from %s ignored: ANYMAIL WEBHOOK_SECRET is not set", esp_name)
        return
    try:
        row, created = inbound.record(event.message)
    except inbound.DATABASE_DOWN:
        raise
    except Exception:
        log.exception("inbound mail from %s could not be recorded", esp_name)
        return
    if created and row.status == InboundStatus.RECEIVED:
        # The ESP waits for our answer: never on the broker (the sweep handles what it lost).
        transaction.on_commit(lambda: hand_off(handle_inbound, row.pk))
