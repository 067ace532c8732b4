"""Making, checking and revoking API tokens."""

from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from api.models import ApiToken, Scope
from players.accounts import is_bot_account
from players.models import BotAccount

PREFIX = "pb_"
# Scopes a token of each kind carries: a play token can read; a bot token can play.
GRANTS = {
    Scope.READ: {Scope.READ},
    Scope.PLAY: {Scope.READ, Scope.PLAY},
    Scope.BOT: {Scope.READ, Scope.PLAY, Scope.BOT},
}
LAST_USED_RESOLUTION = 60  # seconds: a busy bot does not write its token row every request


class TokenError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def make_token(*, user, name: str, scope: str) -> tuple[ApiToken, str]:
    """A new token and its key (shown once)."""
    name = (name or "").strip()[:60] or "API token"
    if scope not in Scope.values:
        raise TokenError(gettext("Choose read, play or bot."))
    bot = is_bot_account(user)
    if scope == Scope.BOT and not bot:
        raise TokenError(gettext("Bot tokens are for bot accounts; make this account a bot first."))
    if bot and scope == Scope.PLAY:
        scope = Scope.BOT  # a bot account's playing token says so
    key = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, scope=scope, prefix=key[:10], key_hash=_hash(key)
    )
    return token, key


def user_for(key: str) -> tuple[object, ApiToken] | None:
    """The user and token behind a key, or None if it is unknown or revoked."""
    if not key.startswith(PREFIX) or len(key) > 100:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=_hash(key), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user, token


def grants(token: ApiToken | None, scope: str) -> bool:
    """A session (no token) may do everything its user may; a token only its scope."""
    return token is None or scope in GRANTS[Scope(token.scope)]


def revoke(*, user, token_id: int) -> bool:
    return bool(
        ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    )


def make_bot_account(*, user, note: str = "") -> BotAccount:
    """Turn an account that has never sat at a table into a bot account."""
    with transaction.atomic():
        if user.seats.exists():
            raise TokenError(
                gettext(
                    "Only an account that has never played can become a bot: make a new "
                    "account for your bot."
                )
            )
        bot, _ = BotAccount.objects.get_or_create(user=user, defaults={"owner_note": note})
        return bot


def revoke_all(*, user) -> int:
    """Revoke every token of `user` (signing out everywhere); how many were live."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
