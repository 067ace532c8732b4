"""The API app's beat job: bots' daily summaries for their owners (api/summary.py)."""

from celery import shared_task

from api.summary import send_summaries


@shared_task(name="api.send_bot_summaries", ignore_result=True)
def send_bot_summaries() -> int:
    return send_summaries()
