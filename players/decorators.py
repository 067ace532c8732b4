"""Pages that change the account itself need a real sign-in: a password, or a sign-in link
asked for on the login page. A session opened by a link in a game email (scoped to one
match) is marked with LIMITED_SESSION and sent to the login page instead."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest

LIMITED_SESSION = "players.limited_session"


def is_limited(request: HttpRequest) -> bool:
    """Whether the request is signed in by a match link only."""
    return (
        hasattr(request, "session")
        and request.user.is_authenticated
        and bool(request.session.get(LIMITED_SESSION))
    )


def real_sign_in_required(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated or is_limited(request):
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapped
