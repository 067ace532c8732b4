"""Celery tasks of the clock: the beat's deadline sweep, and one timeout each. Idempotent:
enforcement re-checks under the match lock, so a sweep that runs twice applies a policy once."""

from __future__ import annotations

from celery import shared_task

from . import clock


@shared_task(name="games.sweep_deadlines")
def sweep_deadlines() -> int:
    return clock.sweep_deadlines()


@shared_task(name="games.enforce_deadline", acks_late=True)
def enforce_deadline(match_id: int, seat: int, deadline_seq: int) -> str:
    return clock.enforce(match_id, seat, deadline_seq).message
