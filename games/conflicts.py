"""A lock conflict is retried, never a 500.

Every writer locks a match's seats and the match first (games.services._lock), then anything
else (stream rows, notices), so two writers cannot wait for each other in a circle. Should
PostgreSQL still end one of two transactions (a deadlock it detected, a serialization
failure, a lock it could not take), nothing of that transaction was written: the request is
run again, a few times, before its error reaches anyone. Only a transaction of its own is
retried: inside a caller's transaction the caller decides (a mail's handling is retried by
its task).
"""

from __future__ import annotations

import logging
import random
import time
from functools import wraps

from django.db import DatabaseError, connection

log = logging.getLogger(__name__)

# SQLSTATEs: deadlock_detected, serialization_failure, lock_not_available.
CONFLICTS = frozenset({"40P01", "40001", "55P03"})
ATTEMPTS = 4


def is_lock_conflict(error: BaseException) -> bool:
    cause = error.__cause__ or error
    state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    if state in CONFLICTS:
        return True
    # SQLite's single writer: its busy timeout ran out.
    return connection.vendor == "sqlite" and "database is locked" in str(error)


def retried_on_lock_conflict(function):
    """Run `function` again when its transaction was ended by a lock conflict."""

    @wraps(function)
    def run(*args, **kwargs):
        attempt = 1
        while True:
            try:
                return function(*args, **kwargs)
            except DatabaseError as error:
                if attempt >= ATTEMPTS or connection.in_atomic_block:
                    raise
                if not is_lock_conflict(error):
                    raise
                log.warning("%s: lock conflict (%s), again", function.__name__, error)
                time.sleep(random.uniform(0.01, 0.05) * attempt)  # apart, not in step
                attempt += 1

    return run
