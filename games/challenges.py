"""Challenges: a player asks another, by name, to a match of a game with its settings; the
one asked accepts (the match is made with both seated, the other seats the site's bots, and
it starts), declines, or lets it wait; the one who asked may cancel it while it is open.
Each change is told through games.events.challenge_changed in its transaction."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from community.names import public_name
from games import events
from games.engine import IllegalMove, get_game
from games.engine.numbers import read_number
from games.models import Challenge, ChallengeStatus, Match
from games.services import ServiceError, create_match, join_match

OPEN_AT_ONCE = 20  # open challenges one player may have made at a time


def find_player(name: str, *, asking: AbstractBaseUser) -> AbstractBaseUser:
    """The one active account `name` names: '#12' (an account's number, as its profile page
    shows it) or its public name, in any case. A name two accounts share is refused."""
    name = " ".join(name.split())
    users = get_user_model().objects.filter(is_active=True).exclude(pk=asking.pk)
    if name.startswith("#"):
        number = read_number(name[1:], low=1)
        found = users.filter(pk=number).first() if number else None
        if found is None:
            raise ServiceError(gettext_noop("Nobody has that number."))
        return found
    wanted = name.casefold()
    candidates = users.filter(first_name__iexact=name.split(" ")[0]) | users.filter(
        username__iexact=name
    )
    found = [u for u in candidates.distinct()[:50] if public_name(u).casefold() == wanted]
    if not found:
        raise ServiceError(gettext_noop("Nobody plays under that name."))
    if len(found) > 1:
        raise ServiceError(
            gettext_noop("Several players have that name: write '#' and their number.")
        )
    return found[0]


def make(
    *,
    challenger: AbstractBaseUser,
    player: str,
    game_slug: str,
    players: int = 2,
    options: dict[str, Any] | None = None,
    days_per_move: int = 3,
    rated: bool = False,
) -> Challenge:
    challenged = find_player(player, asking=challenger)
    try:
        game = get_game(game_slug)
    except KeyError:
        raise ServiceError(f"There is no game called {game_slug!r}.") from None
    if not game.min_players <= players <= game.max_players:
        raise ServiceError(
            f"{game.title} is played by {game.min_players} to {game.max_players} players."
        )
    try:
        options = game.validate_options(players, options or {})
    except IllegalMove as error:
        raise ServiceError(error.message) from None
    if not 1 <= days_per_move <= 30:
        raise ServiceError(gettext_noop("Days per move must be between 1 and 30."))
    with transaction.atomic():
        waiting = Challenge.objects.filter(challenger=challenger, status=ChallengeStatus.OPEN)
        if waiting.count() >= OPEN_AT_ONCE:
            raise ServiceError(
                f"You have {OPEN_AT_ONCE} challenges waiting: cancel one, or wait for answers."
            )
        challenge = Challenge.objects.create(
            challenger=challenger,
            challenged=challenged,
            game_slug=game.slug,
            players=players,
            options=options,
            days_per_move=days_per_move,
            rated=rated,
        )
        events.challenge_changed.send(sender=Challenge, challenge=challenge, what="made")
    return challenge


def _open(challenge_id: int) -> Challenge:
    """The challenge, locked; refused unless it is still open."""
    challenge = (
        (Challenge.objects.select_for_update().select_related("challenger", "challenged"))
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None:
        raise ServiceError(gettext_noop("No such challenge."))
    if challenge.status != ChallengeStatus.OPEN:
        raise ServiceError(gettext_noop("That challenge has been answered already."))
    return challenge


def accept(*, challenge_id: int, user: AbstractBaseUser) -> Match:
    """The one challenged accepts: the match is made with both seated (the challenger
    first), the other seats the site's bots, and it starts."""
    with transaction.atomic():
        challenge = _open(challenge_id)
        if challenge.challenged_id != user.pk:
            raise ServiceError(gettext_noop("No such challenge."))
        match = create_match(
            creator=challenge.challenger,
            game_slug=challenge.game_slug,
            players=challenge.players,
            options=challenge.options,
            bots=challenge.players - 2,
            days_per_move=challenge.days_per_move,
            rated=challenge.rated,
        )
        # Nobody else sees the match before this commits: the open seat is the challenged's.
        join_match(match_id=match.pk, user=user)
        _decide(challenge, ChallengeStatus.ACCEPTED, match=match)
        match.refresh_from_db()
        return match


def decline(*, challenge_id: int, user: AbstractBaseUser, reason: str = "") -> Challenge:
    with transaction.atomic():
        challenge = _open(challenge_id)
        if challenge.challenged_id != user.pk:
            raise ServiceError(gettext_noop("No such challenge."))
        return _decide(challenge, ChallengeStatus.DECLINED, reason=reason)


def cancel(*, challenge_id: int, user: AbstractBaseUser) -> Challenge:
    with transaction.atomic():
        challenge = _open(challenge_id)
        if challenge.challenger_id != user.pk:
            raise ServiceError(gettext_noop("No such challenge."))
        return _decide(challenge, ChallengeStatus.CANCELLED)


def _decide(challenge: Challenge, status: str, *, match=None, reason: str = "") -> Challenge:
    challenge.status = status
    challenge.match = match
    challenge.reason = " ".join(reason.replace("\x00", "").split())[:200]
    challenge.decided_at = timezone.now()
    challenge.save(update_fields=["status", "match", "reason", "decided_at"])
    events.challenge_changed.send(sender=Challenge, challenge=challenge, what=status)
    return challenge
