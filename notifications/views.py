"""Thin views: preferences and the one-click unsubscribe."""

from __future__ import annotations

import json
from functools import partial

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from community.names import public_name
from games import vacation_bank
from games.engine.numbers import read_number
from games.models import Match
from games.services import ServiceError
from players.decorators import real_sign_in_required
from players.language import browser_language
from players.language import remember as remember_language
from players.models import NoticeMode, Vacation
from players.preferences import book_vacation, saved_prefs_for

from . import feeds, hooks, push
from .digest import reschedule_digest
from .emails import absolute
from .forms import PreferencesForm, VacationForm
from .models import FeedToken, HookKind, masked, new_feed_token
from .reachability import mark_webhook_working, mark_working
from .reminders import reschedule_reminders
from .tokens import read_unsubscribe_token


def _page(request: HttpRequest, template: str, context: dict, status: int = 200) -> HttpResponse:
    try:
        get_template("base.html")
        context["base_template"] = "base.html"
    except TemplateDoesNotExist:  # the site's layout is not there yet
        context["base_template"] = "notifications/standalone.html"
    return render(request, template, context, status=status)


@real_sign_in_required
def preferences(request: HttpRequest) -> HttpResponse:
    prefs = saved_prefs_for(request.user)
    form = PreferencesForm(instance=prefs)
    vacation_form = VacationForm()
    if request.method == "POST":
        action = request.POST.get("action", "save")
        if action == "save":
            form = PreferencesForm(request.POST, instance=prefs)
            if form.is_valid():
                form.save()
                reschedule_reminders(request.user)  # hours, quiet hours or zone may differ
                reschedule_digest(request.user)
                if "webhook_url" in form.changed_data:  # a new webhook starts afresh
                    mark_webhook_working(user=request.user)
                # The player's pages follow the new choice, this very answer included.
                remember_language(request, form.instance.language)
                translation.activate(form.instance.language or browser_language(request))
                messages.success(request, _("Your preferences are saved."))
                return redirect("notifications:preferences")
        elif action == "address-works":
            mark_working(user=request.user)
            messages.success(request, _("We will email you again, and your deadlines run again."))
            return redirect("notifications:preferences")
        elif action == "webhook-works":
            mark_webhook_working(user=request.user)
            messages.success(request, _("We will use your webhook again."))
            return redirect("notifications:preferences")
        elif action == "vacation":
            vacation_form = VacationForm(request.POST)
            if vacation_form.is_valid():
                try:
                    book_vacation(
                        user=request.user,
                        allowance=partial(vacation_bank.allowance, request.user),
                        **vacation_form.cleaned_data,
                    )
                except ValueError as error:
                    vacation_form.add_error(None, str(error))
                else:
                    messages.success(request, _("Vacation booked: your deadlines skip those days."))
                    return redirect("notifications:preferences")
        elif action == "feed-new":  # a new address; the old one answers 404 from now on
            FeedToken.objects.update_or_create(
                user=request.user, defaults={"token": new_feed_token()}
            )
            return redirect(reverse("notifications:preferences") + "#feeds")
        elif action == "feed-off":
            FeedToken.objects.filter(user=request.user).delete()
            return redirect(reverse("notifications:preferences") + "#feeds")
        elif action == "cancel-vacation":
            # A day the clock spent is spent: only booked days can be given back.
            Vacation.objects.filter(
                user=request.user, pk=request.POST.get("vacation"), automatic=False
            ).delete()
            reschedule_reminders(request.user)  # deadlines come back earlier
            return redirect("notifications:preferences")
    return _page(
        request,
        "notifications/preferences.html",
        {
            "form": form,
            "vacation_form": vacation_form,
            "prefs": prefs,
            "vacations": Vacation.objects.filter(user=request.user).select_related("match"),
            "bank": vacation_bank.bank_of(request.user),
            "feeds": _feed_urls(request.user),
            "push_key": push.public_key(),
        },
    )


@csrf_exempt  # RFC 8058 one-click: the mail provider POSTs without our cookie
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a one-button form (mail scanners open links); POST stops turn emails."""
    user_id = read_unsubscribe_token(token)
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    if user is None:
        return _page(request, "notifications/unsubscribe.html", {"invalid": True}, status=400)
    links = {
        "user": user,
        "preferences_url": reverse("notifications:preferences"),
        # Booking a vacation is an account page: the link leads through the sign-in form.
        "vacation_url": reverse("notifications:preferences") + "#vacation",
    }
    if request.method == "POST":
        prefs = saved_prefs_for(user)
        prefs.mode = NoticeMode.NONE
        prefs.save(update_fields=["mode"])
        return _page(request, "notifications/unsubscribe.html", {"done": True, **links})
    return _page(request, "notifications/unsubscribe.html", links)


def _feed_urls(user) -> dict | None:
    token = FeedToken.objects.filter(user=user).values_list("token", flat=True).first()
    if token is None:
        return None
    return {
        "calendar": absolute(reverse("notifications:calendar_feed", args=[token])),
        "atom": absolute(reverse("notifications:turns_feed", args=[token])),
    }


def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The player's deadlines, for a calendar app (the token is the only key)."""
    body = feeds.calendar_for(feeds.user_for(token))
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")


def hooks_page(request: HttpRequest, subject: dict, channels, told: str, again):
    """A page of the chat channels that follow a match or a tournament (`subject`), for
    someone `channels` lets open it (anyone else gets a 404 before anything they sent is
    read): connect one, or remove one. Each channel is listed by its kind, who connected it
    and what it carries; its address, masked, only to who may remove it."""
    if not channels.may_open(request.user):
        raise Http404
    if request.method == "POST":
        try:
            if request.POST.get("action") == "remove":
                hook = read_number(request.POST.get("hook", ""), low=1)
                if hook is None:
                    raise ServiceError(gettext_noop("Choose a channel to remove."))
                channels.remove(request.user, hook)
                messages.success(request, _("The channel is removed."))
            else:
                channels.add(
                    request.user,
                    request.POST.get("url", "").strip(),
                    request.POST.get("kind", "discord"),
                    chat=request.POST.get("chat") == "1",
                )
                messages.success(request, told)
        except ServiceError as error:
            messages.error(request, _(error.message) if error.message else error.message)
        return again
    rows = [
        {
            "pk": hook.pk,
            "kind": hook.get_kind_display(),
            "chat": hook.chat,
            "added_by": public_name(hook.added_by) if hook.added_by else "",
            "address": masked(hook.url) if channels.may_manage(hook, request.user) else "",
            "removable": channels.may_manage(hook, request.user),
        }
        for hook in channels.hooks().select_related("added_by").order_by("pk")
    ]
    context = {
        **subject,
        "hooks": rows,
        "kinds": HookKind.choices,
        "may_connect": channels.may_connect(request.user),
    }
    return _page(request, "notifications/hooks.html", context)


@real_sign_in_required
def match_hooks(request: HttpRequest, pk: int) -> HttpResponse:
    """The chat channels that follow a match: connect one, or remove one."""
    match = get_object_or_404(Match, pk=pk)
    return hooks_page(
        request,
        {"match": match},
        hooks.match_channels(match),
        _("The channel will be told of this match from now on."),
        redirect("notifications:match_hooks", pk=match.pk),
    )


@real_sign_in_required
@require_POST
def push_subscribe(request: HttpRequest) -> HttpResponse:
    """A browser's push subscription (JSON from static/js/push.js)."""
    try:
        push.subscribe(request.user, json.loads(request.body or b"{}"))
    except push.AnotherAccounts as error:
        return JsonResponse({"error": _(str(error))}, status=409)
    except (ValueError, TypeError) as error:
        return JsonResponse({"error": str(error) or "Not a subscription."}, status=400)
    prefs = saved_prefs_for(request.user)
    prefs.push_turns = True
    prefs.save(update_fields=["push_turns"])
    return JsonResponse({"ok": True})


def hook_board(request: HttpRequest, token: str) -> HttpResponse:
    """The board image a match's channel message shows (notifications.hooks.board_image_url):
    the position after a move as a spectator sees it, for Discord or Slack to fetch. A token
    we did not sign answers 404."""
    from django.core import signing
    from django.http import Http404

    from games.board_image import board_png, public_board_svg

    from .hooks import BOARD_SALT

    try:
        match_id, seq, language = signing.loads(token, salt=BOARD_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        raise Http404 from None
    match = get_object_or_404(Match, pk=match_id)
    if not 0 <= seq <= match.head_seq:
        raise Http404
    with translation.override(language):
        svg = public_board_svg(match, seq)
    png = board_png(svg) if svg else None
    if png is None:
        raise Http404
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "public, max-age=31536000, immutable"  # a past position
    return response
