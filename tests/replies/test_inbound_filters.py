"""What is dropped or refused before any command is read."""

import pytest

from notifications.models import Kind, Notification
from replies import inbound
from replies.models import InboundStatus

from .conftest import fixture_mail, reply_to, seat_of, turn_email

pytestmark = pytest.mark.django_db


def test_auto_replies_are_dropped_silently(match, anna):
    turn = turn_email(match, anna)
    raw = fixture_mail("auto_reply.eml", reply_address=turn.reply_to[0], sender=anna.email)
    row = inbound.receive_raw(raw)
    assert row.status == InboundStatus.DROPPED and "Auto-Submitted" in row.outcome
    assert not Notification.objects.filter(kind=Kind.ANSWER).exists()
    assert match.moves.count() == 0


@pytest.mark.parametrize("strip_header", [False, True])
def test_bounces_are_dropped(match, anna, strip_header):
    turn = turn_email(match, anna)
    raw = fixture_mail("bounce.eml", reply_address=turn.reply_to[0], sender=anna.email)
    if strip_header:  # an MTA that does not mark its reports: the report type says it
        raw = raw.replace(b"Auto-Submitted: auto-replied\r\n", b"")
    row = inbound.receive_raw(raw, sender="")
    assert row.status == InboundStatus.DROPPED


@pytest.mark.parametrize("header", [("Precedence", "bulk"), ("List-Id", "<games.lists.example>")])
def test_mailing_list_traffic_is_dropped(match, anna, header):
    turn = turn_email(match, anna)
    raw = reply_to(turn, "1", extra_headers=dict([header]))
    assert inbound.receive_raw(raw).status == InboundStatus.DROPPED


def test_a_sender_who_is_not_the_seats_player_changes_nothing(match, anna, ben):
    turn = turn_email(match, anna)
    raw = reply_to(turn, "1", sender="mallory@evil.example")
    row = inbound.receive_raw(raw)
    assert row.status == InboundStatus.REJECTED and "mallory@evil.example" in row.outcome
    assert match.moves.count() == 0
    answer = Notification.objects.get(kind=Kind.ANSWER)
    assert answer.address == anna.email  # never the claimed sender
    # Ben replying to Anna's email is refused as well.
    assert inbound.receive_raw(reply_to(turn, "1", sender=ben.email)).status == "rejected"


def test_a_forged_token_changes_nothing(match, anna):
    turn = turn_email(match, anna)
    forged = turn.reply_to[0].replace("-s", "-sz", 1)
    raw = reply_to(turn, "1").replace(turn.reply_to[0].encode(), forged.encode())
    row = inbound.receive_raw(raw)
    assert row.status == InboundStatus.REJECTED
    assert match.moves.count() == 0
    # Anna is registered: she is told (at her own address) that the match was not found.
    assert Notification.objects.get(kind=Kind.ANSWER).address == anna.email


def test_the_envelope_recipient_wins_over_headers(match, anna, ben):
    turn = turn_email(match, anna)
    raw = reply_to(turn, "1")
    row = inbound.receive_raw(raw, recipient=turn.reply_to[0])
    assert row.status == InboundStatus.DONE
    assert match.moves.get().seat == seat_of(match, anna)
