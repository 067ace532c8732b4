"""Real reply layouts: only the player's new lines are read as commands."""

import pytest

from games.selectors import load_state
from replies import inbound
from replies.models import InboundStatus
from replies.reading import decode
from replies.reading.quotes import own_text

from .conftest import fixture_mail, seat_of, turn_email

pytestmark = pytest.mark.django_db

CLIENTS = ["gmail.eml", "outlook.eml", "apple_mail.eml", "thunderbird.eml", "iphone.eml"]


@pytest.mark.parametrize("name", CLIENTS)
def test_only_the_new_text_is_kept(name):
    raw = fixture_mail(name, reply_address="play+x@reply.example.org", sender="anna@example.com")
    lines = [line for line in own_text(decode.body(decode.parse(raw)).text) if line]
    # The move, then at most a sign-off: nothing of the quoted turn email.
    assert lines[0] == "1"
    assert not any("play" in line or "Trick" in line or "wrote" in line for line in lines)


@pytest.mark.parametrize("name", CLIENTS)
def test_a_reply_from_each_client_plays_the_first_choice(name, match, anna):
    turn = turn_email(match, anna)
    seat = seat_of(match, anna)
    first_card = min(load_state(match)["hands"][seat])
    raw = fixture_mail(name, reply_address=turn.reply_to[0], sender=anna.email)
    row = inbound.receive_raw(raw)  # no envelope: the token is read from the headers
    assert row.status == InboundStatus.DONE, row.outcome
    last = match.moves.order_by("-seq").first()
    assert (last.seat, last.payload, last.source) == (
        seat,
        {"type": "play", "card": first_card},
        "email",
    )


def test_an_html_only_reply_is_read():
    raw = (
        b"From: anna@example.com\r\nTo: play+x@reply.example.org\r\n"
        b"Content-Type: text/html; charset=utf-8\r\n\r\n"
        b"<div>play 5<br></div><div class='gmail_quote'>On Mon wrote:<br>"
        b"<blockquote>Hello</blockquote></div>"
    )
    assert own_text(decode.body(decode.parse(raw)).text) == ["play 5"]
