"""The local mailbox: the embedded default email backend. Keeps every sent message as an
.eml file under var/mailbox so the site can show it in DEBUG."""

from __future__ import annotations

from django.conf import settings
from django.core.mail.backends.filebased import EmailBackend


class LocalMailboxBackend(EmailBackend):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("file_path", str(settings.VAR_DIR / "mailbox"))
        super().__init__(*args, **kwargs)
