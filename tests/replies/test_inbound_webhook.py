"""Inbound mail through anymail's webhook (Postmark's shape here): the secret is required."""

import base64
import json

import pytest
from django.test import override_settings

from replies.models import InboundMessage, InboundStatus

from .conftest import reply_to, turn_email

pytestmark = pytest.mark.django_db

SECRET = "hook-user:hook-password"
URL = "/anymail/postmark/inbound/"


def payload(raw: bytes, recipient: str) -> str:
    return json.dumps(
        {
            "RawEmail": raw.decode(),
            "OriginalRecipient": recipient,
            "Headers": [],
            "MessageID": "abc",
        }
    )


def auth(secret: str) -> dict:
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(secret.encode()).decode()}


@override_settings(ANYMAIL={"WEBHOOK_SECRET": SECRET})
def test_a_post_with_the_secret_is_recorded_and_played(
    client, match, anna, django_capture_on_commit_callbacks
):
    turn = turn_email(match, anna)
    body = payload(reply_to(turn, "1"), turn.reply_to[0])
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(URL, body, content_type="application/json", **auth(SECRET))
    assert response.status_code == 200
    row = InboundMessage.objects.get()
    assert row.status == InboundStatus.RECEIVED and row.recipient == turn.reply_to[0]
    assert len(callbacks) == 1  # the handling is enqueued after commit, not done inline
    from replies import inbound

    inbound.handle(row.pk)
    assert match.moves.count() == 1
    # The ESP retries: the same message again records nothing new.
    client.post(URL, body, content_type="application/json", **auth(SECRET))
    assert InboundMessage.objects.count() == 1 and match.moves.count() == 1


@override_settings(ANYMAIL={"WEBHOOK_SECRET": SECRET})
@pytest.mark.parametrize("secret", [None, "hook-user:wrong"])
def test_a_post_without_the_secret_is_refused(client, match, anna, secret):
    turn = turn_email(match, anna)
    body = payload(reply_to(turn, "1"), turn.reply_to[0])
    headers = auth(secret) if secret else {}
    response = client.post(URL, body, content_type="application/json", **headers)
    assert response.status_code in (400, 403)
    assert not InboundMessage.objects.exists()


@override_settings(ANYMAIL={})
def test_with_no_secret_configured_nothing_is_acted_on(client, match, anna):
    turn = turn_email(match, anna)
    with pytest.warns(Warning):
        client.post(
            URL, payload(reply_to(turn, "1"), turn.reply_to[0]), content_type="application/json"
        )
    assert not InboundMessage.objects.exists()
