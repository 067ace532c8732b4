"""The daily digest: one email listing every match waiting on a player who chose it."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.models import MatchStatus, Seat

from . import outbox
from .models import Kind, NoticeMode, Preferences
from .preferences import in_quiet_hours, zone


def send_digests(now: datetime | None = None) -> int:
    """Write today's digest for each player whose digest hour has come (in their time zone)
    and who has a match waiting on them. Run often; each player gets one a day."""
    now = now or timezone.now()
    written = 0
    for prefs in Preferences.objects.filter(mode=NoticeMode.DIGEST).select_related("user"):
        local = now.astimezone(zone(prefs))
        if local.hour < prefs.digest_hour or in_quiet_hours(prefs, now):
            continue
        seats = [
            s
            for s in Seat.objects.filter(
                user=prefs.user, match__status=MatchStatus.ACTIVE, resigned=False, is_bot=False
            ).select_related("match")
            if s.number in s.match.to_act
        ]
        if not seats:
            continue
        row = outbox.write(
            outbox.row_for(
                kind=Kind.DIGEST,
                user=prefs.user,
                dedupe_key=f"digest:{prefs.user_id}:{local.date()}",
                context={
                    "seats": [
                        [s.match_id, s.number, s.deadline_seq or s.match.head_seq] for s in seats
                    ],
                    "since": (now - timedelta(days=1)).isoformat(),
                },
                hold_for_quiet_hours=False,
                now=now,
            )
        )
        written += row is not None
    return written
