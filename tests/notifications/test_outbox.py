"""The outbox: one row per message, claimed by compare-and-set, retried, reclaimed."""

import queue
from datetime import timedelta
from unittest import mock

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import services
from notifications import outbox
from notifications.models import Kind, Notification, Status
from notifications.transports import TransportError

from .conftest import headline, seat_of, send_all

pytestmark = pytest.mark.django_db


def test_a_move_writes_one_turn_notice_per_seat_that_must_act(match, anna, ben):
    turns = Notification.objects.filter(kind=Kind.TURN)
    assert sorted(turns.values_list("seat", flat=True)) == [0, 1]  # a simultaneous decision
    send_all()
    services.submit_move(
        match_id=match.pk,
        seat=seat_of(match, anna),
        move={"type": "play", "card": min(_hand(match, anna))},
        source="web",
    )
    # Ben is still asked the same decision: nobody gets a new turn notice.
    assert turns.count() == 2
    services.submit_move(
        match_id=match.pk,
        seat=seat_of(match, ben),
        move={"type": "play", "card": min(_hand(match, ben))},
        source="web",
    )
    sent = send_all()
    assert sorted(m.to[0] for m in sent if headline(m).startswith("Your turn")) == [
        "anna@example.com",
        "ben@example.net",
    ]


def _hand(match, user):
    from games.selectors import load_state

    match.refresh_from_db()
    return load_state(match)["hands"][seat_of(match, user)]


def test_rows_are_written_in_the_move_transaction(match, anna, ben):
    services.submit_move(
        match_id=match.pk,
        seat=seat_of(match, anna),
        move={"type": "play", "card": min(_hand(match, anna))},
        source="web",
    )
    before = Notification.objects.count()
    with mock.patch("notifications.outbox.write_many", side_effect=RuntimeError("boom")):
        with pytest.raises(RuntimeError):
            services.submit_move(
                match_id=match.pk,
                seat=seat_of(match, ben),
                move={"type": "play", "card": min(_hand(match, ben))},
                source="web",
            )
    match.refresh_from_db()
    assert match.head_seq == 1  # the move rolled back with its notifications
    assert Notification.objects.count() == before


def test_delivering_twice_sends_once(match):
    row = Notification.objects.filter(kind=Kind.TURN, channel="email").first()
    assert outbox.deliver(row.pk) == "sent"
    assert outbox.deliver(row.pk) == "not claimed"
    assert len(mail.outbox) == 1
    row.refresh_from_db()
    assert row.status == Status.SENT and row.provider_message_id == row.message_id


def test_a_row_claimed_by_a_sender_that_died_is_sent_once_after_its_lease(match):
    row = Notification.objects.filter(kind=Kind.TURN, channel="email").first()
    now = timezone.now()
    assert outbox.claim(row.pk, now) is not None  # ... and the sender dies here
    outbox.send_due(now)  # within the lease: nobody else touches it
    row_id = row.message_id
    assert row_id not in [m.extra_headers["Message-ID"] for m in mail.outbox]
    later = now + outbox.LEASE + timedelta(seconds=1)
    outbox.send_due(later)
    outbox.send_due(later)
    ids = [m.extra_headers["Message-ID"] for m in mail.outbox]
    assert ids.count(row_id) == 1


def test_transient_errors_back_off_and_permanent_ones_fail(match):
    rows = list(Notification.objects.filter(kind=Kind.TURN, channel="email"))
    now = timezone.now()
    failing = mock.patch(
        "notifications.transports.EmailTransport.notify",
        side_effect=TransportError("connection reset"),
    )
    with failing, pytest.raises(outbox.RetryLater) as later:
        outbox.deliver(rows[0].pk, now)
    rows[0].refresh_from_db()
    assert rows[0].status == Status.PENDING and rows[0].attempts == 1
    assert rows[0].send_after == now + later.value.delay
    assert outbox.deliver(rows[0].pk, now) == "not claimed"  # not due yet
    assert outbox.deliver(rows[0].pk, rows[0].send_after) == "sent"

    refused = mock.patch(
        "notifications.transports.EmailTransport.notify",
        side_effect=TransportError("no such mailbox", permanent=True),
    )
    with refused:
        assert outbox.deliver(rows[1].pk, now) == "failed"
    rows[1].refresh_from_db()
    assert rows[1].status == Status.FAILED and "no such mailbox" in rows[1].last_error


def test_retries_stop_a_retry_period_after_the_first_failure(match, settings):
    settings.OUTBOX_RETRY_FOR = 24 * 3600
    row = Notification.objects.filter(kind=Kind.TURN, channel="email").first()
    now = timezone.now()
    Notification.objects.filter(pk=row.pk).update(first_failed_at=now - timedelta(hours=23))
    timing_out = mock.patch(
        "notifications.transports.EmailTransport.notify", side_effect=TransportError("timeout")
    )
    with timing_out, pytest.raises(outbox.RetryLater):
        outbox.deliver(row.pk, now)
    later = now + timedelta(hours=1)
    with timing_out:
        assert outbox.deliver(row.pk, later) == "failed"


def test_a_broker_that_is_down_leaves_the_row_for_the_sweep(
    anna, ben, django_capture_on_commit_callbacks
):
    from notifications import handoff
    from notifications.tasks import deliver_notification

    # Publish in this thread, not the hand-off thread: that one could publish later, while
    # the second mock below is in place, and be counted as the sweep's.
    with (
        mock.patch.object(outbox, "hand_off", handoff.publish),
        mock.patch.object(
            deliver_notification, "apply_async", side_effect=ConnectionRefusedError("redis down")
        ) as refused,
    ):
        with django_capture_on_commit_callbacks(execute=True):
            from .conftest import start_match

            match = start_match(anna, ben)
    assert match.status == "active"
    # Ben's invitation and two turn notices (the start is told in them), each offered once
    # to the broker.
    pending = set(Notification.objects.filter(status=Status.PENDING).values_list("pk", flat=True))
    assert len(pending) == 3
    assert sorted(call.args[0][0] for call in refused.call_args_list) == sorted(pending)
    with mock.patch.object(deliver_notification, "apply_async") as enqueued:
        with time_machine.travel(timezone.now() + outbox.SWEEP_GRACE * 2):
            assert outbox.sweep() == 3
    swept = [call.args[0][0] for call in enqueued.call_args_list if call.args[0][0] in pending]
    assert sorted(swept) == sorted(pending)


def test_the_same_message_is_never_written_twice(match, anna):
    seat = match.seats.get(user=anna)
    fields = dict(kind=Kind.START, user=anna, dedupe_key="x:1", match=match, seat=seat.number)
    first = outbox.write(outbox.row_for(**fields, seq=0))
    second = outbox.write(outbox.row_for(**fields, seq=0))
    assert first is not None and second is None


class FakeTask:
    """A task the hand-off publishes: it keeps what it was given."""

    name = "fake"
    published: list = []

    class app:
        class conf:
            task_always_eager = False

    @classmethod
    def apply_async(cls, args, retry, **options):
        cls.published.append(args)


@pytest.fixture
def handoff_without_thread(monkeypatch):
    """The hand-off module with a queue of its own that no thread takes from (a thread an
    earlier test started waits on its own queue)."""
    from notifications import handoff

    monkeypatch.setattr(handoff, "_ensure_thread", lambda: None)
    monkeypatch.setattr(handoff, "_queue", queue.Queue())
    monkeypatch.setattr(FakeTask, "published", [])
    return handoff


def test_a_process_that_exits_publishes_what_is_still_queued(handoff_without_thread):
    """`receive_email` runs once per message and exits: the hand-off thread may not have
    taken the answer's notification yet, and the exit hook publishes it."""
    handoff = handoff_without_thread
    handoff.hand_off(FakeTask, 1)
    handoff.hand_off(FakeTask, 2)
    assert FakeTask.published == []
    handoff.publish_remaining()
    assert FakeTask.published == [(1,), (2,)]


def test_waiting_for_the_hand_off_thread_ends_when_its_queue_is_empty(handoff_without_thread):
    handoff = handoff_without_thread
    handoff.hand_off(FakeTask, 1)
    with pytest.raises(TimeoutError):
        handoff.wait_until_idle(timeout=0.2)
    handoff.publish_remaining()
    handoff.wait_until_idle(timeout=0.2)  # published: nothing left to wait for
    assert FakeTask.published == [(1,)]
