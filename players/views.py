"""Account pages: sign up, confirm the address, log in with a password or a mailed link,
change the password, sign out everywhere. Thin: players.forms reads, players.accounts
writes, players.limits counts."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from sesame.utils import get_user

from notifications import mailbox as local_mailbox
from players import accounts, limits
from players.decorators import LIMITED_SESSION, real_sign_in_required
from players.forms import EmailLoginForm, MagicLinkForm, SignOutEverywhereForm, SignupForm
from players.language import browser_language

log = logging.getLogger(__name__)

# Per hour, counted together for the sign-up form and the sign-in link form: one address
# gets few mails whoever asks; one client has few sent in all, to whatever addresses.
MAILS_PER_ADDRESS = 3
MAILS_PER_CLIENT = 10


def _next_url(request: HttpRequest, value: str | None) -> str:
    if value and url_has_allowed_host_and_scheme(
        value, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return value
    return reverse(settings.LOGIN_REDIRECT_URL)


def _mail_allowed(request: HttpRequest, email: str) -> bool:
    """Both limits are counted on every request, so a refused one cannot probe the other."""
    by_client = limits.allow("mail-from", limits.client_address(request), limit=MAILS_PER_CLIENT)
    by_address = limits.allow("mail-to", email, limit=MAILS_PER_ADDRESS)
    return by_client and by_address


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None, initial={"language": browser_language(request)})
    next_path = request.POST.get("next") or request.GET.get("next") or ""
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        if _mail_allowed(request, email):
            try:
                accounts.sign_up(
                    email=email,
                    display_name=form.cleaned_data["display_name"],
                    password=form.cleaned_data["password"],
                    next_path=next_path,
                    time_zone=form.cleaned_data["time_zone"],
                    language=form.cleaned_data["language"] or browser_language(request),
                )
            except OSError:  # the mail server is down: the person can sign up again later
                log.exception("could not send a sign-up mail")
        mailbox = reverse("replies:mailbox") if local_mailbox.visible_to(request) else ""
        return render(
            request, "accounts/signup_sent.html", {"email": email, "mailbox_url": mailbox}
        )
    return render(request, "accounts/signup.html", {"form": form, "next": next_path})


@require_http_methods(["GET", "POST"])
def signup_confirm(request: HttpRequest) -> HttpResponse:
    """GET shows a one-button form (mail scanners open links); POST confirms and logs in."""
    return _follow_link(request, scope=accounts.CONFIRM_SCOPE, template="accounts/confirm.html")


@require_http_methods(["GET", "POST"])
def magic_request(request: HttpRequest) -> HttpResponse:
    """Enter an email, get a login link. An address with no account gets a mail saying how
    to sign up, and no account. The answer on the page is the same either way."""
    form = MagicLinkForm(request.POST or None)
    next_path = request.POST.get("next") or request.GET.get("next") or ""
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        if _mail_allowed(request, email):
            try:
                accounts.mail_sign_in_link(email=email, next_path=next_path)
            except OSError:  # the mail server is down: the person can ask again later
                log.exception("could not send a login link")
        return render(request, "accounts/magic_sent.html", {"email": email})
    return render(request, "accounts/magic_request.html", {"form": form, "next": next_path})


@require_http_methods(["GET", "POST"])
def magic_login(request: HttpRequest) -> HttpResponse:
    """GET shows a one-button form (mail scanners open links); POST logs in."""
    return _follow_link(request, scope="", template="accounts/magic_confirm.html")


def _follow_link(request: HttpRequest, *, scope: str, template: str) -> HttpResponse:
    token = request.POST.get("sesame") or request.GET.get("sesame") or ""
    next_path = request.POST.get("next") or request.GET.get("next") or ""
    signing_in = scope == ""  # a link from the login form: one hour, once
    max_age = accounts.SIGN_IN_LINK_MAX_AGE if signing_in else None
    user = get_user(token, scope=scope, max_age=max_age, update_last_login=False) if token else None
    if user is None or (signing_in and accounts.sign_in_link_used(token)):
        return render(request, "accounts/magic_invalid.html", {}, status=400)
    if request.method == "POST":
        if signing_in and not accounts.spend_sign_in_link(token):
            return render(request, "accounts/magic_invalid.html", {}, status=400)
        confirming = scope == accounts.CONFIRM_SCOPE
        had_password = user.has_usable_password()
        if accounts.confirm_address(user=user, password_confirmed=confirming):
            user.refresh_from_db()
            if had_password and not user.has_usable_password():
                messages.success(
                    request,
                    _(
                        "Your address is confirmed. The password set before it was confirmed "
                        "was removed, since anyone could have set it: choose a new one on your "
                        "account page."
                    ),
                )
                next_path = next_path or reverse("account")
            else:
                messages.success(request, _("Your address is confirmed."))
        login(request, user, backend="sesame.backends.ModelBackend")
        return redirect(_next_url(request, next_path))
    return render(request, template, {"sesame": token, "next": next_path, "who": user})


class EmailLoginView(LoginView):
    """Failed attempts are counted by django-axes in the shared cache (settings.AXES_*)."""

    form_class = EmailLoginForm
    template_name = "accounts/login.html"

    def dispatch(self, request, *args, **kwargs):
        # A session opened by a match email's link (players.match_links) comes here to sign in
        # properly: show it the form instead of sending it back where it came from.
        self.redirect_authenticated_user = not request.session.get(LIMITED_SESSION)
        return super().dispatch(request, *args, **kwargs)


def locked_out(request: HttpRequest, credentials: dict | None = None, *args, **kwargs):
    """django-axes' answer once an address or a client has failed too often."""
    return render(
        request,
        "accounts/locked_out.html",
        {"minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)},
        status=429,
    )


@real_sign_in_required
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    """Change (or set) the password; a new password ends every other session and voids
    every sign-in link already mailed."""
    user = request.user
    form_class = PasswordChangeForm if user.has_usable_password() else SetPasswordForm
    form = form_class(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        form.save()
        update_session_auth_hash(request, form.user)
        messages.success(request, _("Your password is changed; every other session has ended."))
        return redirect("account")
    return render(
        request,
        "accounts/account.html",
        {
            "form": form,
            "sign_out_form": SignOutEverywhereForm(user=user),
            "verified": accounts.is_verified(user),
        },
    )


@real_sign_in_required
@require_POST
def sign_out_everywhere(request: HttpRequest) -> HttpResponse:
    form = SignOutEverywhereForm(request.POST, user=request.user)
    if not form.is_valid():
        messages.error(request, _("That is not your password; nothing was changed."))
        return redirect("account")
    accounts.sign_out_everywhere(user=request.user, password=form.cleaned_data.get("password"))
    update_session_auth_hash(request, request.user)
    messages.success(
        request,
        _(
            "Every other session has ended, every sign-in link mailed before is void and "
            "every API token is revoked."
        ),
    )
    return redirect("account")
