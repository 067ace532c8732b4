"""Mail written by a machine: auto-replies (RFC 3834), delivery and read reports (RFC 3464,
RFC 8098), list traffic. It is dropped without an answer, so two robots never talk."""

from __future__ import annotations

import re
from email.message import Message

from .decode import address, content_type, header, raw_header

# Subjects of out-of-office replies from servers that do not mark them (older Exchange,
# some hosted mail), in the languages we read.
_AUTO_REPLY_SUBJECT = re.compile(
    r"(?i)^(automatic reply|auto-?reply|autoreply|out of (the )?office|automatische antwort|"
    r"abwesenheitsnotiz|réponse automatique|automatisch antwoord|afwezigheidsbericht|"
    r"respuesta automática|fuera de la oficina|risposta automatica|fuori sede|"
    r"resposta automática|ausência temporária|autosvar|automatisk svar|fraværende|"
    r"automatyczna odpowiedź|poza biurem|automatická odpověď|mimo kancelář)\b"
)


def machine_mail(message: Message, envelope_sender: str | None) -> str:
    """Why this message was written by a machine, or ''."""
    auto = raw_header(message, "Auto-Submitted").lower() or "no"
    if not auto.startswith("no"):
        return f"Auto-Submitted: {auto[:60]}"
    precedence = raw_header(message, "Precedence").lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for name in ("List-Id", "List-Post", "List-Unsubscribe", "X-Autoreply", "X-Autorespond"):
        if raw_header(message, name):
            return f"{name} header"
    if content_type(message) == "multipart/report":
        return "delivery or read report"
    if envelope_sender is not None and envelope_sender.strip() in ("", "<>"):
        return "empty envelope sender (a bounce)"
    if raw_header(message, "Return-Path") == "<>":
        return "empty Return-Path (a bounce)"
    local = address(message, "From").split("@")[0]
    if local in ("mailer-daemon", "postmaster", "noreply", "no-reply", "donotreply"):
        return f"From {local}"
    subject = header(message, "Subject")
    if _AUTO_REPLY_SUBJECT.match(subject):
        return "auto-reply subject"
    return ""
