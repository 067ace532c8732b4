"""Who is on a match page right now: the page and its live poll record "seen" per match and
player in Django's cache (Redis in production, shared by every process), so holding a turn
email back for a live player costs no database query, in the page or in the move."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from django.core.cache import cache
from django.utils import timezone

log = logging.getLogger(__name__)

KEEP_FOR = 3600  # seconds; far longer than any live-play window


def _key(match, user_id: int) -> str:
    # The seed's commitment tells this match from another that had the same id (a rebuilt
    # database, a test run) in a cache that outlives them.
    return f"seen:{match.pk}:{match.seed_commitment[:16]}:{user_id}"


def seen(match, user_id: int | None, now: datetime | None = None) -> None:
    """The player has the match page open (a page view or a poll)."""
    if user_id is None:
        return
    try:
        cache.set(_key(match, user_id), (now or timezone.now()).timestamp(), KEEP_FOR)
    except Exception as error:  # a cache that is down must not break the page
        log.warning("presence not recorded: %s", error)


def last_seen(match, user_id: int) -> datetime | None:
    try:
        stamp = cache.get(_key(match, user_id))
    except Exception as error:  # then nobody is held back: mail goes out as usual
        log.warning("presence not read: %s", error)
        return None
    if stamp is None:
        return None
    return datetime.fromtimestamp(stamp, tz=UTC)


def seen_since(match, user_id: int, moment: datetime) -> bool:
    at = last_seen(match, user_id)
    return at is not None and at >= moment
