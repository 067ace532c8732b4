"""What other pages read from the notifications app."""

from __future__ import annotations

from games.models import ChatMessage, Match, Seat
from players.preferences import prefs_for


def chat_for(match: Match, limit: int = 200) -> list[dict]:
    """The match's board, oldest first: author's seat name, text, time."""
    names = {s.number: s.display_name or s.name for s in match.seats.all()}
    messages = list(ChatMessage.objects.filter(match=match).order_by("-created_at", "-pk")[:limit])
    return [
        {
            "author": names.get(m.seat, "?"),
            "seat": m.seat,
            "text": m.text,
            "created_at": m.created_at,
            "source": m.source,
        }
        for m in reversed(messages)
    ]


def email_status(user) -> dict:
    """What the site tells a player about their email: failing (delivery gave up, or the ESP
    reported a bounce; their deadlines are stopped meanwhile), or none chosen (deadlines
    still run)."""
    from players.models import NoticeMode

    from .reachability import clock_stopped

    prefs = prefs_for(user)
    return {
        "webhook_failing": prefs.webhook_failing,
        "webhook_reason": prefs.webhook_failure,
        "webhook_since": prefs.webhook_failed_at,
        "clock_stopped": clock_stopped(prefs),
        "failing": prefs.email_failing,
        "permanent": prefs.email_failure_permanent,
        "reason": prefs.email_failure,
        "since": prefs.email_failed_at,
        "no_email": prefs.mode == NoticeMode.NONE,
    }


def effective_deadline(seat: Seat):
    """The seat's deadline as the sweep reads it (a vacation booked later extends it)."""
    from .deadlines import effective_deadline as compute

    return compute(seat)
