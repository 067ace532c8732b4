"""Ratings per game with openskill's Weng-Lin Plackett-Luce model (see docs/community.md).

A match is rated when its creator chose so, it finished by play or resignation, and every
seat is held by a person: a match with a bot seat teaches nothing about the people in it.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from django.db import transaction
from openskill.models import PlackettLuce

from community.models import Rating, RatingChange
from games.engine import places
from games.models import Match, MatchStatus, Move, MoveKind, MoveSource, Seat, SeatHolder
from players.models import BotAccount

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


def is_rateable(match: Match, seats: Iterable[Seat], bots: set[int] | None = None) -> bool:
    """Whether the match changes its players' ratings. `bots` (the bot accounts' user ids)
    may be given by a caller that rates many matches."""
    seats = list(seats)
    users = [seat.user_id for seat in seats]
    if not (
        match.rated
        and match.status == MatchStatus.FINISHED
        and bool(match.result)
        and len(seats) >= 2
        and all(users)
        and len(set(users)) == len(seats)
    ):
        return False
    if bots is None:
        return not BotAccount.objects.filter(user_id__in=users).exists()
    return not bots.intersection(users)


def rate(match: Match, seats: list[Seat], current: dict[int, Rating]) -> list[RatingChange]:
    """Rate a rateable match (seats in seat order) from its players' ratings in `current`
    (by user id; a player missing from it starts afresh and is added): `current` is brought
    up to date in place, unsaved, and the match's changes are returned, unsaved."""
    places = places_of(match.result, len(seats))
    user_ids = [seat.user_id for seat in seats]
    before = [
        MODEL.rating(mu=current[u].mu, sigma=current[u].sigma) if u in current else MODEL.rating()
        for u in user_ids
    ]
    after = MODEL.rate([[r] for r in before], ranks=places)
    finished_at = match.finished_at
    changes = []
    for user_id, place, old, (new,) in zip(user_ids, places, before, after, strict=True):
        rating = current.setdefault(user_id, Rating(user_id=user_id, game_slug=match.game_slug))
        rating.mu, rating.sigma, rating.ordinal = new.mu, new.sigma, new.ordinal()
        rating.matches += 1
        rating.updated_at = finished_at
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
    return changes


# Moves a person chose (a bot's, a deadline's or a forced move chose itself).
PLAYED = (MoveSource.WEB, MoveSource.EMAIL, MoveSource.API, MoveSource.STANDING)


def for_whoever_played_most(match: Match, seats: list[Seat], holders=None) -> list[Seat]:
    """The seats as the ratings count them: a seat a substitute took over counts for
    whichever of its holders chose most of its moves (the later holder on a tie). Copies of
    the seats with that user; the seats themselves where nobody took over."""
    holders = list(SeatHolder.objects.filter(match=match)) if holders is None else holders
    if not holders:
        return seats
    moves = Move.objects.filter(match=match, kind=MoveKind.MOVE, source__in=PLAYED)
    chose: Counter = Counter()
    for seat, seq in moves.values_list("seat", "seq"):
        for h in holders:
            if h.seat == seat and h.from_seq < seq and (h.until_seq is None or seq <= h.until_seq):
                chose[(seat, h.user_id)] += 1
    counted = []
    for seat in seats:
        mine = [h for h in holders if h.seat == seat.number]
        if mine:
            best = max(mine, key=lambda h: (chose[(seat.number, h.user_id)], h.from_seq))
            seat = copy.copy(seat)
            seat.user_id = best.user_id
        counted.append(seat)
    return counted


def record_finished(match: Match, seats: Iterable[Seat]) -> list[RatingChange]:
    """Rate a match that has just finished. Called inside the transaction that finishes it,
    so a rating never exists without its result, nor a result without its rating."""
    seats = for_whoever_played_most(match, sorted(seats, key=lambda s: s.number))
    if not is_rateable(match, seats):
        return []
    current = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(
            game_slug=match.game_slug, user_id__in=[seat.user_id for seat in seats]
        )
    }
    changes = rate(match, seats, current)
    for change in changes:
        current[change.user_id].save()
    return RatingChange.objects.bulk_create(changes)


REBUILD_BATCH = 2000  # matches read, and rating changes written, a statement at a time


def rebuild_game(game_slug: str, progress: Callable[[str, int], None] | None = None) -> int:
    """Throw away one game's ratings and rate its finished matches again, oldest first, in
    one transaction: the matches read and the changes written in batches, the ratings
    carried in memory from one match to the next and written at the end. Returns how many
    matches were rated; `progress(game_slug, matches read)` is told after each batch."""
    bots = set(BotAccount.objects.values_list("user_id", flat=True))
    holders: dict[int, list[SeatHolder]] = {}
    for holder in SeatHolder.objects.filter(match__game_slug=game_slug):
        holders.setdefault(holder.match_id, []).append(holder)
    current: dict[int, Rating] = {}
    changes: list[RatingChange] = []
    rated = read = 0
    with transaction.atomic():
        RatingChange.objects.filter(game_slug=game_slug).delete()
        Rating.objects.filter(game_slug=game_slug).delete()
        matches = (
            Match.objects.filter(status=MatchStatus.FINISHED, rated=True, game_slug=game_slug)
            .order_by("finished_at", "pk")
            .prefetch_related("seats")
        )
        for match in matches.iterator(chunk_size=REBUILD_BATCH):
            read += 1
            seats = sorted(match.seats.all(), key=lambda s: s.number)
            seats = for_whoever_played_most(match, seats, holders.get(match.pk, []))
            if is_rateable(match, seats, bots):
                changes += rate(match, seats, current)
                rated += 1
            if len(changes) >= REBUILD_BATCH:
                RatingChange.objects.bulk_create(changes)
                changes = []
            if progress and read % REBUILD_BATCH == 0:
                progress(game_slug, read)
        RatingChange.objects.bulk_create(changes, batch_size=REBUILD_BATCH)
        Rating.objects.bulk_create(current.values(), batch_size=REBUILD_BATCH)
    return rated


def rated_games() -> list[str]:
    """The games with ratings now or rated matches to rate."""
    finished = Match.objects.filter(status=MatchStatus.FINISHED, rated=True)
    slugs = set(finished.order_by().values_list("game_slug", flat=True).distinct())
    slugs.update(Rating.objects.order_by().values_list("game_slug", flat=True).distinct())
    return sorted(slugs)
