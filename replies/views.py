"""The local mailbox (the embedded defaults' mail client): the mail the server sent, each
message, and a reply written on the page and handled as a player's reply."""

from __future__ import annotations

from csp.constants import NONE, SELF
from csp.decorators import csp
from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_sameorigin

from notifications import mailbox as local_mailbox

from . import inbound


class MailboxReplyForm(forms.Form):
    body = forms.CharField(widget=forms.Textarea(attrs={"rows": 5}), max_length=10000)


def _mailbox_visible(request: HttpRequest) -> None:
    if not local_mailbox.visible_to(request):
        raise Http404("The local mailbox is shown only in DEBUG, to staff or on a loopback server.")


def mailbox(request: HttpRequest) -> HttpResponse:
    _mailbox_visible(request)
    to = request.GET.get("to", "")
    return render(
        request,
        "replies/mailbox.html",
        {
            "base_template": "base.html",
            "mails": local_mailbox.list_mail(to=to),
            "to": to,
            "folder": local_mailbox.mailbox_dir(),
        },
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
            _("Reply delivered: %(status)s. The answer is at the top of the mailbox.")
            % {"status": result.get_status_display()},
        )
        return redirect(reverse("replies:mailbox") + f"?to={sender}")
    return render(
        request,
        "replies/mailbox_message.html",
        {"base_template": "base.html", "mail": mail, "form": form},
    )


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
