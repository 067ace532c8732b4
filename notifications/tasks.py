"""Celery tasks: thin wrappers that call the outbox, reminder and digest functions. Every
task is idempotent; the database rows are the record, so results are ignored."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import Retry
from django.utils import timezone

from . import digest, outbox, reminders

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
    """Re-send rows left unsent (broker down at commit time, sender died, backoff over)."""
    return outbox.sweep(timezone.now())


@shared_task(name="notifications.send_reminders")
def send_reminders() -> int:
    return reminders.send_reminders()


@shared_task(name="notifications.send_digests")
def send_digests() -> int:
    return digest.send_digests()
