"""`manage.py receive_email`: one RFC 822 message on standard input, as an MTA pipe."""

import io
import sys
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django.utils import timezone

from replies import inbound
from replies.models import InboundMessage, InboundStatus

from .conftest import reply_to, turn_email

pytestmark = pytest.mark.django_db


def pipe(monkeypatch, raw: bytes, *args) -> str:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    call_command("receive_email", *args, stdout=out)
    return out.getvalue()


def test_a_piped_reply_is_played(monkeypatch, match, anna):
    turn = turn_email(match, anna)
    out = pipe(
        monkeypatch, reply_to(turn, "1"), "--recipient", turn.reply_to[0], "--sender", anna.email
    )
    assert out.startswith("done")
    assert match.moves.count() == 1


def test_a_piped_bounce_is_dropped(monkeypatch, match, anna):
    turn = turn_email(match, anna)
    out = pipe(monkeypatch, reply_to(turn, "1"), "--recipient", turn.reply_to[0], "--sender", "")
    assert out.startswith("dropped")
    assert match.moves.count() == 0


def test_a_database_failure_asks_the_mta_to_retry(monkeypatch, match, anna):
    turn = turn_email(match, anna)
    monkeypatch.setattr(
        "replies.inbound.receive_raw",
        lambda *a, **k: (_ for _ in ()).throw(OperationalError("connection refused")),
    )
    with pytest.raises(SystemExit) as stopped:
        pipe(monkeypatch, reply_to(turn, "1"))
    assert stopped.value.code == 75


def test_a_fault_of_ours_while_recording_is_permanent(monkeypatch, match, anna):
    turn = turn_email(match, anna)
    monkeypatch.setattr(
        "replies.inbound.receive_raw",
        lambda *a, **k: (_ for _ in ()).throw(RuntimeError("a bug")),
    )
    with pytest.raises(SystemExit) as stopped:
        pipe(monkeypatch, reply_to(turn, "1"))
    assert stopped.value.code == 70  # EX_SOFTWARE: bounces once instead of retrying for days


@pytest.mark.parametrize("raw", [b"", b"  \r\n", b"\x00\x01 not mail\xff\r\n\r\nbody"])
def test_what_is_not_a_message_bounces_once(monkeypatch, raw):
    with pytest.raises(SystemExit) as stopped:
        pipe(monkeypatch, raw)
    assert stopped.value.code == 65  # EX_DATAERR
    assert not InboundMessage.objects.exists()


def test_a_message_that_breaks_the_reader_is_recorded_and_exits_0(monkeypatch, match, anna):
    turn = turn_email(match, anna)
    monkeypatch.setattr(
        "replies.inbound.run_commands",
        lambda *a, **k: (_ for _ in ()).throw(ValueError("unexpected")),
    )
    out = pipe(monkeypatch, reply_to(turn, "1"), "--recipient", turn.reply_to[0])
    row = InboundMessage.objects.get()
    assert out.startswith("rejected") and row.status == InboundStatus.REJECTED
    assert "ValueError" in row.outcome and match.moves.count() == 0


def test_receive_email_unhandled_takes_up_mail_a_worker_left(match, anna):
    turn = turn_email(match, anna)
    row, _ = inbound.record_raw(reply_to(turn, "1"), recipient=turn.reply_to[0])
    InboundMessage.objects.filter(pk=row.pk).update(
        received_at=timezone.now() - timedelta(minutes=10)
    )
    out = io.StringIO()
    call_command("receive_email", unhandled=True, stdout=out)
    row.refresh_from_db()
    assert row.status == InboundStatus.DONE and match.moves.count() == 1
    assert "unhandled replies taken up: 1" in out.getvalue()
