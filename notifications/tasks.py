"""Celery tasks: thin wrappers that call the outbox, reminder and inbound functions. Every
task is idempotent; the database rows are the record, so results are ignored."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from celery.exceptions import Retry
from django.utils import timezone

from . import digest, inbound, outbox, reminders

log = logging.getLogger(__name__)


@shared_task(bind=True, name="notifications.deliver", max_retries=None, acks_late=True)
def deliver_notification(self, notification_id: int) -> str:
    try:
        return outbox.deliver(notification_id)
    except outbox.RetryLater as later:
        # The row is already back in the queue with its backoff: if this retry cannot be
        # published, the outbox sweep sends it when it is due.
        try:
            raise self.retry(countdown=later.delay.total_seconds())
        except Retry:
            raise
        except Exception as error:  # the broker went away meanwhile
            log.warning(
                "notification %s: retry not queued (%s); left for the sweep", notification_id, error
            )
            return "left for the sweep"


@shared_task(name="notifications.sweep_outbox")
def sweep_outbox() -> int:
    """Re-send rows left unsent (broker down at commit time, sender died, backoff over),
    and handle inbound mail that was recorded but never handled."""
    now = timezone.now()
    inbound.reprocess_stuck(now - timedelta(minutes=5))
    return outbox.sweep(now)


@shared_task(name="notifications.send_reminders")
def send_reminders() -> int:
    return reminders.send_reminders()


@shared_task(name="notifications.send_digests")
def send_digests() -> int:
    return digest.send_digests()


@shared_task(name="notifications.handle_inbound", acks_late=True)
def handle_inbound(inbound_id: int) -> str:
    return inbound.handle(inbound_id).status
