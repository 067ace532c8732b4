"""A notice whose delivery the database's going away cut off (issue 43, item 8): no
delivery failed, so it is no failure; it goes back to the queue, due at once and its attempt
not counted, as soon as the database takes the write (not when its lease ends), and a sent
one is marked sent, never sent again."""

import pytest
from django.db import OperationalError

from notifications import outbox
from notifications.models import Kind, Notification, Status

from .conftest import start_match

pytestmark = pytest.mark.django_db(transaction=True)  # no outer transaction: as a worker


def a_turn_notice(anna, ben) -> Notification:
    start_match(anna, ben)
    return Notification.objects.filter(kind=Kind.TURN, channel="email").first()


def cut_once(monkeypatch, target, name: str) -> list:
    """`target.name` raises a lost connection the first time it is called."""
    calls, real = [], getattr(target, name)

    def flaky(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real(*args, **kwargs)

    monkeypatch.setattr(target, name, flaky)
    return calls


def test_a_notice_cut_off_while_its_mail_was_built_is_pending_again_at_once(monkeypatch, anna, ben):
    row = a_turn_notice(anna, ben)
    from notifications import emails

    cut_once(monkeypatch, emails, "build_email")
    with pytest.raises(OperationalError):
        outbox.deliver(row.pk)
    row.refresh_from_db()
    assert (row.status, row.attempts, row.lease_until, row.last_error) == (
        Status.PENDING,
        0,
        None,
        "",
    )  # no failure recorded: nothing was tried
    assert outbox.deliver(row.pk) == "sent"


def test_the_write_back_waits_for_the_database(monkeypatch, anna, ben):
    """The first write after the loss fails too (the database is still away): the worker
    tries again until it is taken."""
    row = a_turn_notice(anna, ben)
    from notifications import emails

    monkeypatch.setattr(outbox.time, "sleep", lambda seconds: None)
    cut_once(monkeypatch, emails, "build_email")
    released = cut_once(monkeypatch, outbox, "_release")
    with pytest.raises(OperationalError):
        outbox.deliver(row.pk)
    assert len(released) == 2
    row.refresh_from_db()
    assert row.status == Status.PENDING


def test_a_lost_claim_is_released(monkeypatch, anna, ben):
    """The claim's own update lost its answer (it may have been taken): released at once."""
    row = a_turn_notice(anna, ben)
    monkeypatch.setattr(outbox.time, "sleep", lambda seconds: None)
    real = outbox.Notification.objects.filter

    class Lost:
        def __init__(self, query):
            self.query = query

        def update(self, **fields):
            self.query.update(**fields)  # taken, then the answer is lost
            raise OperationalError("server closed the connection unexpectedly")

    calls = []

    def filter_once(*args, **kwargs):
        calls.append(1)
        return Lost(real(*args, **kwargs)) if len(calls) == 1 else real(*args, **kwargs)

    monkeypatch.setattr(outbox.Notification.objects, "filter", filter_once)
    with pytest.raises(OperationalError):
        outbox.deliver(row.pk)
    row.refresh_from_db()
    assert (row.status, row.attempts) == (Status.PENDING, 0)


def test_a_sent_notice_is_marked_sent_when_the_database_comes_back(monkeypatch, anna, ben):
    row = a_turn_notice(anna, ben)
    monkeypatch.setattr(outbox.time, "sleep", lambda seconds: None)
    finished = cut_once(monkeypatch, outbox, "_write_outcome")
    assert outbox.deliver(row.pk) == "sent"
    assert len(finished) >= 2
    row.refresh_from_db()
    assert row.status == Status.SENT
