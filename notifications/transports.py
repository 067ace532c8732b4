"""One transport class per channel. `notify(row)` sends and returns the provider's message
id, or raises TransportError saying whether trying again could help (healthchecks' shape)."""

from __future__ import annotations

import ipaddress
import json
import smtplib
import socket
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from django.conf import settings


class TransportError(Exception):
    def __init__(self, message: str, permanent: bool = False):
        super().__init__(message)
        self.message = message
        self.permanent = permanent


class EmailTransport:
    """Through Django's email API: the local mailbox by default, an ESP via anymail."""

    def notify(self, row) -> str:
        from anymail.exceptions import AnymailAPIError, AnymailRecipientsRefused

        from .emails import build_email

        message = build_email(row)
        try:
            message.send()
        except AnymailRecipientsRefused as error:
            raise TransportError(f"recipient refused: {error}", permanent=True) from error
        except AnymailAPIError as error:
            code = getattr(error, "status_code", None) or 0
            permanent = 400 <= code < 500 and code not in (408, 429)
            raise TransportError(f"ESP error: {error}", permanent=permanent) from error
        except smtplib.SMTPRecipientsRefused as error:
            raise TransportError(f"recipient refused: {error}", permanent=True) from error
        except (smtplib.SMTPException, OSError) as error:
            raise TransportError(f"mail server: {error}") from error
        status = getattr(message, "anymail_status", None)
        if status is not None and status.message_id is not None and status.message_id != "":
            return provider_id(status.message_id)
        return message.extra_headers.get("Message-ID", "")


def provider_id(ids) -> str:
    """anymail's `message_id` as text: one id (a string, or a number as anymail's test
    backend gives), or a set of them when recipients got different ids."""
    if isinstance(ids, str):
        return ids
    if isinstance(ids, (set, frozenset, list, tuple)):
        return ",".join(sorted(str(i) for i in ids if i is not None))
    return str(ids)


def webhook_payload(text: str) -> dict:
    """Discord reads `content`, Slack reads `text`: one body serves both."""
    return {"content": text[:2000], "text": text}


def check_webhook_url(url: str) -> str:
    """'' if the URL may be used, else why not. Private addresses only in DEBUG (or when
    NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS is set), so a webhook cannot probe the server's
    own network."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        return "A webhook must be an http(s) URL."
    allow_private = getattr(settings, "NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS", settings.DEBUG)
    if parts.scheme != "https" and not allow_private:
        return "A webhook must use https."
    if allow_private:
        return ""
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or 443)
    except OSError:
        return f"The host {parts.hostname} cannot be found."
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if not address.is_global:
            return "A webhook must point to a public address."
    return ""


class WebhookTransport:
    """A JSON POST compatible with Discord and Slack incoming webhooks."""

    timeout = 10

    def notify(self, row) -> str:
        from .emails import webhook_text

        problem = check_webhook_url(row.address)
        if problem:
            raise TransportError(problem, permanent=True)
        body = json.dumps(webhook_payload(webhook_text(row))).encode()
        request = urllib.request.Request(
            row.address,
            data=body,
            method="POST",
            headers={"Content-Type": "application/json", "User-Agent": settings.SITE_NAME},
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                response.read(1024)
        except urllib.error.HTTPError as error:
            permanent = 400 <= error.code < 500 and error.code not in (408, 429)
            raise TransportError(f"webhook answered {error.code}", permanent=permanent) from error
        except (urllib.error.URLError, OSError) as error:
            raise TransportError(f"webhook unreachable: {error}") from error
        return ""


def transport_for(channel: str):
    from .models import Channel

    return {Channel.EMAIL: EmailTransport, Channel.WEBHOOK: WebhookTransport}[channel]()
