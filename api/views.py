"""The account page for API tokens and bot accounts."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from api.models import Scope
from api.tokens import TokenError, is_bot_account, make_bot_account, make_token, revoke


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    new_key = None
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "make":
                token, new_key = make_token(
                    user=request.user,
                    name=request.POST.get("name", ""),
                    scope=request.POST.get("scope", ""),
                )
                messages.success(
                    request,
                    _("Token %(name)r made. Copy it now: it is shown once.") % {"name": token.name},
                )
            elif action == "revoke":
                if revoke(user=request.user, token_id=int(request.POST.get("token", "0") or 0)):
                    messages.success(request, _("The token is revoked; it no longer works."))
            elif action == "bot":
                make_bot_account(user=request.user, note=request.POST.get("note", ""))
                messages.success(request, _("This account is now a bot account."))
        except TokenError as error:
            messages.error(request, error.message)
        except ValueError:
            messages.error(request, _("Choose a token to revoke."))
        if new_key is None:
            return redirect("api_tokens")
    bot = is_bot_account(request.user)
    scopes = [(value, label) for value, label in Scope.choices if value != Scope.BOT or bot]
    return render(
        request,
        "api/tokens.html",
        {
            "tokens": request.user.api_tokens.all()[:100],
            "new_key": new_key,
            "scopes": scopes,
            "bot": bot,
            "has_played": request.user.seats.exists(),
        },
    )
