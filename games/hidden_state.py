"""Who sees a match's hidden state in the admin: hands, sealed bids and their salts, deck
order, the seed, raw states, move payloads, and a seat's mail (which carries its hand).

Everyone with access to the admin does once the match is over. Before that, only a holder of
`games.view_hidden_state` (superusers hold every permission), and only after opening it for
that match with a reason: each opening is a HiddenStateOpening row (who, which match, at
which move, why), and it lasts OPENING_LASTS in that browser session. Until then every admin
page shows the match as a spectator sees it (docs/operators.md).
"""

from __future__ import annotations

from datetime import timedelta

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils import timezone

from games.models import HiddenStateOpening, Match

PERMISSION = "games.view_hidden_state"
OPENING_LASTS = timedelta(minutes=30)
SESSION_KEY = "hidden_state_open_until"  # {match id: POSIX time the opening ends}


def may_open(user) -> bool:
    return user.is_active and user.has_perm(PERMISSION)


def open_until(request: HttpRequest, match: Match) -> float | None:
    """When this session's opening of `match` ends, if it is open now."""
    until = request.session.get(SESSION_KEY, {}).get(str(match.pk))
    if until is None or until <= timezone.now().timestamp() or not may_open(request.user):
        return None
    return until


def shown(request: HttpRequest, match: Match) -> bool:
    """May this request see `match`'s hidden state?"""
    return match.is_over or open_until(request, match) is not None


def open_hidden_state(*, request: HttpRequest, match: Match, reason: str) -> HiddenStateOpening:
    """Record the opening, then let this session see the match's hidden state for a while."""
    user = request.user
    if not may_open(user):
        raise PermissionDenied
    opening = HiddenStateOpening.objects.create(
        match=match,
        user=user,
        username=user.get_username(),
        reason=reason,
        seq=match.head_seq,
    )
    opened = dict(request.session.get(SESSION_KEY, {}))
    opened[str(match.pk)] = (timezone.now() + OPENING_LASTS).timestamp()
    request.session[SESSION_KEY] = opened
    return opening
