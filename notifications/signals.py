"""Receivers (connected in apps.ready): the game service layer's events (games.events) and
the clock's question, anymail's tracking signal, and a changed address."""

from __future__ import annotations

import logging

from anymail.signals import EventType
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from .models import Channel, Kind, Notification, Status

log = logging.getLogger(__name__)

FAILING_EVENTS = {EventType.BOUNCED, EventType.COMPLAINED, EventType.REJECTED}


# --- the service layer's events, inside its transaction: the rows commit with the moves ---


def on_players_invited(sender, match, emails, inviter, **kwargs) -> None:
    from . import outbox

    outbox.players_invited(match, emails, inviter)


def on_moves_appended(sender, match, seats, moves, newly_to_act, **kwargs) -> None:
    from . import outbox

    outbox.moves_appended(match, seats, moves, newly_to_act)


def on_match_finished(sender, match, seats, **kwargs) -> None:
    from . import outbox

    outbox.match_finished(match, seats)


def on_timeout_held(sender, match, seat, reprieve, **kwargs) -> None:
    """A deadline moved instead of timing out: tell the player, and move their reminders."""
    from . import outbox
    from .reminders import reschedule_reminders

    outbox.timeout_held(match, seat, reprieve)
    user = seat.user
    transaction.on_commit(lambda: reschedule_reminders(user))


def on_chat_posted(sender, match, message, seats, **kwargs) -> None:
    """Email the message to the other players who want chat."""
    from . import outbox

    outbox.chat_posted(match, message, seats)


def on_clock_held(sender, asked, **kwargs) -> set[tuple[int, int, int]]:
    """Of the (match, seat, deadline_seq) the deadline sweep found overdue, the seats whose
    email asking them is still being retried: they have not been told, so their clock waits
    (one query)."""
    wanted = Q()
    for match_id, seat, seq in asked:
        wanted |= Q(match_id=match_id, seat=seat, seq=seq)
    return set(
        Notification.objects.filter(
            wanted,
            channel=Channel.EMAIL,
            kind__in=[Kind.START, Kind.TURN],
            status__in=[Status.PENDING, Status.SENDING],
            first_failed_at__isnull=False,
        ).values_list("match_id", "seat", "seq")
    )


def on_tracking(sender, event, esp_name, **kwargs) -> None:
    """A bounce or complaint: mark the address failing so the site can say so."""
    if event.event_type not in FAILING_EVENTS or not event.recipient:
        return
    from django.contrib.auth import get_user_model

    from .reachability import mark_failing

    reason = f"{event.event_type}: {event.reject_reason or ''} {event.description or ''}"
    for user in get_user_model().objects.filter(email__iexact=event.recipient):
        mark_failing(
            user=user,
            reason=reason.strip(),
            permanent=True,
            since=event.timestamp or timezone.now(),
        )


def on_user_saved(sender, instance, update_fields=None, **kwargs) -> None:
    """A changed email address gets a fresh start: not failing, deadlines running again
    (whichever page changed it)."""
    if instance.pk is None or (update_fields is not None and "email" not in update_fields):
        return
    old = sender.objects.filter(pk=instance.pk).values_list("email", flat=True).first()
    if old is not None and old.lower() != (instance.email or "").lower():
        from .reachability import address_changed

        transaction.on_commit(lambda: address_changed(instance))
