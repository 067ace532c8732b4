"""Numbers in mail commands, written in any script or none (issue 43, items 4 and 6): a
reply whose command names a tournament, a match or a menu entry with "²", "٣", fullwidth
digits, control characters or a right-to-left mark is answered, changes nothing it should
not, and never ends in an error. Drawn by hypothesis over Unicode's categories, through the
real reply path (receive_raw), on SQLite and again on PostgreSQL in CI."""

from __future__ import annotations

import pytest
from django.core import mail
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replies import inbound
from replies.models import InboundMessage, InboundStatus
from tests.notifications.conftest import (
    _site,  # noqa: F401 (the mail's settings)
    reply_to,
    send_all,
    start_match,
    turn_email,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(db):
    from django.contrib.auth.models import User

    return [
        User.objects.create_user(name, f"{name}@example.com", "pw", first_name=name.title())
        for name in ("anna", "ben")
    ]

# What people and their keyboards put where a number goes.
NUMBERS = st.one_of(
    st.sampled_from(["²", "①", "٣", "١٢", "７", "\u200f7", "7\u200e", "#²", "½", "9" * 400, "0"]),
    st.text(
        st.characters(
            categories=["Nd", "No", "Nl", "Cf", "Zs", "Po", "Sm", "Lo"],
            exclude_characters="\x00\r\n",
        ),
        min_size=1,
        max_size=12,
    ),
)
COMMANDS = st.sampled_from(
    ["tournament join {}", "takeover {}", "{}", "play {}", "substitute {}", "expel {}"]
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(command=COMMANDS, number=NUMBERS)
def test_every_mail_command_with_a_strange_number_is_answered(players, command, number):
    anna, ben = players
    match = start_match(anna, ben)
    turn = turn_email(match, anna)
    before = len(mail.outbox)
    head = match.head_seq
    inbound.receive_raw(reply_to(turn, command.format(number)))
    message = InboundMessage.objects.order_by("-pk").first()
    assert message.status in (InboundStatus.DONE, InboundStatus.REJECTED), message.status
    send_all()
    answers = [m for m in mail.outbox[before:] if anna.email in m.to]
    match.refresh_from_db()
    if match.head_seq == head:  # nothing played: the player is told why at once
        assert answers, (command.format(number), message.status, message.error)
    assert "Traceback" not in "".join(m.body for m in answers)


@pytest.mark.parametrize("written", ["²", "①", "9" * 5000, "\u200f"])
def test_tournament_join_and_takeover_with_no_number_say_what_to_write(players, written):
    anna, ben = players
    match = start_match(anna, ben)
    turn = turn_email(match, anna)
    inbound.receive_raw(reply_to(turn, f"tournament join {written}\ntakeover {written}"))
    send_all()
    answer = next(m for m in reversed(mail.outbox) if anna.email in m.to)
    assert "tournament join N" in answer.body  # how to write it
    assert "offered to a substitute" in answer.body  # no such seat: the lobby lists them
