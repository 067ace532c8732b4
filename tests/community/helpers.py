"""Finished matches for the community tests: played through the service layer, or made in
bulk as finished rows when only the projection is under test."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from community.names import public_name
from games import services
from games.engine import event_rng, get_game
from games.models import Match, MatchStatus, Seat
from games.selectors import load_state
from tests.factories import make_user


def play_to_the_end(match: Match) -> Match:
    """Every seat plays its bot's choice until the match is over."""
    game = get_game(match.game_slug, match.rules_version)
    while True:
        match.refresh_from_db()
        if match.is_over:
            return match
        seat = match.to_act[0]
        state = load_state(match)
        move = game.bot_move(state, seat, event_rng("community-test", match.head_seq))
        result = services.submit_move(match_id=match.pk, seat=seat, move=move, source="web")
        assert result.ok, result.message


def people_match(users, *, rated=True, watchable=False, seed="community") -> Match:
    """A sealed-cards match between these people, started."""
    match = services.create_match(
        creator=users[0],
        game_slug="sealed-cards",
        players=len(users),
        invite_emails=[u.email for u in users[1:]],
        seed=seed,
        rated=rated,
        watchable=watchable,
    )
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match


def finished_rows(users, ranking, *, game_slug="sealed-cards", days_ago=1, rated=True) -> Match:
    """A finished match row with this ranking (seats in `users` order; a list inside it is a
    group sharing a place), no log: for the projections (ratings, archive, profiles) alone."""
    shared = [group for group in ranking if isinstance(group, list)]
    flat = [seat for group in ranking for seat in (group if isinstance(group, list) else [group])]
    finished_at = timezone.now() - timedelta(days=days_ago)
    match = Match.objects.create(
        game_slug=game_slug,
        rules_version=1,
        player_count=len(users),
        seed="s",
        seed_commitment="c",
        status=MatchStatus.FINISHED,
        created_by=users[0],
        started_at=finished_at - timedelta(days=5),
        finished_at=finished_at,
        rated=rated,
        result={"scores": None, "ranking": flat, "shared": shared, "notes": [], "details": {}},
    )
    # Each seat's name frozen at the start, as the service layer does.
    Seat.objects.bulk_create(
        Seat(match=match, number=n, user=user, display_name=public_name(user))
        for n, user in enumerate(users)
    )
    return match


def users(*names):
    return [make_user(name) for name in names]
