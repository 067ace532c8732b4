"""The local mailbox: the embedded default email backend. Keeps every sent message as one
.eml file under var/mailbox, which the site shows in DEBUG (replies:mailbox), where a
reply can be typed and fed through the same inbound path as real mail. It holds everyone's
sign-in links, so it is shown only to staff, or to anyone on a server that listens on the
loopback interface only (`serve` on its default host sets LOCAL_MAILBOX_OPEN)."""

from __future__ import annotations

import base64
import email
import email.utils
import ipaddress
import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone

_NAME = re.compile(r"^[0-9]{8}T[0-9]{12}-[0-9a-f]{8}\.eml$")


def visible_to(request) -> bool:
    if not settings.DEBUG:
        return False
    if request.user.is_authenticated and request.user.is_staff:
        return True
    remote = request.META.get("REMOTE_ADDR", "")
    return settings.LOCAL_MAILBOX_OPEN and ipaddress.ip_address(remote or "0.0.0.0").is_loopback


def mailbox_dir() -> Path:
    return Path(getattr(settings, "LOCAL_MAILBOX_DIR", settings.VAR_DIR / "mailbox"))


class LocalMailboxBackend(BaseEmailBackend):
    def send_messages(self, email_messages) -> int:
        folder = mailbox_dir()
        folder.mkdir(parents=True, exist_ok=True)
        for message in email_messages:
            name = f"{timezone.now():%Y%m%dT%H%M%S%f}-{uuid.uuid4().hex[:8]}.eml"
            (folder / name).write_bytes(message.message().as_bytes())
        return len(email_messages)


@dataclass
class StoredMail:
    name: str
    message: EmailMessage

    def header(self, name: str) -> str:
        return str(self.message.get(name, ""))

    @property
    def subject(self) -> str:
        return self.header("Subject")

    @property
    def to(self) -> str:
        return self.header("To")

    @property
    def reply_to(self) -> str:
        return self.header("Reply-To")

    @property
    def date(self) -> str:
        return self.header("Date")

    @property
    def sent_at(self) -> datetime | None:
        """The Date header as a moment, for the page to say in the reader's words (the
        header itself is English by its standard: 'Mon, 07 Dec 2026')."""
        try:
            return email.utils.parsedate_to_datetime(self.date)
        except (TypeError, ValueError):
            return None

    def _part(self, kind: str) -> str:
        part = self.message.get_body(preferencelist=(kind,))
        return part.get_content() if part is not None else ""

    @property
    def text(self) -> str:
        return self._part("plain")

    @property
    def html(self) -> str:
        """The HTML part, its inline images (a board as PNG, `cid:`) written in as data: URIs,
        since the mailbox page's frame cannot reach the message's other parts."""
        html = self._part("html")
        for part in self.message.walk():
            cid = "cid:" + str(part.get("Content-ID", "")).strip("<>")
            if part.get_content_maintype() != "image" or len(cid) < 5 or cid not in html:
                continue
            data = base64.b64encode(part.get_payload(decode=True) or b"").decode()
            html = html.replace(cid, f"data:{part.get_content_type()};base64,{data}")
        return html

    @property
    def first_line(self) -> str:
        """What the message says (a match's mails share one subject, for threading)."""
        return next((line for line in self.text.splitlines() if line.strip()), "")


def _read(path: Path) -> StoredMail:
    message = email.message_from_bytes(path.read_bytes(), policy=default_policy)
    return StoredMail(path.name, message)


def list_mail(limit: int = 200, to: str = "") -> list[StoredMail]:
    folder = mailbox_dir()
    if not folder.is_dir():
        return []
    names = sorted((p for p in folder.iterdir() if _NAME.match(p.name)), reverse=True)
    found = []
    for path in names:
        mail = _read(path)
        if to and to.lower() not in mail.to.lower():
            continue
        found.append(mail)
        if len(found) >= limit:
            break
    return found


def get_mail(name: str) -> StoredMail | None:
    if not _NAME.match(name):
        return None
    path = mailbox_dir() / name
    return _read(path) if path.is_file() else None


def reply_bytes(original: StoredMail, *, body: str) -> tuple[bytes, str, str]:
    """A reply as a mail client would write it: the text above the quoted original.
    Returns the raw message, its envelope recipient and sender."""
    reply = EmailMessage()
    sender = original.to
    recipient = original.reply_to or original.header("From")
    reply["From"] = sender
    reply["To"] = recipient
    subject = original.subject
    reply["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    reply["Message-ID"] = f"<{uuid.uuid4().hex}@mailbox.local>"
    reply["In-Reply-To"] = original.header("Message-ID")
    reply["References"] = original.header("Message-ID")
    reply["Date"] = email.utils.format_datetime(timezone.now())
    quoted = "\n".join("> " + line for line in original.text.splitlines())
    reply.set_content(
        f"{body.strip()}\n\nOn {original.date}, {original.header('From')} wrote:\n{quoted}\n"
    )
    return reply.as_bytes(), email.utils.parseaddr(recipient)[1], email.utils.parseaddr(sender)[1]
