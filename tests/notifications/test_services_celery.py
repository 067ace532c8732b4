"""With a real Celery worker and Redis (run by CI with -m services; a missing Redis fails).

The worker runs in a thread of this process (solo pool) against the real broker, so it sends
through the same locmem email backend the test reads.
"""

import base64
import json
import threading
import time
from contextlib import contextmanager
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from config.celery import app
from games import clock, services
from games.selectors import load_state
from notifications import handoff, outbox
from notifications.models import Kind, Notification, Status

from .conftest import reply_to, seat_of, start_match, turn_email

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _site(settings, tmp_path):  # the conftest's, without forcing the memory broker
    settings.REPLY_DOMAIN = "reply.example.org"
    settings.SITE_URL = "https://boards.example.org"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def worker():
    from celery.contrib.testing.worker import start_worker

    assert app.conf.broker_url.startswith("redis://"), (
        "services tests need CELERY_BROKER_URL=redis://..."
    )
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=2)  # Redis missing: the test fails here
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        yield


@contextmanager
def broker_at(url: str):
    """Point the app's producers at another broker (a closed port: Redis is 'down')."""

    # Producers connect to broker_write_url (the worker keeps its own connection).
    def switch(to: str | None) -> None:
        app.conf.broker_write_url = to
        app._pool = None
        app.amqp._producer_pool = None

    switch(url)
    try:
        yield
    finally:
        handoff.wait_until_idle()  # what was handed off inside met the broker that was down
        switch(None)


def wait_for(condition, seconds: float = 20.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def test_a_move_sends_exactly_one_email_per_seat_that_must_act(worker, anna, ben):
    match = start_match(anna, ben)

    def turns():
        return [m for m in mail.outbox if m.body.startswith("Your turn")]

    # A turn notice for each player, the start told in it. Ben's invitation goes only if
    # the worker sends it before he takes his seat (start_match joins at once), else it is
    # skipped: at most one.
    assert wait_for(lambda: len(turns()) == 2)
    assert sorted(m.to[0] for m in turns()) == [anna.email, ben.email]
    for user in (anna, ben):
        seat = seat_of(match, user)
        card = load_state(match)["hands"][seat][0]
        services.submit_move(
            match_id=match.pk, seat=seat, move={"type": "play", "card": card}, source="web"
        )
    assert wait_for(lambda: len(turns()) == 4)
    time.sleep(1)
    invitations = [m for m in mail.outbox if m not in turns()]
    assert len(turns()) == 4 and len(invitations) <= 1
    assert all(m.to == [ben.email] for m in invitations)
    unsent = Notification.objects.exclude(status=Status.SENT).values_list("kind", "status")
    assert list(unsent) == ([] if invitations else [(Kind.INVITE, Status.SKIPPED)])


def test_redis_down_during_a_move_the_email_arrives_later(worker, anna, ben):
    with broker_at("redis://127.0.0.1:1/0"):
        match = start_match(anna, ben)  # the move succeeds with the broker unreachable
    assert match.status == "active"
    time.sleep(1)
    assert mail.outbox == []
    assert Notification.objects.filter(status=Status.PENDING).count() == 3  # invitation too
    later = timezone.now() + outbox.SWEEP_GRACE * 2
    assert outbox.sweep(later) == 3  # the beat sweep, with the broker back
    assert wait_for(lambda: len(mail.outbox) == 2)  # the invitation's seat is taken: skipped
    time.sleep(1)
    assert len(mail.outbox) == 2


def test_a_sender_killed_mid_send_is_replaced_and_sends_once(worker, anna, ben):
    with broker_at("redis://127.0.0.1:1/0"):
        start_match(anna, ben)
    row = Notification.objects.filter(kind=Kind.TURN).first()
    now = timezone.now()
    assert outbox.claim(row.pk, now) is not None  # the sender dies holding the row
    outbox.sweep(now + outbox.SWEEP_GRACE * 2)
    assert wait_for(lambda: len(mail.outbox) == 1)
    time.sleep(0.5)
    assert len(mail.outbox) == 1  # the claimed row waits for its lease
    with time_machine.travel(now + outbox.LEASE + outbox.SWEEP_GRACE * 2):
        outbox.sweep()
        assert wait_for(lambda: len(mail.outbox) == 2)
    # A redelivered task for a row already sent sends nothing.
    from notifications.tasks import deliver_notification

    for _ in range(2):
        deliver_notification.delay(row.pk)
    time.sleep(2)
    ids = [m.extra_headers["Message-ID"] for m in mail.outbox]
    assert len(ids) == 2 and len(set(ids)) == 2


@override_settings(ANYMAIL={"WEBHOOK_SECRET": "hook:secret"})
def test_an_inbound_webhook_post_is_handled_by_the_worker(worker, client, anna, ben):
    match = start_match(anna, ben)
    # The worker may be sending it: wait for it rather than send it here (turn_email).
    assert wait_for(lambda: any(anna.email in m.to for m in mail.outbox))
    turn = turn_email(match, anna)
    body = json.dumps(
        {
            "RawEmail": reply_to(turn, "1").decode(),
            "OriginalRecipient": turn.reply_to[0],
            "Headers": [],
        }
    )
    refused = client.post("/anymail/postmark/inbound/", body, content_type="application/json")
    assert refused.status_code in (400, 403)
    auth = "Basic " + base64.b64encode(b"hook:secret").decode()
    response = client.post(
        "/anymail/postmark/inbound/", body, content_type="application/json", HTTP_AUTHORIZATION=auth
    )
    assert response.status_code == 200
    assert wait_for(lambda: match.moves.filter(source="email").count() == 1)
    # An applied reply is confirmed in the player's next mail of the match, not by a mail
    # of its own (issue 46): Ben's card asks Anna again, and that mail says it first.
    services.submit_move(match_id=match.pk, player=ben, command="1", source="web")
    assert wait_for(lambda: any(m.body.startswith("Applied") for m in mail.outbox))


def test_two_sweeps_at_once_apply_the_timeout_once(anna, ben, no_vacation_bank):
    # Real row locks: SQLite's shared-cache test database serialises nothing here.
    assert connection.vendor == "postgresql", "run with DATABASE_URL=postgres://..."
    match = start_match(anna, ben, days_per_move=1)
    errors = []
    barrier = threading.Barrier(2)

    def sweep():
        try:
            barrier.wait()
            clock.sweep_deadlines(timezone.now() + timedelta(days=2), enforce=_enforce_later)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(match.moves.filter(kind="timeout").values_list("seat", flat=True)) == [0, 1]


def _enforce_later(match_id, seat, deadline_seq):
    with time_machine.travel(timezone.now() + timedelta(days=2)):
        clock.enforce(match_id, seat, deadline_seq)
