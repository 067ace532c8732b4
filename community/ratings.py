"""Ratings per game with openskill's Weng-Lin Plackett-Luce model (see docs/community.md).

A match is rated when its creator chose so, it finished by play or resignation, and every
seat is held by a person: a match with a bot seat teaches nothing about the people in it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from openskill.models import PlackettLuce

from api.models import BotAccount
from community.models import Rating, RatingChange
from games.engine import places
from games.models import Match, MatchStatus, Seat

MODEL = PlackettLuce()


def places_of(result: dict[str, Any] | None, players: int) -> list[int]:
    """The place (1 = first) of each seat, from the rules contract's `places`: seats the
    rulebook cannot separate share a place. A seat missing from the ranking ranks last."""
    if not result:
        return []
    by_seat = [0] * players
    for place, seat, _shared in places(result):
        if 0 <= seat < players:
            by_seat[seat] = place
    return [p or players for p in by_seat]


def is_rateable(match: Match, seats: Iterable[Seat]) -> bool:
    seats = list(seats)
    return (
        match.rated
        and match.status == MatchStatus.FINISHED
        and bool(match.result)
        and len(seats) >= 2
        and all(seat.user_id for seat in seats)
        and len({seat.user_id for seat in seats}) == len(seats)
        and not BotAccount.objects.filter(user_id__in=[s.user_id for s in seats]).exists()
    )


def record_finished(match: Match, seats: Iterable[Seat]) -> list[RatingChange]:
    """Rate a match that has just finished. Called inside the transaction that finishes it,
    so a rating never exists without its result, nor a result without its rating."""
    seats = sorted(seats, key=lambda s: s.number)
    if not is_rateable(match, seats):
        return []
    places = places_of(match.result, len(seats))
    user_ids = [seat.user_id for seat in seats]
    current = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(
            game_slug=match.game_slug, user_id__in=user_ids
        )
    }
    before = [
        MODEL.rating(mu=current[u].mu, sigma=current[u].sigma) if u in current else MODEL.rating()
        for u in user_ids
    ]
    after = MODEL.rate([[r] for r in before], ranks=places)
    finished_at = match.finished_at
    changes = []
    for user_id, place, old, (new,) in zip(user_ids, places, before, after, strict=True):
        rating = current.get(user_id) or Rating(user_id=user_id, game_slug=match.game_slug)
        rating.mu, rating.sigma, rating.ordinal = new.mu, new.sigma, new.ordinal()
        rating.matches += 1
        rating.updated_at = finished_at
        rating.save()
        changes.append(
            RatingChange(
                match=match,
                user_id=user_id,
                game_slug=match.game_slug,
                place=place,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                ordinal_after=new.ordinal(),
                finished_at=finished_at,
            )
        )
    return RatingChange.objects.bulk_create(changes)


def rebuild_all() -> int:
    """Throw every rating away and rate the finished matches again, oldest first.
    Returns how many matches were rated."""
    rated = 0
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        matches = (
            Match.objects.filter(status=MatchStatus.FINISHED, rated=True)
            .order_by("finished_at", "pk")
            .prefetch_related("seats")
        )
        for match in matches.iterator(chunk_size=200):
            if record_finished(match, match.seats.all()):
                rated += 1
    return rated
