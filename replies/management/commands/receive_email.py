"""Read one RFC 822 message on standard input and handle it as a reply (an MTA pipe).

Postfix: in master.cf
    pbm unix - n n - - pipe flags=Rq user=pbm argv=/srv/pbm/.venv/bin/python
        /srv/pbm/manage.py receive_email --recipient ${original_recipient} --sender ${sender}

Exit statuses (sysexits.h), which is what they mean to the MTA:
  0   the message was recorded: played, answered, refused or dropped, each with its reason
      on the row. Nothing bounces, so no robot and no forger gets mail back from here.
  65  EX_DATAERR: not a mail message at all (empty, or no header section): the MTA bounces
      it once; no retry can make it readable.
  70  EX_SOFTWARE: a fault of ours while recording (logged); permanent, so it bounces.
  75  EX_TEMPFAIL: the database cannot be reached; the MTA keeps the message and retries.
"""

from __future__ import annotations

import logging
import os
import re
import sys

from django.core.management.base import BaseCommand
from django.utils import timezone

from replies import inbound
from replies.tasks import STUCK_AFTER

EX_DATAERR = 65
EX_SOFTWARE = 70
EX_TEMPFAIL = 75

log = logging.getLogger(__name__)
# The first line of a message is a header field ("Name: value") or an mbox "From " line.
_FIRST_LINE = re.compile(rb"^(From |[!-9;-~]+[ \t]*:)")


def is_mail(raw: bytes) -> bool:
    return bool(raw.strip()) and bool(_FIRST_LINE.match(raw.lstrip(b"\r\n")))


class Command(BaseCommand):
    help = "Handle one email (RFC 822 on standard input) as a reply from a player."

    def add_arguments(self, parser):
        parser.add_argument(
            "--recipient",
            default=os.environ.get("ORIGINAL_RECIPIENT", ""),
            help="The envelope recipient (carries the reply token).",
        )
        parser.add_argument(
            "--sender",
            default=os.environ.get("SENDER"),
            help="The envelope sender ('' for a bounce).",
        )
        parser.add_argument(
            "--unhandled",
            action="store_true",
            help="Read nothing: handle the replies recorded but left unhandled (a worker lost"
            " them), as the beat's sweep does; for cron where no beat runs.",
        )

    def handle(self, *args, recipient: str, sender: str | None, unhandled: bool, **options):
        if unhandled:
            taken_up = inbound.reprocess_stuck(timezone.now() - STUCK_AFTER)
            self.stdout.write(f"unhandled replies taken up: {taken_up}")
            return
        raw = sys.stdin.buffer.read()
        if not is_mail(raw):
            self.stderr.write("Not a mail message: empty, or no header section.")
            sys.exit(EX_DATAERR)
        if raw.startswith(b"From "):  # an mbox envelope line, as some MTAs prepend
            raw = raw.split(b"\n", 1)[1] if b"\n" in raw else b""
        try:
            row = inbound.receive_raw(raw, recipient=recipient, sender=sender)
        except inbound.DATABASE_DOWN as error:
            self.stderr.write(f"Database unavailable, try again later: {error}")
            sys.exit(EX_TEMPFAIL)
        except Exception as error:
            log.exception("receive_email: the message could not be recorded")
            self.stderr.write(f"Could not record the message: {type(error).__name__}")
            sys.exit(EX_SOFTWARE)
        self.stdout.write(f"{row.status}: {row.outcome}")
