"""What a tournament's page reads: each match's result and the crosstable (who met whom,
and how each meeting ended), from the finished matches' results."""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _

from games.engine.contract import places
from games.models import Match, MatchStatus

from .models import Table, Tournament


def placings(match: Match) -> dict[int, tuple[int, int | None]]:
    """user id -> (place, score) in a finished match; {} while it is in play."""
    if match.status != MatchStatus.FINISHED or not match.result:
        return {}
    users = {s.number: s.user_id for s in match.seats.all()}
    scores = match.result.get("scores") or []
    return {
        users[seat]: (place, scores[seat] if seat < len(scores) else None)
        for place, seat, _ in places(match.result)
        if seat in users
    }


def result_line(match: Match, names: dict[int, str]) -> str:
    """'1. Alice (12), 2. Bram (9)': the places (and scores) of a finished match."""
    ranked = sorted(placings(match).items(), key=lambda item: item[1][0])
    return ", ".join(
        f"{place}. {names.get(user, '?')}" + (f" ({score})" if score is not None else "")
        for user, (place, score) in ranked
    )


def crosstable(t: Tournament, order: list[int]) -> list[dict]:
    """A row per player of `order` (the standings), a cell per player of `order`: each
    meeting of the two as 'round: W', 'L' or 'D' (the row's player ahead, behind, or
    sharing the place), by round."""
    met: dict[tuple[int, int], list[str]] = defaultdict(list)
    tables = (
        Table.objects.filter(round__tournament=t)
        .select_related("round", "match")
        .prefetch_related("match__seats")
        .order_by("round__number")
    )
    for table in tables:
        placed = placings(table.match)
        for a, (place_a, _score) in placed.items():
            for b, (place_b, _score) in placed.items():
                if a != b:
                    mark = _("W") if place_a < place_b else _("L") if place_a > place_b else _("D")
                    met[a, b].append(f"{table.round.number}: {mark}")
    return [
        {"player": a, "cells": [", ".join(met[a, b]) if a != b else "—" for b in order]}
        for a in order
    ]
