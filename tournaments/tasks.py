from celery import shared_task

from . import services


@shared_task(name="tournaments.start_due")
def start_due() -> int:
    """Start the tournaments whose sign-up has ended (idempotent: a started one is skipped)."""
    return services.start_due()
