"""A small world for the notification tests: two players in a Sealed Cards match."""

from __future__ import annotations

import email
import re
from email.policy import default as default_policy
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core import mail

from games import services
from notifications import outbox

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _site(settings, tmp_path):
    settings.REPLY_DOMAIN = "reply.example.org"
    settings.SITE_URL = "https://boards.example.org"
    settings.DEFAULT_FROM_EMAIL = "Postal Boards <play@reply.example.org>"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.LOCAL_MAILBOX_DIR = tmp_path / "mailbox"
    settings.CELERY_BROKER_URL = "memory://"


@pytest.fixture
def anna(db):
    return User.objects.create_user("anna", "anna@example.com", "pw", first_name="Anna")


@pytest.fixture
def ben(db):
    return User.objects.create_user("ben", "ben@example.net", "pw", first_name="Ben")


def start_match(creator, *others, bots: int = 0, **options):
    match = services.create_match(
        creator=creator,
        game_slug=options.pop("game_slug", "sealed-cards"),
        players=1 + len(others) + bots,
        bots=bots,
        invite_emails=[o.email for o in others],
        **options,
    )
    for other in others:
        services.join_match(match_id=match.pk, user=other)
    match.refresh_from_db()
    return match


@pytest.fixture
def match(anna, ben):
    return start_match(anna, ben)


def send_all() -> list:
    """Deliver every due row in this process; return the messages sent by this call."""
    before = len(mail.outbox)
    outbox.send_due()
    return mail.outbox[before:]


def seat_of(match, user) -> int:
    return match.seats.get(user=user).number


def to(messages, address: str) -> list:
    return [m for m in messages if any(address in a for a in m.to)]


def as_raw(message) -> bytes:
    return message.message().as_bytes()


def reply_to(
    message,
    body: str,
    *,
    sender: str | None = None,
    message_id: str | None = None,
    extra_headers: dict | None = None,
) -> bytes:
    """A plain reply to one of our messages, as a simple mail client writes it."""
    original = email.message_from_bytes(as_raw(message), policy=default_policy)
    reply = email.message.EmailMessage()
    reply["From"] = sender or message.to[0]
    reply["To"] = message.reply_to[0]
    reply["Subject"] = "Re: " + message.subject
    reply["Message-ID"] = message_id or email.utils.make_msgid(domain="client.example")
    reply["In-Reply-To"] = original["Message-ID"]
    for name, value in (extra_headers or {}).items():
        reply[name] = value
    quoted = "\n".join("> " + line for line in message.body.splitlines())
    reply.set_content(f"{body}\n\nOn Mon, 3 Jun 2024 at 10:00, Postal Boards wrote:\n{quoted}\n")
    return reply.as_bytes()


def fixture_mail(name: str, *, reply_address: str, sender: str) -> bytes:
    text = (FIXTURES / name).read_bytes().decode()
    return text.replace("REPLY_ADDRESS", reply_address).replace("SENDER", sender).encode()


def turn_email(match, user) -> object:
    """The latest turn email (or answer showing a turn) sent to `user` in `match`."""
    send_all()
    for message in reversed(mail.outbox):
        if user.email in message.to and re.search(rf"#{match.pk}\b", message.subject):
            return message
    raise AssertionError("no email to " + user.email)


def headline(message) -> str:
    """What a message says, in its first line (the subject is the match's, for threading)."""
    return message.body.splitlines()[0]
