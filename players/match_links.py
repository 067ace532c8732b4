"""The link in a match's emails, and the session it opens.

Every sign-in records its kind in the session: "password" (the sign-in form, or signing up),
"link" (a sign-in link asked for on the sign-in form: it proves the address) or "match" (a
link from a match email). A match link is a django-sesame token scoped to its match, valid
for MATCH_LINK_MAX_AGE and used once (players.models.SignInLinkUse records each use).
The session it opens is a limited one (players.decorators.LIMITED_SESSION): account pages
(`players.decorators.real_sign_in_required`) send it to sign in properly, and it may open
that match's pages and nothing else (`MatchLinkSessionMiddleware`), so an email forwarded
to a friend hands over one match at most, never the account.
"""

from __future__ import annotations

import hashlib
import re

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.signals import user_logged_in
from django.contrib.auth.views import redirect_to_login
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext as _
from sesame.utils import get_query_string, get_user

from .decorators import LIMITED_SESSION, is_limited

SESSION_KIND = "signin_kind"
SESSION_MATCH = "signin_match"
PASSWORD, LINK, MATCH = "password", "link", "match"

_BACKEND_KINDS = {"sesame.backends.ModelBackend": LINK}


def record_signin(request: HttpRequest, kind: str, match_id: int | None = None) -> None:
    """A match link's session is limited to its match; any other sign-in lifts that."""
    request.session[SESSION_KIND] = kind
    if kind == MATCH:
        request.session[LIMITED_SESSION] = True
        request.session[SESSION_MATCH] = match_id
    else:
        request.session.pop(LIMITED_SESSION, None)
        request.session.pop(SESSION_MATCH, None)


def on_user_logged_in(sender, request, user, **kwargs) -> None:
    """Every sign-in records its kind from the backend that signed in (a match link then
    narrows it to its match)."""
    if request is not None and hasattr(request, "session"):
        record_signin(request, _BACKEND_KINDS.get(getattr(user, "backend", ""), PASSWORD))


user_logged_in.connect(on_user_logged_in, dispatch_uid="games.signin.kind")


def signin_kind(request: HttpRequest) -> str:
    return request.session.get(SESSION_KIND, "") if hasattr(request, "session") else ""


# --- match links -------------------------------------------------------------------------


def match_scope(match_id: int) -> str:
    return f"match:{match_id}"


def match_link_max_age() -> int:
    return int(getattr(settings, "MATCH_LINK_MAX_AGE", 24 * 3600))


def match_link_query(user, match_id: int) -> str:
    """'?sesame=...': signs `user` in to match `match_id` only, once, for a short while."""
    return get_query_string(user, scope=match_scope(match_id))


def match_link_user(token: str, match_id: int):
    """The user a match link names, if it is for this match, fresh and not used yet."""
    from .models import SignInLinkUse

    if not token:
        return None
    user = get_user(
        token,
        scope=match_scope(match_id),
        max_age=match_link_max_age(),
        update_last_login=False,
    )
    if user is None or SignInLinkUse.objects.filter(token_digest=_digest(token)).exists():
        return None
    return user


def use_match_link(token: str, match_id: int):
    """Spend the link: the user it names, or None if it is not valid or was used already
    (two clicks at once: the unique digest lets one of them through)."""
    from .models import SignInLinkUse

    user = match_link_user(token, match_id)
    if user is None:
        return None
    try:
        with transaction.atomic():
            SignInLinkUse.objects.create(token_digest=_digest(token), user=user, match_id=match_id)
    except IntegrityError:
        return None
    return user


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# --- a match-link session stays in its match ----------------------------------------------

_ALWAYS_OPEN = re.compile(r"^/(static/|login/|logout/|signup/|favicon)")


def _match_paths(match_id: int) -> re.Pattern:
    return re.compile(rf"^/(n/)?matches/{match_id}/")


class MatchLinkSessionMiddleware:
    """A session opened by a match link may open that match's pages (and sign in or out);
    anything else asks for a real sign-in first."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        if getattr(request, "user", None) is not None and is_limited(request):
            match_id = request.session.get(SESSION_MATCH)
            path = request.path_info
            allowed = _ALWAYS_OPEN.match(path) or (
                match_id is not None and _match_paths(match_id).match(path)
            )
            if not allowed:
                messages.info(
                    request,
                    _("The link in an email opens its match only. Sign in to see the rest."),
                )
                return redirect_to_login(request.get_full_path())
        return self.get_response(request)
