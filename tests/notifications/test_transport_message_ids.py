"""The provider's message id is stored as text, whatever type the email backend reports."""

import pytest

from notifications.models import Kind, Notification, Status
from notifications.transports import provider_id

from .conftest import send_all

pytestmark = pytest.mark.django_db

ANYMAIL_TEST_BACKEND = "anymail.backends.test.EmailBackend"


def test_anymail_test_backend_numeric_message_id_is_stored(match, settings):
    # anymail's test backend reports the message's index in mail.outbox: an int.
    settings.EMAIL_BACKEND = ANYMAIL_TEST_BACKEND
    settings.ANYMAIL = {"TEST_SEND_DEFAULTS": {}}
    sent = send_all()
    assert sent
    rows = Notification.objects.filter(kind=Kind.TURN, channel="email")
    assert {r.status for r in rows} == {Status.SENT}
    assert all(r.provider_message_id.isdigit() for r in rows)


@pytest.mark.parametrize(
    ("reported", "stored"),
    [("abc-1", "abc-1"), (7, "7"), (0, "0"), ({"b", "a"}, "a,b"), ({2, 1}, "1,2")],
)
def test_provider_id_as_text(reported, stored):
    assert provider_id(reported) == stored


def test_message_ids_are_unique_across_rebuilt_databases(match, anna):
    """Row ids repeat when a database is rebuilt (or on another installation); the
    Message-ID does not: it is random, stored with the row, and kept when a row is sent
    again."""
    from django.core import mail

    from notifications import outbox

    row = Notification.objects.get(kind=Kind.TURN, user=anna, channel="email")
    assert outbox.deliver(row.pk) == "sent"
    first_id = mail.outbox[-1].extra_headers["Message-ID"]
    fields = {
        f.name: getattr(row, f.name)
        for f in Notification._meta.fields
        if f.name not in ("id", "message_id", "status", "attempts", "sent_at")
    }
    fields["provider_message_id"] = ""
    Notification.objects.filter(pk=row.pk).delete()
    again = Notification.objects.create(pk=row.pk, **fields)  # same id, "rebuilt"
    assert outbox.deliver(again.pk) == "sent"
    second_id = mail.outbox[-1].extra_headers["Message-ID"]
    assert first_id != second_id
    assert first_id.endswith("@reply.example.org>") and len(first_id) > 30


def test_message_ids_of_a_match_are_all_different(match):
    from .conftest import send_all

    sent = send_all()
    ids = [m.extra_headers["Message-ID"] for m in sent]
    assert len(ids) == len(set(ids)) > 1
