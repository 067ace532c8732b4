"""Whether email reaches a player, and what follows when it does not.

When delivery gives up on a player's mail (a refused address, or an outage outlasting
OUTBOX_RETRY_FOR) or the ESP reports a bounce, the address is marked failing: the site
says so on every page a player reads (lobby, match page, preferences) and the admin lists
it with the reason. While it is failing, the player's deadlines are stopped (the deadline
sweep passes their seats by). When they are reachable again (a message got through, they
changed their address or said it works; after an outage the sweep tries their latest
given-up message again every OUTBOX_PROBE_EVERY) the flag is cleared, every seat they are asked in
gets back the time its clock was stopped, and the notices given up meanwhile that still
ask something are sent again.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import clock
from players.calendar import clock_stopped
from players.models import Preferences

from .models import Channel, Kind, Notification, Status

log = logging.getLogger(__name__)

RESENT_KINDS = (Kind.START, Kind.TURN)


def mark_webhook_failing(*, user, reason: str, since: datetime) -> None:
    with transaction.atomic():
        prefs, _ = Preferences.objects.select_for_update().get_or_create(user=user)
        if not prefs.webhook_failing or prefs.webhook_failed_at is None:
            prefs.webhook_failed_at = since
        prefs.webhook_failing = True
        prefs.webhook_failure = reason[:300]
        prefs.save(update_fields=["webhook_failing", "webhook_failure", "webhook_failed_at"])
    log.warning("webhook of user %s marked failing: %s", user.pk, reason)


def mark_webhook_working(*, user, now: datetime | None = None) -> bool:
    """The webhook works again (a notice got through, or the player changed it): clear the
    flag; if it had stopped their clock, give their seats the time back. False if it was not
    failing."""
    now = now or timezone.now()
    with transaction.atomic():
        prefs = (
            Preferences.objects.select_for_update().filter(user=user, webhook_failing=True).first()
        )
        if prefs is None:
            return False
        stopped = clock_stopped(prefs) and not prefs.email_failing
        since = prefs.webhook_failed_at or now
        prefs.webhook_failing = False
        prefs.webhook_failure = ""
        prefs.save(update_fields=["webhook_failing", "webhook_failure"])
        if stopped:
            _give_time_back(user=user, stopped_since=since, now=now)
    log.info("webhook of user %s works again", user.pk)
    return True


def mark_failing(*, user, reason: str, permanent: bool, since: datetime) -> None:
    with transaction.atomic():
        prefs, _ = Preferences.objects.select_for_update().get_or_create(user=user)
        if not prefs.email_failing or prefs.email_failed_at is None:
            prefs.email_failed_at = since
        else:
            prefs.email_failed_at = min(prefs.email_failed_at, since)
        prefs.email_failing = True
        prefs.email_failure = reason[:300]
        prefs.email_failure_permanent = prefs.email_failure_permanent or permanent
        prefs.save(
            update_fields=[
                "email_failing",
                "email_failure",
                "email_failed_at",
                "email_failure_permanent",
            ]
        )
    log.warning("email to user %s marked failing, deadlines stopped: %s", user.pk, reason)


def mark_working(*, user, now: datetime | None = None) -> bool:
    """The address works again: clear the flag, give the player's seats their stopped time
    back, send again what was given up. False if it was not failing."""
    from .outbox import FAILING_PREFIX, enqueue

    now = now or timezone.now()
    with transaction.atomic():
        prefs = (
            Preferences.objects.select_for_update().filter(user=user, email_failing=True).first()
        )
        if prefs is None:
            return False
        since = prefs.email_failed_at or now
        prefs.email_failing = False
        prefs.email_failure = ""
        prefs.email_failure_permanent = False
        prefs.save(update_fields=["email_failing", "email_failure", "email_failure_permanent"])
        _give_time_back(user=user, stopped_since=since, now=now)
        again = list(
            Notification.objects.filter(
                Q(status=Status.FAILED, first_failed_at__gte=since)
                | Q(status=Status.SKIPPED, last_error__startswith=FAILING_PREFIX),
                user=user,
                channel=Channel.EMAIL,
                kind__in=RESENT_KINDS,
                created_at__gte=since - timedelta(days=1),
            ).values_list("pk", flat=True)
        )
        # Turn notices that are no longer true are dropped when they come up (superseded).
        Notification.objects.filter(pk__in=again).update(
            status=Status.PENDING, send_after=now, first_failed_at=None, lease_until=None
        )
        transaction.on_commit(lambda: enqueue(again))
    log.info("email to user %s works again; %s notices sent again", user.pk, len(again))
    return True


def late_notice_delivered(row: Notification, now: datetime) -> None:
    """A notice that asks the seat got through only after retries: the seat gets back the
    time the player could not know they were asked."""
    if row.kind in RESENT_KINDS and row.match_id is not None and row.seat is not None:
        _give_time_back(
            user=row.user,
            stopped_since=row.first_failed_at,
            now=now,
            only=(row.match_id, row.seat, row.seq),
        )


def _give_time_back(*, user, stopped_since: datetime, now: datetime, only=None) -> None:
    """The clock gives the seats their stopped time back; their reminders are worked out
    again (later deadlines, and a clock that runs again: a stop parks reminders)."""
    from .reminders import reschedule_reminders

    clock.give_time_back(user=user, stopped_since=stopped_since, now=now, only=only)
    reschedule_reminders(user, only=only[:2] if only else None)


def address_changed(user) -> None:
    """Call when a player's email address changes: the new one gets a fresh start."""
    mark_working(user=user)


def probe_every() -> timedelta:
    return timedelta(seconds=getattr(settings, "OUTBOX_PROBE_EVERY", 3 * 3600))


def probe(now: datetime) -> list[int]:
    """After an outage nothing may be left to send a player whose match waits for them: so
    for each player marked failing for a transient reason, their latest given-up email (and
    webhook notice) is tried again every OUTBOX_PROBE_EVERY. The first that gets through
    clears the flag."""
    from .outbox import enqueue

    failing_email = Q(
        channel=Channel.EMAIL,
        user__notification_prefs__email_failing=True,
        user__notification_prefs__email_failure_permanent=False,
    )
    failing_webhook = Q(channel=Channel.WEBHOOK, user__notification_prefs__webhook_failing=True)
    rows = (
        Notification.objects.filter(
            failing_email | failing_webhook,
            status=Status.FAILED,
            claimed_at__lt=now - probe_every(),
        )
        .order_by("user_id", "channel", "-pk")
        .values_list("pk", "user_id", "channel")[:1000]
    )
    latest: dict[tuple[int, str], int] = {}
    for pk, user_id, channel in rows:
        latest.setdefault((user_id, channel), pk)
    ids = list(latest.values())
    if ids:
        Notification.objects.filter(pk__in=ids, status=Status.FAILED).update(
            status=Status.PENDING, send_after=now, lease_until=None
        )
        transaction.on_commit(lambda: enqueue(ids))
    return ids
