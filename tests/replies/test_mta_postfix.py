"""End to end through a real MTA, as a self-hosting operator runs it (docs/notifications.md,
"Running your own MTA"): Debian's Postfix on loopback, configured by deploy/postfix/setup.sh,
pipes replies to `manage.py receive_email` as the project's user, and the server's own mail
goes out over SMTP through it to a local mailbox.

Marked `mta`: .ci/run installs and configures Postfix, then runs these on PostgreSQL (the pipe
is another process, so it needs a database server, and the test data must be committed).
Without Postfix listening they fail; they never skip.
"""

from __future__ import annotations

import email
import json
import os
import shlex
import smtplib
import socket
import subprocess
import time
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection

from games.models import Move, MoveSource
from replies.models import InboundMessage, InboundStatus

from .conftest import send_all, start_match

pytestmark = [pytest.mark.mta, pytest.mark.django_db(transaction=True)]

SMTP_HOST = "127.0.0.1"
SMTP_PORT = int(os.environ.get("PBM_MTA_SMTP_PORT", "2525"))
REPLY_DOMAIN = os.environ.get("PBM_MTA_REPLY_DOMAIN", "reply.pbm.test")
PLAYER_DOMAIN = os.environ.get("PBM_MTA_PLAYER_DOMAIN", "players.test")
ENV_FILE = Path(os.environ.get("PBM_MTA_ENV_FILE", "/etc/pbm/pbm.env"))
MAILBOX = Path(os.environ.get("PBM_MTA_MAILBOX", f"/var/mail/pbm-test/{PLAYER_DOMAIN}"))
MAILLOG = Path(os.environ.get("PBM_MTA_MAILLOG", "/var/log/postfix-pbm.log"))
CLOSED_PORT = 5999  # nothing listens here: the database "outage"
WAIT = 120  # seconds; the pipe starts a Django process for each message


def wait_for(what: str, check, timeout: float = WAIT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.5)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def database_url(port: int | None = None) -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return (
        f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{port or db['PORT'] or 5432}/{db['NAME']}"
    )


def write_env(settings, *, db_port: int | None = None, db_url: str = "") -> None:
    """The pipe's environment: the variables the web and worker processes have."""
    values = {
        "DATABASE_URL": db_url or database_url(db_port),
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,
        "REPLY_DOMAIN": REPLY_DOMAIN,
        "SITE_URL": settings.SITE_URL,
        "DEFAULT_FROM_EMAIL": settings.DEFAULT_FROM_EMAIL,
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": SMTP_HOST,
        "EMAIL_PORT": str(SMTP_PORT),
        "CELERY_BROKER_URL": "memory://",
    }
    ENV_FILE.write_text("".join(f"{k}={shlex.quote(v)}\n" for k, v in values.items()))


def postfix(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def queue() -> list[dict]:
    return [json.loads(line) for line in postfix("postqueue", "-j").splitlines() if line]


def mailbox() -> list[email.message.EmailMessage]:
    messages = []
    for folder in ("new", "cur"):
        for path in sorted((MAILBOX / folder).glob("*")) if (MAILBOX / folder).exists() else []:
            messages.append(email.message_from_bytes(path.read_bytes(), policy=default_policy))
    return messages


def clear_mailbox() -> None:
    for folder in ("new", "cur"):
        for path in (MAILBOX / folder).glob("*") if (MAILBOX / folder).exists() else []:
            path.unlink()


def log_lines(queue_id: str) -> list[str]:
    return [line for line in MAILLOG.read_text().splitlines() if f" {queue_id}: " in line]


@pytest.fixture
def mta(settings):
    try:
        socket.create_connection((SMTP_HOST, SMTP_PORT), timeout=5).close()
    except OSError as error:
        pytest.fail(
            f"Postfix does not listen on {SMTP_HOST}:{SMTP_PORT} ({error}); "
            "run deploy/postfix/setup.sh (see .ci/run)"
        )
    assert connection.vendor == "postgresql", "the pipe is another process: use PostgreSQL"
    settings.REPLY_DOMAIN = REPLY_DOMAIN
    settings.DEFAULT_FROM_EMAIL = f"Postal Boards <play@{REPLY_DOMAIN}>"
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = SMTP_HOST
    settings.EMAIL_PORT = SMTP_PORT
    postfix("postsuper", "-d", "ALL")
    clear_mailbox()
    write_env(settings)
    yield
    write_env(settings)
    postfix("postsuper", "-d", "ALL")


def mail_to(address: str, *, after: int = 0) -> list[email.message.EmailMessage]:
    return [m for m in mailbox()[after:] if address in str(m["To"])]


def turn_mail(anna: User):
    """Start a Nieuwstad match against a bot; its turn email reaches Anna through Postfix.

    The start email has a reply address too, for the position the match began at: when the
    bot sits first and moves at once, answering that one is rightly refused as outdated. So
    this waits for the turn email itself, which can arrive a moment after the start email."""
    match = start_match(anna, bots=1, game_slug="nieuwstad")
    send_all()  # over SMTP, through Postfix, into the local mailbox
    mails = wait_for(
        "the turn email in the mailbox",
        lambda: [
            m
            for m in mail_to(anna.email)
            if "play+" in str(m["Reply-To"]) and "It is your turn" in plain_text(m)
        ],
    )
    return match, mails[-1]


def plain_text(message) -> str:
    body = message.get_body(("plain",))
    return body.get_content() if body is not None else ""


def reply(original, body: str) -> str:
    """Anna answers in her mail client; the client hands it to the MTA over SMTP."""
    message = EmailMessage()
    message["From"] = original["To"]
    message["To"] = original["Reply-To"]
    message["Subject"] = "Re: " + str(original["Subject"])
    message["In-Reply-To"] = original["Message-ID"]
    message["Message-ID"] = email.utils.make_msgid(domain=PLAYER_DOMAIN)
    quoted = "\n".join(
        "> " + line for line in original.get_body(("plain",)).get_content().splitlines()
    )
    message.set_content(f"{body}\n\nOn Monday, Postal Boards wrote:\n{quoted}\n")
    with smtplib.SMTP(SMTP_HOST, SMTP_PORT) as client:
        refused = client.send_message(message)
    assert not refused
    return message["Message-ID"]


def queue_id_of(message_id: str) -> str:
    """The Postfix queue id of a message, from the cleanup line that names its Message-ID."""
    line = wait_for(
        "Postfix to log the message",
        lambda: next(
            (
                line
                for line in MAILLOG.read_text().splitlines()
                if f"message-id={message_id}" in line
            ),
            None,
        ),
    )
    return line.split(": ")[1]


@pytest.fixture
def anna(db):
    return User.objects.create_user("anna", f"anna@{PLAYER_DOMAIN}", "pw", first_name="Anna")


def test_a_reply_is_piped_to_receive_email_and_the_move_applied(mta, anna):
    match, mail = turn_mail(anna)
    seat = match.seats.get(user=anna).number
    before = len(mailbox())
    message_id = reply(mail, "1")
    move = wait_for(
        "the move to be applied",
        lambda: Move.objects.filter(match=match, seat=seat, source=MoveSource.EMAIL).first(),
    )
    assert move is not None
    row = InboundMessage.objects.get(message_id__contains=message_id.strip("<>"))
    assert row.status == InboundStatus.DONE
    queue_id = queue_id_of(message_id)
    delivered = wait_for(
        "the pipe's delivery line",
        lambda: [line for line in log_lines(queue_id) if "relay=pbm" in line],
    )
    assert len(delivered) == 1 and "status=sent" in delivered[0], delivered
    # The server's answer goes out over SMTP through Postfix to Anna's mailbox.
    send_all()
    answers = wait_for("the answer in the mailbox", lambda: mail_to(anna.email, after=before))
    assert all(f"@{REPLY_DOMAIN}" in str(m["From"]) for m in answers)
    assert not queue()


def test_a_garbage_reply_is_answered_once_and_never_retried(mta, anna):
    match, mail = turn_mail(anna)
    head = match.moves.count()
    before = len(mailbox())
    message_id = reply(mail, "xyzzy plugh, what a strange board")
    row = wait_for(
        "the message to be recorded",
        lambda: (
            InboundMessage.objects.filter(message_id__contains=message_id.strip("<>"))
            .exclude(status=InboundStatus.RECEIVED)
            .first()
        ),
    )
    assert match.moves.count() == head, "nothing is applied"
    queue_id = queue_id_of(message_id)
    delivered = wait_for(
        "the pipe's delivery line",
        lambda: [line for line in log_lines(queue_id) if "relay=pbm" in line],
    )
    assert len(delivered) == 1 and "status=sent" in delivered[0], delivered
    send_all()
    answers = wait_for("one answer", lambda: mail_to(anna.email, after=before))
    time.sleep(2)  # anything sent twice would arrive now
    assert len(mail_to(anna.email, after=before)) == len(answers) == 1, row.outcome
    assert not [m for m in mailbox() if "MAILER-DAEMON" in str(m["From"])], "no bounce"
    assert not queue(), "nothing waits to be retried"


def test_a_database_outage_defers_the_reply_and_it_is_applied_later(mta, settings, anna):
    match, mail = turn_mail(anna)
    seat = match.seats.get(user=anna).number
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", CLOSED_PORT), timeout=2).close()
    write_env(settings, db_port=CLOSED_PORT)
    message_id = reply(mail, "1")
    queue_id = queue_id_of(message_id)
    deferred = wait_for(
        "the message to be deferred",
        lambda: [q for q in queue() if q["queue_id"] == queue_id and q["queue_name"] == "deferred"],
    )
    reason = deferred[0]["recipients"][0]["delay_reason"]
    assert "temporary failure" in reason, reason
    assert any("status=deferred" in line and "relay=pbm" in line for line in log_lines(queue_id))
    assert not any("status=bounced" in line for line in log_lines(queue_id))
    assert not [m for m in mailbox() if "MAILER-DAEMON" in str(m["From"])], "not bounced"
    assert not Move.objects.filter(match=match, seat=seat, source=MoveSource.EMAIL).exists()
    # The database is back: Postfix's next attempt (forced here) delivers it once.
    write_env(settings)
    postfix("postqueue", "-i", queue_id)
    wait_for(
        "the move to be applied after the outage",
        lambda: Move.objects.filter(match=match, seat=seat, source=MoveSource.EMAIL).exists(),
    )
    wait_for("the queue to empty", lambda: not queue())


def test_a_message_the_pipe_cannot_take_bounces_once_and_is_never_retried(mta, settings, anna):
    """Exit status 70 (a fault of ours) is permanent to Postfix: one bounce to the envelope
    sender, nothing left in the queue. The fault here: the pipe's database has no tables."""
    import psycopg

    db = connection.settings_dict
    empty = "pbm_mta_no_tables"
    with psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {empty}")
        admin.execute(f"CREATE DATABASE {empty}")
    match, mail = turn_mail(anna)
    head = match.moves.count()
    write_env(settings, db_url=database_url().rsplit("/", 1)[0] + f"/{empty}")
    message_id = reply(mail, "1")
    queue_id = queue_id_of(message_id)
    bounced = wait_for(
        "the pipe's bounce line",
        lambda: [line for line in log_lines(queue_id) if "status=bounced" in line],
    )
    assert len(bounced) == 1 and "relay=pbm" in bounced[0], bounced
    assert not any("status=deferred" in line for line in log_lines(queue_id)), "no retry"
    notices = wait_for(
        "the bounce in the sender's mailbox",
        lambda: [m for m in mail_to(anna.email) if "MAILER-DAEMON" in str(m["From"])],
    )
    time.sleep(2)  # a second bounce would arrive now
    assert len([m for m in mail_to(anna.email) if "MAILER-DAEMON" in str(m["From"])]) == 1
    assert notices[0].get_content_type() == "multipart/report"  # a DSN
    assert match.moves.count() == head
    assert not InboundMessage.objects.filter(message_id__contains=message_id.strip("<>")).exists()
    wait_for("the queue to empty", lambda: not queue())
