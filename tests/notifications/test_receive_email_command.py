"""`manage.py receive_email`: one RFC 822 message on standard input, as an MTA pipe."""

import io
import sys

import pytest
from django.core.management import call_command

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
        "notifications.inbound.receive_raw",
        lambda *a, **k: (_ for _ in ()).throw(RuntimeError("db down")),
    )
    with pytest.raises(SystemExit) as stopped:
        pipe(monkeypatch, reply_to(turn, "1"))
    assert stopped.value.code == 75
