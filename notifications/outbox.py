"""The outbox: notification rows written in the caller's transaction, and their delivery.

Writing: one row per message, with a unique `dedupe_key`, so a writer that runs twice makes
one message. After the transaction commits the row's id is handed to Celery; if the broker
is down that is logged and the row waits for the sweep.

Delivering: a sender claims a row with a compare-and-set (`UPDATE ... WHERE status =
'pending'`, which must touch one row), sends it, and marks it sent with the provider's
message id. Whatever the transport raises ends in a recorded state: a transient failure
puts the row back with a backoff, for OUTBOX_RETRY_FOR after its first failure; a permanent
one, or retries running out, marks it failed, marks the player's address failing and stops
their deadlines (notifications.reachability). A sender that dies leaves the row 'sending'
with an expired lease, which the sweep puts back (the same Message-ID goes out again: at
least once). A retried task on a sent row claims nothing and sends nothing.

Live play: a turn notice for a player seen on the match page in the last few minutes
(games.presence) waits; if they move meanwhile it is dropped as superseded.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.db.models import F
from django.utils import timezone, translation

from games.models import Match, MatchStatus, MoveKind, MoveSource, Seat
from games.vacation_bank import shows_sign_of_life
from players.accounts import is_bot_account
from players.models import NoticeMode, Preferences
from players.preferences import in_night, night_end_after, prefs_for, quiet_end_after

from . import hooks
from .emails import recipient_language
from .handoff import hand_off, publish
from .models import Channel, Kind, Notification, Status
from .transports import TransportError, classify_email_error, transport_for

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=10)
SWEEP_GRACE = timedelta(seconds=60)  # fresh rows belong to the task enqueued at commit
WEBHOOK_KINDS = (Kind.TURN, Kind.REMINDER)


FAILING_PREFIX = "address marked failing"


def retry_delay(attempts: int) -> timedelta:
    """1, 2, 4, 8 ... minutes, at most an hour."""
    return timedelta(minutes=min(60, 2 ** max(0, min(attempts, 10) - 1)))


def retry_for() -> timedelta:
    """How long transient failures are retried before the outbox gives up (a day at least
    by default, so an ESP outage of a few hours loses nothing)."""
    return timedelta(seconds=getattr(settings, "OUTBOX_RETRY_FOR", 36 * 3600))


def live_play_window() -> timedelta:
    """A player seen on the match page this recently is playing live."""
    return timedelta(seconds=getattr(settings, "LIVE_PLAY_SEEN_WITHIN", 180))


def live_play_hold() -> timedelta:
    """How long a live player's turn notice waits before it is looked at again."""
    return timedelta(seconds=getattr(settings, "LIVE_PLAY_HOLD", 240))


def live_play_max_hold() -> timedelta:
    """A player who stays on the page without moving gets the notice after this."""
    return timedelta(seconds=getattr(settings, "LIVE_PLAY_MAX_HOLD", 1800))


# --- writing ------------------------------------------------------------------------------


def wants_email(prefs: Preferences, kind: str) -> bool:
    """Whether this kind of message goes out by email under the player's chosen mode.
    Answers to a player's own email always go out, and so does the warning before a forfeit:
    nobody loses a seat without being told by email first."""
    if kind in (Kind.ANSWER, Kind.WARNING):
        return True
    if prefs.mode == NoticeMode.NONE:
        return False
    if prefs.mode == NoticeMode.DIGEST:
        # The digest replaces the turn notices and carries the chat.
        return kind not in (Kind.TURN, Kind.CHAT)
    return kind != Kind.DIGEST


def awake_within() -> timedelta:
    """A player who showed a sign of life this recently is up: a night does not hold the mail
    another player's move causes (they are playing)."""
    return timedelta(seconds=getattr(settings, "PBM_AWAKE_WITHIN", 3600))


def held_until(user, prefs: Preferences, now: datetime) -> datetime:
    """When mail a person's action writes now may go: after the player's quiet hours; with
    none set, after their night (players.preferences.night_window) unless they showed a sign
    of life in the last `awake_within` (a move of their own, a post, a sign-in)."""
    after = quiet_end_after(prefs, now)
    if after > now or user is None or not in_night(prefs, now):
        return after
    if shows_sign_of_life(user, now - awake_within()):
        return now
    return night_end_after(prefs, now)


def row_for(
    *,
    kind: str,
    user,
    dedupe_key: str,
    match: Match | None = None,
    seat: int | None = None,
    seq: int | None = None,
    context: dict | None = None,
    channel: str = Channel.EMAIL,
    hold_for_quiet_hours: bool = True,
    hold_for_night: bool = False,
    now: datetime | None = None,
) -> Notification | None:
    """The row to write (unsaved: `write` or `write_many` saves it), or None if the person
    does not want this message. A bot account gets none: a program learns of its turns
    through the API. Held until the player's quiet hours end, or their night when they set
    none and are not awake (`hold_for_quiet_hours`: `held_until`), or until their night
    ends whatever they do (`hold_for_night`: the mail the server writes on its own schedule:
    reminders, digests, the clock's)."""
    if is_bot_account(user):
        return None
    now = now or timezone.now()
    prefs = prefs_for(user)
    if channel == Channel.EMAIL:
        address = (getattr(user, "email", "") or "").strip()
        if not address or not wants_email(prefs, kind):
            return None
    elif channel == Channel.PUSH:  # to each of the player's browsers, when it is sent
        address = "browsers"
        if not prefs.push_turns or kind not in WEBHOOK_KINDS:
            return None
    else:
        address = prefs.webhook_url
        if not address or kind not in WEBHOOK_KINDS:
            return None
    if hold_for_night:
        send_after = night_end_after(prefs, now)
    else:
        send_after = held_until(user, prefs, now) if hold_for_quiet_hours else now
    status, error = Status.PENDING, ""
    # A refused address gets nothing until the player acts (answers to their own mail
    # excepted: they prove the address works). After an outage, mail is still tried: the
    # first that gets through clears the flag.
    if (
        channel == Channel.EMAIL
        and prefs.email_failing
        and prefs.email_failure_permanent
        and kind != Kind.ANSWER
    ):
        status, error = Status.SKIPPED, f"{FAILING_PREFIX}: {prefs.email_failure}"
    return Notification(
        kind=kind,
        channel=channel,
        status=status,
        dedupe_key=dedupe_key[:200],
        user=user,
        address=address,
        match=match,
        seat=seat,
        seq=seq,
        context=context or {},
        send_after=send_after,
        last_error=error,
    )


def write(row: Notification | None) -> Notification | None:
    """Save one row made by `row_for` (None: the person does not want it) unless it exists
    already, and deliver it once the current transaction commits."""
    if row is None:
        return None
    try:
        with transaction.atomic():
            row.save(force_insert=True)
    except IntegrityError:
        return None  # written before: a retried writer
    if row.status == Status.PENDING:
        transaction.on_commit(lambda: enqueue([row.pk]))
    return row


def write_many(rows: list[Notification | None]) -> list[Notification]:
    """Write a move's rows in one statement and deliver them once the transaction commits.

    A row whose dedupe key exists already (a retried writer) is not written again: the
    statement leaves it as it is (ON CONFLICT on the key) and hands back its id; enqueueing
    it again sends nothing twice, since a sender must claim a pending row first."""
    rows = [r for r in rows if r is not None]
    if not rows:
        return []
    Notification.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["dedupe_key"], update_fields=["dedupe_key"]
    )
    pending = [r for r in rows if r.status == Status.PENDING]
    if pending:
        transaction.on_commit(lambda: enqueue([r.pk for r in pending]))
    return rows


def write_both(*, kind: str, user, key: str, **fields) -> list[Notification]:
    rows = [
        write(
            row_for(kind=kind, user=user, dedupe_key=f"{key}:{channel}", channel=channel, **fields)
        )
        for channel in (Channel.EMAIL, Channel.WEBHOOK, Channel.PUSH)
    ]
    return [r for r in rows if r is not None]


def enqueue(ids: Iterable[int]) -> None:
    """Hand committed rows to Celery without waiting on the broker (notifications.handoff);
    a row the broker never gets is sent by the sweep."""
    from .tasks import deliver_notification

    for pk in ids:
        hand_off(deliver_notification, pk)


def _people(seats: list[Seat]) -> list[Seat]:
    """The seats of people (not bots) among the seats the service layer locked, each read
    with its player and preferences: the rows below read nothing more."""
    return [s for s in seats if s.user_id and not s.is_bot]


def players_invited(match: Match, emails: list[str], inviter: str) -> None:
    """An invitation to each address (with or without an account here) to take its seat."""
    from django.contrib.auth import get_user_model

    users = {u.email.lower(): u for u in get_user_model().objects.filter(email__in=emails)}
    for email in emails:
        user = users.get(email)
        if user is not None and not wants_email(prefs_for(user), Kind.INVITE):
            continue  # a player who asked for no email finds the invitation in the lobby
        try:
            with transaction.atomic():
                row = Notification.objects.create(
                    kind=Kind.INVITE,
                    dedupe_key=f"invite:{match.pk}:{email}"[:200],
                    user=user,
                    address=email,
                    match=match,
                    # No account, no language of its own: the inviter's page's (emails).
                    context={
                        "inviter": inviter,
                        "email": email,
                        "language": translation.get_language(),
                    },
                    # A player's quiet hours and night hold an invitation too; an address
                    # with no account has none.
                    send_after=held_until(user, prefs_for(user), timezone.now()),
                )
        except IntegrityError:
            continue  # invited before
        transaction.on_commit(lambda pk=row.pk: enqueue([pk]))


def reply_seq(match: Match, seat: Seat) -> int:
    """The position a message to `seat` answers for: the decision it is asked (so a reply
    plays it), else the head of the log."""
    asked = match.status == MatchStatus.ACTIVE and seat.number in match.to_act
    return seat.deadline_seq if asked and seat.deadline_seq is not None else match.head_seq


def moves_appended(match: Match, seats: list[Seat], moves: list, newly_to_act: list[int]) -> None:
    people = {s.number: s for s in _people(seats)}
    # What a deadline played was written by the clock, not by a person who is up: its mail
    # waits for the morning of each reader.
    by_clock = any(m.source == MoveSource.DEADLINE for m in moves)
    rows = []
    for number in newly_to_act:
        seat = people.get(number)
        if seat is not None and not seat.played_by_bot:
            key = f"turn:{match.pk}:{number}:{match.head_seq}"
            rows += [
                row_for(
                    kind=Kind.TURN,
                    user=seat.user,
                    dedupe_key=f"{key}:{channel}",
                    channel=channel,
                    match=match,
                    seat=number,
                    seq=match.head_seq,
                    hold_for_night=by_clock,
                )
                for channel in (Channel.EMAIL, Channel.WEBHOOK, Channel.PUSH)
            ]
    for move in moves:
        # A deadline played for a seat: tell it, unless a turn notice or the end mail already
        # tells the story.
        if (
            move.kind == MoveKind.TIMEOUT
            and move.seat in people
            and move.seat not in newly_to_act
            and match.status == MatchStatus.ACTIVE
        ):
            rows.append(
                row_for(
                    kind=Kind.TIMEOUT,
                    user=people[move.seat].user,
                    dedupe_key=f"timeout:{match.pk}:{move.seat}:{move.seq}",
                    match=match,
                    seat=move.seat,
                    seq=move.seq,
                    hold_for_night=True,
                )
            )
    rows += hooks.rows_for_moves(match, seats, moves)  # a match's channels, if any
    write_many(rows)  # one INSERT for the move's rows, in the move's transaction


def match_finished(match: Match, seats: list[Seat]) -> None:
    write_many(
        hooks.rows_for_end(match, seats)
        + [
            row_for(
                kind=Kind.END,
                user=seat.user,
                dedupe_key=f"end:{match.pk}:{seat.number}",
                match=match,
                seat=seat.number,
                seq=match.head_seq,
            )
            for seat in _people(seats)
        ]
    )


def chat_posted(match: Match, message, seats: list[Seat]) -> None:
    write_many(hooks.rows_for_chat(match, message, seats))
    for seat in _people(seats):
        if seat.number == message.seat:
            continue
        write(
            row_for(
                kind=Kind.CHAT,
                user=seat.user,
                dedupe_key=f"chat:{message.pk}:{seat.number}",
                match=match,
                seat=seat.number,
                seq=reply_seq(match, seat),
                context={"chat_id": message.pk},
            )
        )


def reminder(seat: Seat, *, deadline: datetime, hours: int, now: datetime) -> int:
    rows = write_both(
        kind=Kind.REMINDER,
        user=seat.user,
        key=f"reminder:{seat.match_id}:{seat.number}:{seat.deadline_seq}:{hours}",
        match=seat.match,
        seat=seat.number,
        seq=seat.deadline_seq,
        context={"hours": hours, "deadline": deadline.isoformat()},
        hold_for_night=True,  # written late by a tick in the night: it waits for the morning
        now=now,
    )
    return len(rows)


# --- delivering ---------------------------------------------------------------------------


class RetryLater(Exception):
    """The row is back in the queue, due after `delay` (a transient failure, a live hold)."""

    def __init__(self, delay: timedelta, why: str = "retry"):
        super().__init__(f"{why} in {delay}")
        self.delay = delay
        self.why = why


def claim(pk: int, now: datetime) -> Notification | None:
    """Take the row for sending, or None if someone else has it, it is done, or not due."""
    try:
        claimed = Notification.objects.filter(
            pk=pk, status=Status.PENDING, send_after__lte=now
        ).update(
            status=Status.SENDING,
            claimed_at=now,
            lease_until=now + LEASE,
            attempts=F("attempts") + 1,
        )
    except DATABASE_LOST:  # the claim may have been taken before its answer was lost
        _until_written(lambda: _release(pk, now))
        raise
    if claimed != 1:
        return None
    try:
        return Notification.objects.select_related("user__notification_prefs", "match").get(pk=pk)
    except DATABASE_LOST:
        _until_written(lambda: _release(pk, now))
        raise


# The connection to the database went away (PostgreSQL stopped, a network cut): no delivery
# failed, and the row's own update must wait until the database answers again.
DATABASE_LOST = (OperationalError, InterfaceError)
WRITE_BACK_FOR = 60.0  # seconds a worker waits for the database to take a row's update


def _until_written(write) -> None:
    """Run `write`, a row's update after (or instead of) its send, until the database takes
    it: a connection lost mid-send must not leave the row 'sending' until its lease ends (or
    a sent one to be sent again). Not inside a transaction, which the lost connection ended."""
    deadline = time.monotonic() + WRITE_BACK_FOR
    while True:
        try:
            write()
            return
        except DATABASE_LOST:
            if connection.in_atomic_block or time.monotonic() >= deadline:
                raise
            connection.close()  # the next try connects afresh
            time.sleep(1)


def _release(pk: int, now: datetime) -> None:
    """A row this call claimed (at `now`) back in the queue, due now, its attempt not
    counted: nothing was sent."""
    Notification.objects.filter(pk=pk, status=Status.SENDING, claimed_at=now).update(
        status=Status.PENDING, send_after=now, lease_until=None, attempts=F("attempts") - 1
    )


def _write_outcome(pk: int, fields: dict) -> int:
    return Notification.objects.filter(pk=pk, status=Status.SENDING).update(**fields)


def _finish(row: Notification, **fields) -> bool:
    """The row's outcome written, once the database takes it (`_until_written`)."""
    written: list[int] = []
    _until_written(lambda: written.append(_write_outcome(row.pk, fields)))
    done = written[-1]
    if not done:
        log.warning("notification %s was reclaimed while it was being sent", row.pk)
    return bool(done)


def _superseded(row: Notification) -> str:
    """Why a turn notice, reminder or invitation held back (quiet hours, the night, retries)
    is no longer true."""
    if row.kind == Kind.INVITE and row.match is not None:
        # Asks to take a seat: not once the invited person took it (from the lobby, or the
        # table playing again), nor once the match began without them.
        taken = row.match.seats.filter(invited_email__iexact=row.address, user__isnull=False)
        if row.match.status != MatchStatus.OPEN or taken.exists():
            return "the invitation's seat is taken"
        return ""
    if row.kind not in (Kind.TURN, Kind.REMINDER) or row.match is None:
        return ""
    if row.match.status != MatchStatus.ACTIVE:
        return "the match is over"
    seat = row.match.seats.filter(number=row.seat).first()
    if seat is None or seat.deadline_seq != row.seq:
        return "the seat is no longer asked this decision"
    return ""


def _live_hold(row: Notification, now: datetime) -> timedelta | None:
    """How long to hold a turn notice for a player who is on the match page right now."""
    from games.presence import seen_since

    if row.kind != Kind.TURN or row.match_id is None or row.user_id is None:
        return None
    if now - row.created_at >= live_play_max_hold():
        return None
    if not seen_since(row.match, row.user_id, now - live_play_window()):
        return None
    return live_play_hold()


def _give_up(row: Notification, error: TransportError, first_failed: datetime) -> str:
    _finish(row, status=Status.FAILED, last_error=error.message, first_failed_at=first_failed)
    log.warning("notification %s failed: %s", row.pk, error.message)
    if row.user_id is None or row.channel == Channel.PUSH:
        return "failed"
    from .reachability import mark_failing, mark_webhook_failing

    if row.channel == Channel.EMAIL:
        mark_failing(
            user=row.user, reason=error.message, permanent=error.permanent, since=first_failed
        )
    else:
        mark_webhook_failing(user=row.user, reason=error.message, since=first_failed)
    return "failed"


def _failed(row: Notification, error: TransportError, now: datetime) -> str:
    first_failed = row.first_failed_at or now
    if error.permanent or now - first_failed >= retry_for():
        return _give_up(row, error, first_failed)
    delay = retry_delay(row.attempts)
    _finish(
        row,
        status=Status.PENDING,
        last_error=error.message,
        send_after=now + delay,
        lease_until=None,
        first_failed_at=first_failed,
    )
    log.info("notification %s: %s; again in %s", row.pk, error.message, delay)
    raise RetryLater(delay)


def _delivered(row: Notification, provider_id: str, now: datetime) -> None:
    _finish(
        row,
        status=Status.SENT,
        sent_at=timezone.now(),
        provider_message_id=(provider_id or "")[:300],
        last_error="",
    )
    if row.user_id is None:
        return
    from .reachability import late_notice_delivered, mark_webhook_working, mark_working

    if row.channel == Channel.WEBHOOK:
        if prefs_for(row.user).webhook_failing:
            mark_webhook_working(user=row.user, now=now)
        return
    if row.channel == Channel.PUSH:  # a browser says nothing about the player's address
        return

    # Reachable again: every seat gets its stopped time back (this one's included), else a
    # notice that got through late gives its seat the delay back.
    if prefs_for(row.user).email_failing:
        mark_working(user=row.user, now=now)
    elif row.first_failed_at is not None:
        late_notice_delivered(row, now)


def deliver(pk: int, now: datetime | None = None) -> str:
    """Send one row if it can be claimed. Returns what happened; raises RetryLater when the
    row went back to the queue (a transient failure, or a live player's turn held back).
    Whatever goes wrong, the row ends the call in a recorded state, never 'sending'."""
    now = now or timezone.now()
    row = claim(pk, now)
    if row is None:
        return "not claimed"
    try:
        reason = _superseded(row)
        if reason:
            _finish(row, status=Status.SKIPPED, last_error=reason)
            return "skipped"
        hold = _live_hold(row, now)
        if hold is not None:
            _finish(
                row,
                status=Status.PENDING,
                send_after=now + hold,
                lease_until=None,
                attempts=F("attempts") - 1,
                last_error="held: the player is on the match page",
            )
            raise RetryLater(hold, "held")
        with translation.override(recipient_language(row)):  # each in its reader's language
            provider_id = transport_for(row.channel).notify(row)
    except RetryLater:
        raise
    except DATABASE_LOST:
        log.warning("notification %s: the database went away while it was sent", pk)
        _until_written(lambda: _release(pk, now))
        raise
    except TransportError as error:
        return _failed(row, error, now)
    except Exception as error:
        log.exception("notification %s: unexpected error", pk)
        return _failed(row, classify_email_error(error), now)
    _delivered(row, provider_id, now)
    return "sent"


def reclaim_lost(now: datetime) -> list[int]:
    """Rows whose sender died mid-send (lease expired) go back to the queue, due now; a row
    whose senders keep dying is given up after OUTBOX_RETRY_FOR like any failure."""
    lost = list(
        Notification.objects.filter(status=Status.SENDING, lease_until__lt=now).select_related(
            "user"
        )
    )
    back = []
    for row in lost:
        first_failed = row.first_failed_at or now
        if now - first_failed >= retry_for():
            _give_up(row, TransportError("the sender kept stopping before finishing"), first_failed)
            continue
        if Notification.objects.filter(
            pk=row.pk, status=Status.SENDING, lease_until__lt=now
        ).update(
            status=Status.PENDING,
            send_after=now,
            lease_until=None,
            first_failed_at=first_failed,
            last_error="The sender stopped before finishing; sent again.",
        ):
            back.append(row.pk)
    return back


def due_ids(now: datetime, grace: timedelta = SWEEP_GRACE, limit: int = 500) -> list[int]:
    return list(
        Notification.objects.filter(status=Status.PENDING, send_after__lte=now - grace)
        .order_by("send_after")
        .values_list("pk", flat=True)[:limit]
    )


def sweep(now: datetime | None = None) -> int:
    """The beat task's work: reclaim lost rows, try again players who could not be reached,
    and enqueue every row left unsent."""
    from .reachability import probe

    now = now or timezone.now()
    probe(now)
    ids = sorted(set(reclaim_lost(now)) | set(due_ids(now)))
    from .tasks import deliver_notification

    for pk in ids:  # in beat's worker, not a request: publish now, stop at the first refusal
        if not publish(deliver_notification, pk):
            break
    return len(ids)


def send_due(now: datetime | None = None) -> list[str]:
    """Send everything due now in this process (tests, `manage.py send_outbox`). One row
    that fails in an unforeseen way is logged and the others are still sent."""
    from .reachability import probe

    now = now or timezone.now()
    probe(now)
    reclaim_lost(now)
    outcomes = []
    for pk in due_ids(now, grace=timedelta(0)):
        try:
            outcomes.append(deliver(pk, now))
        except RetryLater as later:
            outcomes.append(later.why)
        except Exception:
            log.exception("notification %s could not be delivered", pk)
            outcomes.append("error")
    return outcomes


VACATION_LOW = 2  # days left to spend in a match when the player is told the bank runs low


def timeout_held(match: Match, seat: Seat, reprieve) -> None:
    """Tell the player why their deadline moved: the warning that the next timeout forfeits
    their seat, or that the clock began spending their vacation bank on this decision, or
    that what it may still spend in this match runs low (games.clock.reprieve). Not one
    mail a day: the first day spent for a decision, and the day it runs low, each once. A
    deadline moved by a vacation booked since tells nobody anything."""
    if reprieve.warned:
        kind, key = Kind.WARNING, f"{Kind.WARNING}:{match.pk}:{seat.number}:{seat.deadline_seq}"
    elif not reprieve.vacation_days:
        return
    elif not Notification.objects.filter(
        kind=Kind.VACATION, match=match, seat=seat.number, seq=seat.deadline_seq
    ).exists():
        kind, key = Kind.VACATION, f"vacation:{match.pk}:{seat.number}:{seat.deadline_seq}"
    elif reprieve.vacation_left <= VACATION_LOW:
        kind, key = Kind.VACATION, f"vacation-low:{match.pk}:{seat.number}:{seat.deadline_seq}"
    else:
        return
    write(
        row_for(
            kind=kind,
            user=seat.user,
            dedupe_key=key,
            match=match,
            seat=seat.number,
            seq=seat.deadline_seq,
            context={
                "deadline": reprieve.deadline.isoformat(),
                "days": ", ".join(day.isoformat() for day in reprieve.vacation_days),
                "left": reprieve.vacation_left,
                "low": key.startswith("vacation-low:"),
            },
            hold_for_quiet_hours=not reprieve.warned,
            hold_for_night=not reprieve.warned,
        )
    )
