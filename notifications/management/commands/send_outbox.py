"""Send every due notification now, in this process, and enforce passed deadlines: the beat
sweeps by hand (for an operator, or a cron job where no Celery beat runs). Replies left
unhandled are taken up by `receive_email --unhandled`."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games import clock
from notifications import digest, outbox, reminders


class Command(BaseCommand):
    help = "Run the notification sweeps once in this process."

    def handle(self, *args, **options):
        enforced = clock.sweep_deadlines(enforce=clock.enforce)
        reminded = reminders.send_reminders()
        digests = digest.send_digests()
        outcomes = outbox.send_due()
        self.stdout.write(
            f"deadlines enforced: {enforced}; reminders: {reminded}; digests: {digests}; "
            f"sent: {outcomes.count('sent')} of {len(outcomes)} due"
        )
