"""Account services: sign-up, address verification, sign-in links, signing out everywhere.

An address belongs to whoever reads its mail. So a sign-up only asks for a link to be mailed;
the account's password works once that link is followed. When the first link followed is
not a sign-up confirmation (someone else may have signed up with this address), the password
set at sign-up is dropped and every session ends: an unverified account cannot keep an
address from its owner."""

from __future__ import annotations

import hashlib
import logging
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ObjectDoesNotExist
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from sesame.utils import get_query_string

from players.language import CODES, chosen_language
from players.models import UnverifiedAddress, UsedSignInLink

log = logging.getLogger(__name__)
User = get_user_model()

CONFIRM_SCOPE = "players:confirm-signup"


def is_verified(user: AbstractBaseUser) -> bool:
    return not UnverifiedAddress.objects.filter(user_id=user.pk).exists()


def sign_up(
    *,
    email: str,
    display_name: str,
    password: str,
    next_path: str = "",
    time_zone: str = "",
    language: str = "",
) -> None:
    """Mail `email` what it needs to finish: a confirmation link for a new (or still
    unconfirmed) account, a note with a sign-in link for one that exists. The caller answers
    the same way in both cases. `time_zone` (the browser's, checked) becomes the new
    account's zone for deadlines and every time shown; `language` (chosen on the form,
    offered from the browser's) its language, pages and mails."""
    with transaction.atomic():
        user = User.objects.select_for_update().filter(username__iexact=email).first()
        if user is None:
            user = User.objects.create_user(
                username=email, email=email, password=password, first_name=display_name
            )
            UnverifiedAddress.objects.create(user=user)
            confirm = True
        elif not is_verified(user):
            # The latest sign-up wins; its new password voids the links mailed before.
            user.set_password(password)
            user.first_name = display_name
            user.save(update_fields=["password", "first_name"])
            confirm = True
        else:
            confirm = False
        chosen = {"time_zone": time_zone} if time_zone else {}
        if language in CODES:
            chosen["language"] = language
        if confirm and chosen:
            from .models import Preferences

            Preferences.objects.update_or_create(user=user, defaults=chosen)
    if confirm:
        _mail_link(
            user,
            template="accounts/signup_confirm_email.txt",
            subject=_("Confirm your address for %(site)s"),
            view="signup_confirm",
            scope=CONFIRM_SCOPE,
            next_path=next_path,
        )
    else:
        _mail_link(
            user,
            template="accounts/signup_exists_email.txt",
            subject=_("You already have an account at %(site)s"),
            view="magic_login",
            scope="",
            next_path=next_path,
        )


def mail_sign_in_link(*, email: str, next_path: str = "") -> None:
    """What the login form's "mail me a link" sends to `email`: a sign-in link to its
    account, or, to an address with no account, a note saying so with the way to sign up (a
    sign-in link never makes an account: sign-up is where a name and a password are chosen).
    A deactivated account gets nothing. The caller answers the same way in every case."""
    user = User.objects.filter(username__iexact=email).first()
    if user is None:  # in the language of the page that asked
        send_mail(
            subject=_("No account at %(site)s for this address") % {"site": settings.SITE_NAME},
            message=render_to_string(
                "accounts/magic_no_account_email.txt",
                {
                    "link": settings.SITE_URL + reverse("signup") + _next_query(next_path, "?"),
                    "site_name": settings.SITE_NAME,
                },
            ),
            from_email=None,
            recipient_list=[email],
        )
    elif user.is_active:
        send_sign_in_link(user=user, next_path=next_path)


SIGN_IN_LINK_MAX_AGE = 3600  # seconds: a link from the login form signs in within an hour


def _link_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def sign_in_link_used(token: str) -> bool:
    return UsedSignInLink.objects.filter(token_digest=_link_digest(token)).exists()


def spend_sign_in_link(token: str) -> bool:
    """Mark a login-form link used; False if it was used already (two tabs at once)."""
    try:
        with transaction.atomic():
            UsedSignInLink.objects.create(token_digest=_link_digest(token))
    except IntegrityError:
        return False
    return True


def send_sign_in_link(*, user: AbstractBaseUser, next_path: str = "") -> None:
    _mail_link(
        user,
        template="accounts/magic_link_email.txt",
        subject=_("Your login link for %(site)s"),
        view="magic_login",
        scope="",
        next_path=next_path,
    )


def _next_query(next_path: str, joiner: str) -> str:
    """`next_path` as a query parameter after `joiner`, if it is a path on this site."""
    if next_path and next_path.startswith("/") and not next_path.startswith("//"):
        return joiner + urlencode({"next": next_path})
    return ""


def _mail_link(user, *, template: str, subject: str, view: str, scope: str, next_path: str):
    """`subject` is a lazy translation with %(site)s. The mail is in the account's language,
    else in the language of the page that asked."""
    query = get_query_string(user, scope=scope) + _next_query(next_path, "&")
    context = {
        "link": settings.SITE_URL + reverse(view) + query,
        "site_name": settings.SITE_NAME,
        "days": settings.SESAME_MAX_AGE // 86400,
    }
    with translation.override(chosen_language(user) or translation.get_language()):
        send_mail(
            subject=str(subject) % {"site": settings.SITE_NAME},
            message=render_to_string(template, context),
            from_email=None,
            recipient_list=[user.email],
        )


def confirm_address(*, user: AbstractBaseUser, password_confirmed: bool) -> bool:
    """The owner of the address followed a link. Returns True if the account was not yet
    verified. Unless the link confirmed the sign-up itself, a password set before now was
    not set by the owner for certain: it is dropped, which also ends its sessions."""
    with transaction.atomic():
        deleted, _ = UnverifiedAddress.objects.filter(user_id=user.pk).delete()
        if deleted and not password_confirmed and user.has_usable_password():
            user.set_unusable_password()
            user.save(update_fields=["password"])
    return bool(deleted)


def sign_out_everywhere(*, user: AbstractBaseUser, password: str | None) -> None:
    """Re-hash the password (same password, new salt) or renew the unusable one: every
    session's auth hash and every sign-in link already mailed carry the old hash, so all of
    them stop working, and every API token is revoked. The caller keeps its own session with
    update_session_auth_hash."""
    if password is not None and user.has_usable_password():
        user.set_password(password)
    else:
        user.set_unusable_password()
    user.save(update_fields=["password"])
    # An API token is a session too: every one the account holds is revoked.
    from api.tokens import revoke_all

    revoke_all(user=user)


def is_bot_account(user) -> bool:
    """Whether the account is a program's (players.models.BotAccount). Reads the user's
    `bot_account` (no query where it was read with `select_related("user__bot_account")`,
    as the service layer's lock does; else one, kept on the instance)."""
    if user is None or user.pk is None:
        return False
    try:
        return user.bot_account is not None
    except ObjectDoesNotExist:
        return False
