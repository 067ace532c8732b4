"""`manage.py verify_log`'s runs: which matches a run checks, checking a chunk of them (in a
worker process, games.parallel), and the record a `--since` run goes on from.

A `--since` run checks the matches with log entries or snapshots written since the last run
began, and the matches that run found broken. It cannot see a row changed in place under an
old match (the log's triggers refuse that, but an owner of the database can): a run over
every match is what finds those, and is worth running now and then.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Max

from games.models import LogCheck, Match, MatchStatus, Move, Snapshot
from games.selectors import verify_match

# A move written this long before a run began is surely committed: the watermark a `--since`
# run goes on from leaves out what may still have been in flight.
SETTLE = timedelta(minutes=1)


def begin(*, whole: bool, now: datetime) -> LogCheck:
    """A run beginning now, with where the log stands (not saved until it ends)."""
    settled = (
        Move.objects.filter(created_at__lt=now - SETTLE)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    snapshots = Snapshot.objects.aggregate(upto=Max("pk"))["upto"]
    return LogCheck(
        started_at=now, whole=whole, moves_upto=settled or 0, snapshots_upto=snapshots or 0
    )


def last_run() -> LogCheck | None:
    return LogCheck.objects.filter(finished_at__isnull=False).order_by("-pk").first()


def started_matches() -> list[int]:
    return list(
        Match.objects.exclude(status=MatchStatus.OPEN).order_by("pk").values_list("pk", flat=True)
    )


def changed_since(run: LogCheck) -> list[int]:
    """The matches with moves or snapshots written since `run` began, and those it found
    broken: read through the primary keys from the run's watermarks on."""
    changed = set(run.failed)
    changed.update(Move.objects.filter(pk__gt=run.moves_upto).values_list("match_id", flat=True))
    changed.update(
        Snapshot.objects.filter(pk__gt=run.snapshots_upto).values_list("match_id", flat=True)
    )
    return sorted(changed)


def verify_chunk(ids: list[int]) -> list[tuple[int, bool, int, str]]:
    """(match, ok, moves replayed, what was found) for each of these matches."""
    checked = []
    for match in Match.objects.filter(pk__in=ids).order_by("pk"):
        report = verify_match(match)
        checked.append((match.pk, report.ok, report.checked, report.message))
    return checked
