"""Send every due notification now, in this process, enforce passed deadlines and handle
inbound mail left unhandled: the beat sweeps by hand (for an operator, or a cron job where no
Celery beat runs)."""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand
from django.utils import timezone

from games import clock
from notifications import digest, inbound, outbox, reminders


class Command(BaseCommand):
    help = "Run the notification sweeps once in this process."

    def handle(self, *args, **options):
        stuck = inbound.reprocess_stuck(timezone.now() - timedelta(minutes=5))
        enforced = clock.sweep_deadlines(enforce=clock.enforce)
        reminded = reminders.send_reminders()
        digests = digest.send_digests()
        outcomes = outbox.send_due()
        self.stdout.write(
            f"deadlines enforced: {enforced}; reminders: {reminded}; digests: {digests}; "
            f"sent: {outcomes.count('sent')} of {len(outcomes)} due; inbound taken up: {stuck}"
        )
