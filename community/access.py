"""Who may look at a match.

Open matches are listed for joining and finished ones are public in the archive. A match in
play is private to its players (and staff) unless its creator made it watchable; a watcher
sees only the public view, like anyone without a seat. A player whose seat a substitute took
over may still watch it so (a former holder: games.models.SeatHolder)."""

from __future__ import annotations

from games.models import Match, MatchStatus, SeatHolder


def can_watch(match: Match, user) -> bool:
    if match.status != MatchStatus.ACTIVE or match.watchable:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return (
        user.is_staff
        or match.seats.filter(user_id=user.pk).exists()
        or SeatHolder.objects.filter(match=match, user_id=user.pk).exists()
    )
