"""A player's language (issue 31): the pages follow the signed-in player's choice, else the
browser's (LocaleMiddleware); each mail is rendered in its recipient's.

The choice lives in Preferences.language and, for the pages, in the session: it is copied there
at sign-in and when the player changes it, so a page asks the database nothing more."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.i18n import set_language as django_set_language

SESSION_KEY = "player_language"
CODES = frozenset(code for code, _ in settings.LANGUAGES)


def chosen_language(user) -> str:
    """The language the player chose, or '' (follow the browser)."""
    from .preferences import prefs_for

    if user is None or user.pk is None:
        return ""
    language = prefs_for(user).language
    return language if language in CODES else ""


def language_of(user) -> str:
    """The language of a mail to `user`: their choice, else the site's default (a mail has
    no browser to ask). None (an address with no account): the site's default."""
    return chosen_language(user) or settings.LANGUAGE_CODE


def browser_language(request: HttpRequest) -> str:
    """The browser's language among ours (Accept-Language, or the switcher's cookie)."""
    return translation.get_language_from_request(request)


def remember(request: HttpRequest, language: str) -> None:
    """Make `language` the signed-in player's language for this session's pages."""
    request.session[SESSION_KEY] = language if language in CODES else ""


@receiver(user_logged_in, dispatch_uid="players.language.remember")
def _remember_at_sign_in(sender, request, user, **kwargs) -> None:
    if request is not None and hasattr(request, "session"):
        remember(request, chosen_language(user))


class PlayerLanguageMiddleware:
    """After AuthenticationMiddleware: a signed-in player's own language wins over the
    browser's. Reads only the session; a session from before sign-in copied it has none, and
    the browser's stands."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        language = session.get(SESSION_KEY, "") if session is not None else ""
        if language in CODES and request.user.is_authenticated:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language (a POST of `language` and `next`; it sets the language cookie);
    for a signed-in player the choice also becomes their preference, mails included."""
    response = django_set_language(request)
    language = request.POST.get("language", "")
    if request.method == "POST" and language in CODES and request.user.is_authenticated:
        from .preferences import saved_prefs_for

        prefs = saved_prefs_for(request.user)
        if prefs.language != language:
            prefs.language = language
            prefs.save(update_fields=["language"])
        remember(request, language)
    return response
