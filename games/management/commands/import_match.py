"""Recreate finished matches from JSON exports (the admin's "Export as JSON")."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.services import ServiceError, import_match


class Command(BaseCommand):
    help = (
        "Import finished matches from export files (one match, or a list of them); each log "
        "must replay to the same digests, takebacks included."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)

    def handle(self, *args, files: list[Path], **options):
        for path in files:
            try:
                exported = json.loads(path.read_text())
            except (OSError, ValueError) as error:
                raise CommandError(f"{path}: {error}") from None
            for data in exported if isinstance(exported, list) else [exported]:
                try:
                    match = import_match(data=data)
                except ServiceError as error:
                    raise CommandError(f"{path}: {error.message}") from None
                self.stdout.write(f"{path}: match {match.pk}, {match.head_seq} entries replayed")
