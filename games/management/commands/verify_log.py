"""Replay match logs and check every stored digest."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.models import Match
from games.selectors import verify_match


class Command(BaseCommand):
    help = "Replay each match's log from its setup and compare every stored digest."

    def add_arguments(self, parser):
        parser.add_argument("--match", type=int, default=None, help="one match id (default: all)")

    def handle(self, *args, match, **options):
        matches = Match.objects.exclude(status="open").order_by("pk")
        if match is not None:
            matches = matches.filter(pk=match)
            if not matches.exists():
                raise CommandError(f"no started match {match}")
        bad = 0
        for row in matches.iterator():
            report = verify_match(row)
            verdict = "ok" if report.ok else "FAILED"
            self.stdout.write(f"match {row.pk}: {verdict}: {report.message}")
            bad += not report.ok
        if bad:
            raise CommandError(f"{bad} match(es) failed verification")
