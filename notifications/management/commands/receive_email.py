"""Read one RFC 822 message on standard input and handle it as a reply (an MTA pipe).

Postfix: in master.cf
    pbm unix - n n - - pipe flags=Rq user=pbm argv=/srv/pbm/.venv/bin/python
        /srv/pbm/manage.py receive_email --recipient ${original_recipient} --sender ${sender}
Exit status 75 (EX_TEMPFAIL) asks the MTA to try again later; every other outcome, including
a message that is dropped or refused, is 0 so that nothing bounces back to a player.
"""

from __future__ import annotations

import os
import sys

from django.core.management.base import BaseCommand

from notifications import inbound

EX_TEMPFAIL = 75


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

    def handle(self, *args, recipient: str, sender: str | None, **options):
        raw = sys.stdin.buffer.read()
        if not raw.strip():
            self.stderr.write("No message on standard input.")
            return
        try:
            row = inbound.receive_raw(raw, recipient=recipient, sender=sender)
        except Exception as error:  # database down and the like: let the MTA retry
            self.stderr.write(f"Could not handle the message now: {error}")
            sys.exit(EX_TEMPFAIL)
        self.stdout.write(f"{row.status}: {row.outcome}")
