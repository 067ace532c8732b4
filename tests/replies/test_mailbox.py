"""The local mailbox: sent mail kept as files, shown in DEBUG, replies fed back in."""

import pytest
from django.test import override_settings

from notifications import outbox
from notifications.mailbox import list_mail

from .conftest import start_match

pytestmark = pytest.mark.django_db

BACKEND = "notifications.mailbox.LocalMailboxBackend"


@override_settings(EMAIL_BACKEND=BACKEND, DEBUG=True, LOCAL_MAILBOX_OPEN=True)
def test_a_newcomer_plays_by_email_on_one_machine(client, anna):
    match = start_match(anna, bots=1)
    outbox.send_due()
    mails = list_mail(to=anna.email)
    # One mail: the first decision, the start told in it.
    assert [m.first_line.split(":")[0] for m in mails] == ["Your turn"]
    page = client.get("/n/mailbox/")
    assert page.status_code == 200 and b"Your turn" in page.content
    (turn,) = mails
    shown = client.get(f"/n/mailbox/{turn.name}/")
    assert b"Trick 1 of 3" in shown.content
    response = client.post(f"/n/mailbox/{turn.name}/", {"body": "1"})
    assert response.status_code == 302
    assert match.moves.filter(source="email").count() == 1
    outbox.send_due()
    assert list_mail(to=anna.email)[0].first_line.startswith("Applied")


@override_settings(DEBUG=False)
def test_the_mailbox_exists_only_in_debug(client):
    assert client.get("/n/mailbox/").status_code == 404
