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
