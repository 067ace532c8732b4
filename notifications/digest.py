"""The daily digest: one email listing every match waiting on a player who chose it.

A digest costs what is due, not the players who take one: each player's next digest time is
kept on their preferences (`digest_due_at`, read through the partial index
prefs_digest_due), worked out when first seen and moved on to the next day's hour once the
digest hour has come. A digest hour that finds nothing waiting leaves the player idle
(`digest_idle`), and the reminder tick, which sees every seat asked since it last ran,
wakes an idle player it finds asked (`wake_idle`), so a match asking them later in the day
still sends that day's digest.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from django.db.models import Q
from django.utils import timezone

from games.models import MatchStatus, Seat
from players.models import NoticeMode, Preferences
from players.preferences import in_night, night_end_after, zone

from . import outbox
from .models import Kind

DIGEST_BATCH = 200


def send_digests(now: datetime | None = None) -> int:
    """Write today's digest for each player whose digest hour has come (in their time zone)
    and who has a match waiting on them. Run often; each player gets one a day."""
    now = now or timezone.now()
    due = (
        Preferences.objects.filter(mode=NoticeMode.DIGEST)
        .filter(Q(digest_due_at__isnull=True) | Q(digest_due_at__lte=now))
        .order_by("pk")
    )
    written = 0
    while True:
        # The ids first: a tick with nothing due is one small query.
        ids = list(due.values_list("pk", flat=True)[:DIGEST_BATCH])
        batch = list(Preferences.objects.filter(pk__in=ids).select_related("user"))
        written += sum(_digest(prefs, now) for prefs in batch)
        Preferences.objects.bulk_update(batch, ["digest_due_at", "digest_idle"])
        if len(ids) < DIGEST_BATCH:
            return written


def _digest(prefs: Preferences, now: datetime) -> bool:
    """Write the player's digest if it is due now; set when the next one is. A digest hour
    in the player's night (their quiet hours, or their zone's night) waits for its end."""
    tz = zone(prefs)
    local = now.astimezone(tz)
    hour = time(prefs.digest_hour)
    today = datetime.combine(local.date(), hour, tz)
    yesterday = datetime.combine(local.date() - timedelta(days=1), hour, tz)
    # Yesterday's digest, held by the night until this morning, is due now.
    held = (
        local < today
        and prefs.digest_due_at is not None
        and prefs.digest_due_at <= now
        and in_night(prefs, yesterday)
        and prefs.digest_due_at == night_end_after(prefs, yesterday)
    )
    if local < today and not held:
        prefs.digest_due_at = today
        return False
    if in_night(prefs, now):
        prefs.digest_due_at = night_end_after(prefs, now)
        return False
    day = yesterday.date() if held else local.date()
    prefs.digest_due_at = today if held else datetime.combine(day + timedelta(days=1), hour, tz)
    seats = [
        s
        for s in Seat.objects.filter(
            user=prefs.user, match__status=MatchStatus.ACTIVE, resigned=False, is_bot=False
        ).select_related("match")
        if s.number in s.match.to_act
    ]
    prefs.digest_idle = not seats
    if not seats:
        return False
    waiting = [[s.match_id, s.number, s.deadline_seq or s.match.head_seq] for s in seats]
    row = outbox.write(
        outbox.row_for(
            kind=Kind.DIGEST,
            user=prefs.user,
            dedupe_key=f"digest:{prefs.user_id}:{day}",
            context={
                "seats": waiting,
                "since": (now - timedelta(days=1)).isoformat(),
            },
            hold_for_quiet_hours=False,
            now=now,
        )
    )
    return row is not None


def wake_idle(user_ids: set[int], now: datetime) -> int:
    """These players were just asked: those whose digest hour found nothing waiting today
    get their digest at the next tick."""
    if not user_ids:
        return 0
    return Preferences.objects.filter(
        user_id__in=user_ids, mode=NoticeMode.DIGEST, digest_idle=True
    ).update(digest_due_at=now, digest_idle=False)


def reschedule_digest(user) -> int:
    """Work the player's next digest time out again (their preferences changed)."""
    return Preferences.objects.filter(user=user).update(digest_due_at=None, digest_idle=False)
