"""One transport class per channel. `notify(row)` sends and returns the provider's message
id, or raises TransportError saying whether trying again could help (healthchecks' shape)."""

from __future__ import annotations

import http.client
import ipaddress
import json
import re
import smtplib
import socket
import ssl
from urllib.parse import urlsplit

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils.translation import gettext as _


class TransportError(Exception):
    """A send that did not happen. `permanent`: trying the same message again cannot help.
    `address`: the recipient's address itself was refused or is not an address."""

    def __init__(self, message: str, permanent: bool = False, address: bool = False):
        super().__init__(message)
        self.message = message
        self.permanent = permanent or address
        self.address = address


# 401/403: the ESP refused our credentials, 408/429: too slow or too many. An operator or
# time fixes those; the message itself was fine, so they are retried.
RETRIED_CLIENT_ERRORS = (401, 403, 408, 409, 429)


def describe(error: Exception) -> str:
    """The error's message; anymail's own `str()` can raise on a partial response."""
    try:
        return str(error)
    except Exception:
        return str(error.args[0]) if error.args else type(error).__name__


def classify_email_error(error: Exception) -> TransportError:
    """What an exception raised while sending an email means for the outbox, by anymail's
    exception types (and smtplib's, for the SMTP backend)."""
    from anymail.exceptions import (
        AnymailAPIError,
        AnymailError,
        AnymailInvalidAddress,
        AnymailRecipientsRefused,
    )

    if isinstance(error, TransportError):
        return error
    text = describe(error)
    if isinstance(error, (AnymailRecipientsRefused, AnymailInvalidAddress)):
        return TransportError(f"address refused: {text}", address=True)
    if isinstance(error, AnymailAPIError):
        code = getattr(error, "status_code", None) or 0
        permanent = 400 <= code < 500 and code not in RETRIED_CLIENT_ERRORS
        label = f"ESP answered {code}" if code else "ESP unreachable"
        return TransportError(f"{label}: {text}", permanent=permanent)
    if isinstance(error, AnymailError):  # serialization, unsupported feature: the message
        return TransportError(f"message refused by the ESP backend: {text}", permanent=True)
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return TransportError(f"address refused: {text}", address=True)
    if isinstance(error, smtplib.SMTPResponseException):
        return TransportError(
            f"mail server answered {error.smtp_code}: {text}",
            permanent=(500 <= error.smtp_code < 600),
        )
    if isinstance(error, (smtplib.SMTPException, OSError)):
        return TransportError(f"mail server: {text}")
    # A bug (a template, a backend): retried like an outage, then given up and shown to
    # the operator with the player's address marked failing, never silently lost.
    return TransportError(f"unexpected {type(error).__name__}: {text}")


class EmailTransport:
    """Through Django's email API: the local mailbox by default, an ESP via anymail."""

    def notify(self, row) -> str:
        from .emails import build_email

        try:
            message = build_email(row)
            message.send()
        except (OperationalError, InterfaceError):
            raise  # the database went away while the mail was built: no delivery failed
        except Exception as error:
            raise classify_email_error(error) from error
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


# Discord's markdown and mentions: a backslash before any of these shows it as itself. A
# heading or a list ('#', '-') is markup only at a line's start.
DISCORD_MARKUP = r"(?P<char>[\\*_~`|<>\[\]()@])|(?m:^(?P<indent>[ \t]*)(?P<start>[#-]))"


def discord_text(text: str) -> str:
    """`text` as Discord shows it literally: no mention, markdown or masked link of a
    player's name or chat comes alive. Our own links (the match's page) stay links."""
    own = re.escape(settings.SITE_URL.rstrip("/") + "/") + r"[A-Za-z0-9/._~%?=&+-]*(?=\s|$)"

    def escaped(m: re.Match) -> str:
        if m.group("own"):
            return m.group("own")
        if m.group("char"):
            return "\\" + m.group("char")
        return m.group("indent") + "\\" + m.group("start")

    return re.sub(rf"(?P<own>{own})|{DISCORD_MARKUP}", escaped, text)


def slack_text(text: str) -> str:
    """`text` for Slack's `text` (mrkdwn): `<!channel>`, `<@U…>` and `<url|label>` are its
    controls, written with `<` and `>`, so those and `&` are escaped as Slack asks."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _cut(text: str, limit: int) -> str:
    """At most `limit` characters, never ending in half an escape."""
    cut = text[:limit]
    return cut[:-1] if len(text) > limit and cut.endswith("\\") else cut


def webhook_payload(text: str, kind: str = "", image: str = "") -> dict:
    """Discord reads `content`, Slack reads `text`: one body serves both, each written so
    that nothing in it mentions anyone (Discord is also told to parse no mention at all).
    With `image` (the board's address), Discord shows it as an embed's image and Slack as
    an image block."""
    payload = {
        "content": _cut(discord_text(text), 2000),
        "allowed_mentions": {"parse": []},
        "text": slack_text(text),
    }
    if image and kind == "discord":
        payload["embeds"] = [{"image": {"url": image}}]
    elif image and kind == "slack":
        payload["blocks"] = [  # plain_text: Slack reads nothing in it as a control
            {"type": "section", "text": {"type": "plain_text", "text": text[:3000]}},
            {"type": "image", "image_url": image, "alt_text": text[:2000]},
        ]
    return payload


def _allow_private() -> bool:
    return settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS


def resolve_webhook(url: str) -> tuple[str, str]:
    """(address to connect to, '') or ('', why not). The name is resolved once, here: the
    request goes to this address, so a name that resolves elsewhere a second later (DNS
    rebinding) changes nothing. Private, loopback, link-local and other non-public addresses
    only with NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS (whatever DEBUG says), so a webhook cannot
    probe the server's own network."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        return "", _("A webhook must be an http(s) URL.")
    allow_private = _allow_private()
    if parts.scheme != "https" and not allow_private:
        return "", _("A webhook must use https.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError):
        return "", _("The host %(host)s cannot be found.") % {"host": parts.hostname}
    addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]
    if not addresses:
        return "", _("The host %(host)s cannot be found.") % {"host": parts.hostname}
    if not allow_private and not all(a.is_global for a in addresses):
        return "", _("A webhook must point to a public address.")
    return str(addresses[0]), ""


def check_webhook_url(url: str) -> str:
    """'' if the URL may be used, else why not."""
    return resolve_webhook(url)[1]


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the address resolved and checked before; Host names the URL's host."""

    def __init__(self, host: str, port: int, *, address: str, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """As above, and the certificate must be valid for the URL's host name."""

    def __init__(self, host: str, port: int, *, address: str, timeout: float):
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


class WebhookTransport:
    """A JSON POST compatible with Discord and Slack incoming webhooks. Redirects are not
    followed: a webhook that answers 3xx is refused, as the place it points to was never
    checked."""

    timeout = 10

    def notify(self, row) -> str:
        from .emails import webhook_text

        address, problem = resolve_webhook(row.address)
        if problem:
            raise TransportError(problem, permanent=True)
        kind, image = row.context.get("hook", ""), row.context.get("image", "")
        text = webhook_text(row)
        if kind == "json":  # any JSON webhook: the facts beside the text, as it was written
            payload = {"match": row.match_id, "seq": row.seq, "text": text}
            payload |= {"image": image} if image else {}
        else:
            payload = webhook_payload(text, kind, image)
        body = json.dumps(payload).encode()
        return self.post(row.address, address, body)

    def post(self, url: str, address: str, body: bytes) -> str:
        parts = urlsplit(url)
        https = parts.scheme == "https"
        connection_class = _PinnedHTTPSConnection if https else _PinnedHTTPConnection
        connection = connection_class(
            parts.hostname,
            parts.port or (443 if https else 80),
            address=address,
            timeout=self.timeout,
        )
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        headers = {"Content-Type": "application/json", "User-Agent": settings.SITE_NAME}
        try:
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            response.read(1024)
        except (OSError, http.client.HTTPException) as error:
            raise TransportError(f"webhook unreachable: {error}") from error
        finally:
            connection.close()
        code = response.status
        if 300 <= code < 400:
            raise TransportError(
                f"webhook answered {code} (a redirect, which is not followed)", permanent=True
            )
        if code >= 400:
            permanent = code < 500 and code not in (408, 429)
            raise TransportError(f"webhook answered {code}", permanent=permanent)
        return ""


class PushTransport:
    """Web Push to each browser the player turned push on in (notifications.push)."""

    def notify(self, row) -> str:
        from .emails import match_label, match_url, webhook_text
        from .push import send

        match = row.match
        title = (
            _("Your turn in %(label)s") % {"label": match_label(match)}
            if match
            else settings.SITE_NAME
        )
        reached = send(row.user, title, webhook_text(row), match_url(match) if match else "")
        return f"push to {reached} browser{'s' if reached != 1 else ''}"


def transport_for(channel: str):
    from .models import Channel

    transports = {
        Channel.EMAIL: EmailTransport,
        Channel.WEBHOOK: WebhookTransport,
        Channel.PUSH: PushTransport,
    }
    return transports[channel]()
