"""Thin views: preferences, one-click unsubscribe, the chat post, the local mailbox."""

from __future__ import annotations

from csp.constants import NONE, SELF
from csp.decorators import csp
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import NoReverseMatch, reverse
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games.chat import ChatError, chat_for, post_message
from games.models import Match
from players import limits
from players.decorators import real_sign_in_required
from players.models import NoticeMode, Vacation
from players.preferences import book_vacation, saved_prefs_for, vacation_allowance

from . import inbound
from . import mailbox as local_mailbox
from .digest import reschedule_digest
from .forms import MailboxReplyForm, PreferencesForm, VacationForm
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
                messages.success(request, "Your preferences are saved.")
                return redirect("notifications:preferences")
        elif action == "address-works":
            mark_working(user=request.user)
            messages.success(request, "We will email you again, and your deadlines run again.")
            return redirect("notifications:preferences")
        elif action == "webhook-works":
            mark_webhook_working(user=request.user)
            messages.success(request, "We will use your webhook again.")
            return redirect("notifications:preferences")
        elif action == "vacation":
            vacation_form = VacationForm(request.POST)
            if vacation_form.is_valid():
                try:
                    book_vacation(user=request.user, **vacation_form.cleaned_data)
                except ValueError as error:
                    vacation_form.add_error(None, str(error))
                else:
                    messages.success(request, "Vacation booked: your deadlines skip those days.")
                    return redirect("notifications:preferences")
        elif action == "cancel-vacation":
            Vacation.objects.filter(user=request.user, pk=request.POST.get("vacation")).delete()
            reschedule_reminders(request.user)  # deadlines come back earlier
            return redirect("notifications:preferences")
    return _page(
        request,
        "notifications/preferences.html",
        {
            "form": form,
            "vacation_form": vacation_form,
            "prefs": prefs,
            "vacations": Vacation.objects.filter(user=request.user),
            "allowance": vacation_allowance(),
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


def _match_path(match: Match) -> str:
    try:
        return reverse("match_detail", args=[match.pk])
    except NoReverseMatch:
        return f"/matches/{match.pk}/"


@login_required
@require_POST
def chat_post(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    error = ""
    try:
        if not limits.allow("chat", str(request.user.pk), limit=limits.CHAT_MESSAGES_PER_HOUR):
            raise ChatError("You have sent many messages this hour; wait a little.")
        post_message(match=match, user=request.user, text=request.POST.get("text", ""))
    except ChatError as problem:
        error = problem.message
    if getattr(request, "htmx", False):
        can_chat = match.seats.filter(user=request.user).exists()
        return render(
            request,
            "notifications/chat.html",
            {
                "match": match,
                "chat_messages": chat_for(match),
                "can_chat": can_chat,
                "chat_error": error,
            },
        )
    if error:
        messages.error(request, error)
    return redirect(_match_path(match) + "#chat")


def _mailbox_visible(request: HttpRequest) -> None:
    if not local_mailbox.visible_to(request):
        raise Http404("The local mailbox is shown only in DEBUG, to staff or on a loopback server.")


def mailbox(request: HttpRequest) -> HttpResponse:
    _mailbox_visible(request)
    to = request.GET.get("to", "")
    return _page(
        request,
        "notifications/mailbox.html",
        {"mails": local_mailbox.list_mail(to=to), "to": to, "folder": local_mailbox.mailbox_dir()},
    )


def mailbox_message(request: HttpRequest, name: str) -> HttpResponse:
    _mailbox_visible(request)
    mail = local_mailbox.get_mail(name)
    if mail is None:
        raise Http404("No such message in the local mailbox.")
    form = MailboxReplyForm(request.POST or None)
    result = None
    if request.method == "POST" and form.is_valid():
        raw, recipient, sender = local_mailbox.reply_bytes(mail, body=form.cleaned_data["body"])
        result = inbound.receive_raw(raw, recipient=recipient, sender=sender)
        messages.success(
            request,
            f"Reply delivered: {result.get_status_display()}. "
            "The answer is at the top of the mailbox.",
        )
        return redirect(reverse("notifications:mailbox") + f"?to={sender}")
    return _page(request, "notifications/mailbox_message.html", {"mail": mail, "form": form})


# An email's HTML part is shown in a sandboxed frame of its own: email HTML is styled
# inline, which the site's policy forbids, and it may run nothing and load nothing.
@xframe_options_sameorigin
@csp(
    {
        "default-src": [NONE],
        "style-src": ["'unsafe-inline'"],
        "img-src": ["data:"],
        "frame-ancestors": [SELF],
        "sandbox": True,
    }
)
def mailbox_message_html(request: HttpRequest, name: str) -> HttpResponse:
    _mailbox_visible(request)
    mail = local_mailbox.get_mail(name)
    if mail is None or not mail.html:
        raise Http404("No such message in the local mailbox.")
    return HttpResponse(mail.html, content_type="text/html; charset=utf-8")
