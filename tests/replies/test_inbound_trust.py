"""Sender trust: our MX's Authentication-Results are honoured, notices about mail we refuse
go only to registered addresses, and only a few an hour to each."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from notifications.models import Kind, Notification
from replies import inbound
from replies.models import InboundStatus

from .conftest import reply_to, turn_email

pytestmark = pytest.mark.django_db
OUR_MX = "mx.reply.example.org"


def with_results(raw: bytes, *results: str) -> bytes:
    """Authentication-Results headers on top, as the MXs on the way add them."""
    headers = b"".join(f"Authentication-Results: {r}\r\n".encode() for r in results)
    return headers + raw


@pytest.mark.parametrize(
    "result", ["dmarc=fail (p=reject) header.from=example.com", "spf=fail smtp.mailfrom=x"]
)
def test_dmarc_or_spf_fail_recorded_by_our_mx_is_refused(settings, match, anna, result):
    settings.INBOUND_AUTHSERV_ID = OUR_MX
    turn = turn_email(match, anna)
    raw = with_results(reply_to(turn, "1"), f"{OUR_MX}; dkim=none; {result}")
    row = inbound.receive_raw(raw, recipient=turn.reply_to[0], sender=anna.email)
    assert row.status == InboundStatus.REJECTED and row.outcome.startswith("forged")
    assert match.moves.count() == 0
    notice = Notification.objects.get(kind=Kind.ANSWER)
    assert notice.address == anna.email  # the registered address, never the claimed sender
    assert "could not be verified" in notice.context["summary"]


def test_a_fail_written_by_someone_else_is_not_read(settings, match, anna):
    settings.INBOUND_AUTHSERV_ID = OUR_MX
    turn = turn_email(match, anna)
    raw = with_results(
        reply_to(turn, "1"),
        f"{OUR_MX}; spf=pass; dkim=pass; dmarc=pass",
        "evil.example; dmarc=fail",
    )
    assert inbound.receive_raw(raw, recipient=turn.reply_to[0]).status == InboundStatus.DONE
    assert match.moves.count() == 1


def test_without_an_authserv_id_no_header_is_trusted(settings, match, anna):
    settings.INBOUND_AUTHSERV_ID = ""
    turn = turn_email(match, anna)
    raw = with_results(reply_to(turn, "1"), f"{OUR_MX}; dmarc=fail")
    assert inbound.receive_raw(raw, recipient=turn.reply_to[0]).status == InboundStatus.DONE


def test_a_forged_message_without_a_token_is_dropped_unanswered(settings, match, anna):
    settings.INBOUND_AUTHSERV_ID = OUR_MX
    turn = turn_email(match, anna)
    raw = with_results(reply_to(turn, "1"), f"{OUR_MX}; dmarc=fail")
    raw = raw.replace(turn.reply_to[0].encode(), b"play+garbage@reply.example.org")
    row = inbound.receive_raw(raw, recipient="play+garbage@reply.example.org")
    assert row.status == InboundStatus.DROPPED and "forged" in row.outcome
    assert not Notification.objects.filter(kind=Kind.ANSWER).exists()


def forged(turn, n: int, sender: str) -> bytes:
    raw = reply_to(turn, "1", sender=sender, message_id=f"<forged.{n}@evil.example>")
    return raw.replace(turn.reply_to[0].encode(), b"play+garbage@reply.example.org")


def test_backscatter_is_throttled_per_registered_person(settings, match, anna):
    settings.INBOUND_NOTICES_PER_HOUR = 3
    turn = turn_email(match, anna)
    for n in range(10):
        row = inbound.receive_raw(forged(turn, n, anna.email))
        assert row.status == InboundStatus.REJECTED
    assert Notification.objects.filter(kind=Kind.ANSWER, address=anna.email).count() == 3
    # Nobody who is not registered is ever written to.
    for n in range(10, 15):
        inbound.receive_raw(forged(turn, n, "victim@elsewhere.example"))
    assert not Notification.objects.exclude(address=anna.email).filter(kind=Kind.ANSWER).exists()


def test_wrong_sender_notices_are_throttled_too(settings, match, anna):
    settings.INBOUND_NOTICES_PER_HOUR = 2
    turn = turn_email(match, anna)
    for n in range(6):
        raw = reply_to(turn, "1", sender="mallory@evil.example", message_id=f"<m.{n}@evil.example>")
        assert inbound.receive_raw(raw).status == InboundStatus.REJECTED
    assert Notification.objects.filter(kind=Kind.ANSWER, address=anna.email).count() == 2
    assert match.moves.count() == 0


def test_the_count_is_the_databases(settings, match, anna):
    """Notices written by any process count: the limit reads the outbox rows."""
    settings.INBOUND_NOTICES_PER_HOUR = 1
    assert inbound.may_send_notice(anna) is True
    turn = turn_email(match, anna)
    inbound.receive_raw(forged(turn, 1, anna.email))
    assert inbound.may_send_notice(anna) is False
    Notification.objects.filter(address=anna.email, context__notice=True).update(
        created_at=timezone.now() - timedelta(minutes=61)
    )
    assert inbound.may_send_notice(anna) is True  # a rolling hour


def test_a_message_with_two_from_headers_is_not_applied(match, anna):
    from replies import inbound

    from .conftest import reply_to, turn_email

    raw = reply_to(turn_email(match, anna), "1")
    # Anna's own From first (what a naive reader takes), a second one after it.
    raw = raw.replace(b"\nTo: ", b"\nFrom: mallory@evil.example\nTo: ", 1)
    row = inbound.receive_raw(raw)
    assert match.moves.count() == 0
    assert row.status == "rejected" and "more than one From" in row.outcome
