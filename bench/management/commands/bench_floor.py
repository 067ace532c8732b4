"""The email path's floor: a `manage.py` process, started as an MTA starts `receive_email`,
that reads the message on standard input and does a move's essential work (bench.floors)."""

import sys

from django.core.management.base import BaseCommand

from bench.floors import floor_move
from replies.management.commands.receive_email import Command as ReceiveEmail


class Command(BaseCommand):
    help = "Read a message on stdin, lock a match row and insert one row (a benchmark floor)."
    # Django's system checks before handling, or not, as `receive_email` is started.
    requires_system_checks = ReceiveEmail.requires_system_checks

    def add_arguments(self, parser):
        parser.add_argument("--match", type=int, required=True)

    def handle(self, *args, match: int, **options):
        raw = sys.stdin.buffer.read()
        floor_move(match, {"bytes": len(raw)})
        self.stdout.write(f"done: floor {match}")
