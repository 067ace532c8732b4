"""Replies quoted the way clients really quote, each answering a real turn email of 150+
lines with the move BELOW the quote: The Bat! with the sender's initials (" PB> "),
Thunderbird's "| " variant, Outlook's "prefix each line" with its default and with prefixes
nobody can guess (recognised by the turn email's own text), and a Usenet-style name before
">"."""

import email
import re
from email.policy import default as default_policy

import pytest
from django.contrib.auth.models import User
from django.core import mail

from replies import inbound
from replies.models import InboundStatus
from replies.reading.quotes import own_text

from .conftest import send_all, start_match, to

pytestmark = pytest.mark.django_db


def the_bat(body: str, move: str) -> str:
    quoted = "\n".join(f" PB> {line}" if line else " PB>" for line in body.splitlines())
    return (
        "Hello Postal,\n\nThursday, December 3, 2026, 9:14:02 PM, you wrote:\n\n"
        f"{quoted}\n\n{move}\n\n-- \nBest regards,\n Anna                            "
        "mailto:anna@example.com\n"
    )


def thunderbird_pipe(body: str, move: str) -> str:
    quoted = "\n".join(f"| {line}" if line else "|" for line in body.splitlines())
    return f"On 03/12/2026 21:14, Postal Boards wrote:\n{quoted}\n\n{move}\n"


def outlook_prefixed(prefix: str):
    """Outlook, "Prefix each line of the original message" with `prefix`: the header block
    is prefixed too, and the player writes below it."""

    def build(body: str, move: str) -> str:
        original = (
            "-----Original Message-----\nFrom: Postal Boards <play@reply.example.org>\n"
            "Sent: Thursday, December 3, 2026 9:14 PM\nTo: Anna <anna@example.com>\n"
            "Subject: [Postal Boards] De Poorters van Nieuwstad #1\n\n" + body
        )
        quoted = "\n".join(f"{prefix}{line}" for line in original.splitlines())
        return f"{quoted}\n\n{move}\n\nAnna\n"

    return build


def usenet_name(body: str, move: str) -> str:
    quoted = "\n".join(f"Postal> {line}" for line in body.splitlines())
    return f"Postal Boards <play@reply.example.org> writes:\n\n{quoted}\n\n{move}\n"


LAYOUTS = {
    "the bat": the_bat,
    "thunderbird |": thunderbird_pipe,
    "outlook >": outlook_prefixed("> "),
    "outlook »": outlook_prefixed("» "),
    "outlook :": outlook_prefixed(": "),
    "outlook no prefix": outlook_prefixed(""),
    "usenet name>": usenet_name,
}


@pytest.fixture
def table(anna, ben):
    """A four-player Nieuwstad match after its first forest: the second player's turn
    email is 150+ lines long."""
    cor = User.objects.create_user("cor", "cor@example.org", "pw", first_name="Cor")
    dora = User.objects.create_user("dora", "dora@example.org", "pw", first_name="Dora")
    match = start_match(anna, ben, cor, dora, game_slug="nieuwstad")
    return match, {u.pk: u for u in (anna, ben, cor, dora)}


def turn_of(match) -> tuple[User, object]:
    """Who is asked now, and the newest email to them."""
    send_all()
    match.refresh_from_db()
    seat = match.seats.select_related("user").get(number=match.to_act[0])
    return seat.user, to(mail.outbox, seat.user.email)[-1]


def example_of(body: str) -> str:
    return re.search(r'for example "([^"]+)"', body).group(1)


def reply(message, text: str, sender: str) -> bytes:
    original = email.message_from_bytes(message.message().as_bytes(), policy=default_policy)
    answer = email.message.EmailMessage()
    answer["From"] = sender
    answer["To"] = message.reply_to[0]
    answer["Subject"] = "Re: " + message.subject
    answer["Message-ID"] = email.utils.make_msgid(domain="client.example")
    answer["In-Reply-To"] = original["Message-ID"]
    answer.set_content(text)
    return answer.as_bytes()


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_move_below_a_long_quote_is_played(table, layout):
    match, _ = table
    player, turn = turn_of(match)
    assert len(turn.body.splitlines()) >= 150
    move = example_of(turn.body)
    before = match.head_seq
    row = inbound.receive_raw(reply(turn, LAYOUTS[layout](turn.body, move), player.email))
    assert row.status == InboundStatus.DONE, row.outcome
    assert row.outcome == f"{move}: Applied: {move}.", row.outcome
    match.refresh_from_db()
    assert match.head_seq > before
    assert match.moves.filter(seq=before + 1, source="email").exists()


@pytest.mark.parametrize("layout", ["the bat", "thunderbird |", "usenet name>"])
def test_marked_quotes_need_no_original(table, layout):
    """Initials, a name or '|' before the quote are quote marks by themselves."""
    match, _ = table
    _, turn = turn_of(match)
    text = LAYOUTS[layout](turn.body, "take forest A1")
    assert [line for line in own_text(text) if line][-1] == "take forest A1"
    assert not any("Your choices" in line or "status" in line for line in own_text(text))


def test_an_unguessable_prefix_is_recognised_only_by_the_original(table):
    match, _ = table
    _, turn = turn_of(match)
    text = outlook_prefixed("» ")(turn.body, "take forest A1")
    assert any("Your choices" in line for line in own_text(text))  # without the original
    kept = own_text(text, lambda: turn.body)
    assert [line for line in kept if line] == ["take forest A1", "Anna"]


def test_a_players_own_lines_that_repeat_the_menu_are_kept(table):
    """A command copied from the menu is the player's, not a quote: short lines of the
    original never mark anything."""
    match, _ = table
    _, turn = turn_of(match)
    text = "take forest A1\nstatus\n\n" + the_bat(turn.body, "")
    assert [ln for ln in own_text(text, lambda: turn.body) if ln][:2] == [
        "take forest A1",
        "status",
    ]
