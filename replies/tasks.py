"""Celery tasks: a reply handled in a worker, and the sweep of replies left unhandled. Both are
idempotent: the InboundMessage row is the record."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from . import inbound

# A reply still `received` this long after it came in lost its worker (or never had one).
STUCK_AFTER = timedelta(minutes=5)


@shared_task(name="replies.handle_inbound", acks_late=True)
def handle_inbound(inbound_id: int) -> str:
    return inbound.handle(inbound_id).status


@shared_task(name="replies.sweep_inbound")
def sweep_inbound() -> int:
    """Handle replies that were recorded but never handled (broker down, worker killed)."""
    return inbound.reprocess_stuck(timezone.now() - STUCK_AFTER)
