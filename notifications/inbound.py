"""Email in: a reply is a move.

Every message is first recorded once, keyed on its Message-ID; machine mail (auto-replies,
bounces, list traffic) is dropped then and there. Handling checks the reply token in the
recipient address and that the sender is the seat's player, strips the quoted text and
signature, and reads the commands line by line. Moves go through games.services.submit_move
with the Message-ID and line index as idempotency key, so a message delivered twice plays
once. The answer goes only to the player's registered address.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field
from email.utils import parseaddr

from anymail.inbound import AnymailInboundMessage
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.html import strip_tags
from mailparser_reply import EmailReplyParser

from games import commands, selectors, services
from games.engine import IllegalMove
from games.models import Match, MatchStatus, Move, MoveSource, Seat

from . import outbox
from .models import Channel, InboundMessage, InboundStatus, Kind, Notification, Status
from .tokens import token_in_addresses

log = logging.getLogger(__name__)

MAX_COMMAND_LINES = 30
REPLY_LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "sv", "pl", "pt", "da", "ja", "cs"]
WORDS = ("status", "help", "resign", "say")


# --- recording --------------------------------------------------------------------------


def normalised_message_id(message: AnymailInboundMessage, raw: str) -> str:
    value = (message.get("Message-ID") or "").strip()
    found = re.search(r"<([^>]+)>", value)
    value = (found.group(1) if found else value).strip()
    if not value:  # a message without one: its content names it
        value = "sha256:" + hashlib.sha256(raw.encode("utf-8", "replace")).hexdigest()
    return value[:500]


def machine_mail(message: AnymailInboundMessage) -> str:
    """Why this message was written by a machine (RFC 3834, RFC 3464, list headers), or ''."""
    auto = (message.get("Auto-Submitted") or "no").strip().lower()
    if auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = (message.get("Precedence") or "").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for header in ("List-Id", "List-Post", "X-Autoreply", "X-Autorespond"):
        if message.get(header):
            return f"{header} header"
    if message.get_content_type() == "multipart/report":
        return "delivery report"
    envelope_sender = getattr(message, "envelope_sender", None)
    if envelope_sender is not None and envelope_sender.strip() in ("", "<>"):
        return "empty envelope sender (a bounce)"
    if (message.get("Return-Path") or "").strip() == "<>":
        return "empty Return-Path (a bounce)"
    local = parseaddr(message.get("From") or "")[1].split("@")[0].lower()
    if local in ("mailer-daemon", "postmaster"):
        return f"From {local}"
    return ""


def _recipients(message: AnymailInboundMessage) -> list[str]:
    found = [getattr(message, "envelope_recipient", None) or ""]
    for header in ("Delivered-To", "X-Original-To", "To", "Cc"):
        found.extend(message.get_all(header) or [])
    return [str(a) for a in found if a]


def record(message: AnymailInboundMessage) -> tuple[InboundMessage, bool]:
    """Store the message once. Returns (row, created); a redelivery returns the first row."""
    raw = message.as_string()
    message_id = normalised_message_id(message, raw)
    existing = InboundMessage.objects.filter(message_id=message_id).first()
    if existing is not None:
        return existing, False
    token_address = next(
        (a for a in _recipients(message) if token_in_addresses([a])), _recipients(message)[0]
    )
    dropped = machine_mail(message)
    try:
        with transaction.atomic():
            row = InboundMessage.objects.create(
                message_id=message_id,
                recipient=token_address[:500],
                sender=parseaddr(message.get("From") or "")[1][:500],
                subject=(message.get("Subject") or "")[:500],
                raw=raw,
                status=InboundStatus.DROPPED if dropped else InboundStatus.RECEIVED,
                outcome=dropped,
            )
    except IntegrityError:  # a concurrent delivery of the same message won
        return InboundMessage.objects.get(message_id=message_id), False
    if dropped:
        log.info("inbound %s dropped: %s", message_id, dropped)
    return row, True


def receive_raw(raw: bytes, *, recipient: str = "", sender: str | None = None) -> InboundMessage:
    """An MTA pipe or the local mailbox: record and handle one RFC 822 message now."""
    message = AnymailInboundMessage.parse_raw_mime_bytes(raw)
    if recipient:
        message.envelope_recipient = recipient
    if sender is not None:
        message.envelope_sender = sender
    row, _ = record(message)
    return handle(row.pk)


# --- reading the body -------------------------------------------------------------------


def body_text(message: AnymailInboundMessage) -> str:
    text = message.text
    if not text and message.html:
        text = strip_tags(re.sub(r"(?i)<br\s*/?>|</p>|</div>", "\n", message.html))
    return (text or "").replace("\r\n", "\n")


# What the parser may leave: a bottom-posted reply's attribution line, a phone's sign-off,
# a closing before the signature.
_ATTRIBUTION = re.compile(
    r"(?i)^(on|am|le|el|il|op|den|em)\b.*(wrote|schrieb|a écrit|escribió|ha scritto|schreef|"
    r"skrev|escreveu):?$"
)
_SIGN_OFF = re.compile(
    r"(?i)^(sent from my\b|sent from (mail|outlook|yahoo)|get outlook for|sent with\b|"
    r"von meinem .* gesendet|envoyé de mon|enviado desde mi|inviato da)"
)
_CLOSING = re.compile(
    r"(?i)^((best|kind|warm|many)\s+)?(regards|wishes|thanks)[,.!]?$|^(thanks|thank you|"
    r"cheers|bye|ciao|greetings|sincerely|yours|cordially|groetjes|grüße|gruß|merci)[,.!]?$"
)


def strip_reply(text: str) -> str:
    """The new part of a reply: quoted text, the 'On ... wrote:' line and the signature
    removed. mail-parser-reply knows the common clients' layouts in many languages; the
    rest catches what it leaves: bottom-posted replies, phone sign-offs, closings."""
    latest = EmailReplyParser(languages=REPLY_LANGUAGES).parse_reply(text) or ""
    lines = []
    for line in latest.splitlines():
        bare = line.strip()
        if bare in ("--", "-- ", "__") or _SIGN_OFF.match(bare) or _CLOSING.match(bare):
            break
        if bare.startswith(">") or _ATTRIBUTION.match(bare):
            continue
        lines.append(line)
    return "\n".join(lines).strip()


def command_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()][:MAX_COMMAND_LINES]


# --- handling ---------------------------------------------------------------------------


@dataclass
class Report:
    lines: list[dict] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)
    failed: str = ""
    outdated: bool = False
    help: str = ""
    posted: bool = False

    def add(self, line: str, outcome: str) -> None:
        self.lines.append({"line": line, "outcome": outcome})


def handle(pk: int) -> InboundMessage:
    """Handle a recorded message once. Everything it does commits together: the moves, the
    chat, the answer. A message already handled is left alone."""
    with transaction.atomic():
        row = InboundMessage.objects.select_for_update().get(pk=pk)
        if row.status != InboundStatus.RECEIVED:
            return row
        message = AnymailInboundMessage.parse_raw_mime(row.raw)
        message.envelope_recipient = row.recipient
        try:
            status, outcome = _handle(row, message)
        except Exception:
            log.exception("inbound %s could not be handled", row.message_id)
            transaction.set_rollback(True)
            raise
        row.status, row.outcome = status, outcome[:2000]
        row.save(update_fields=["status", "outcome", "match", "seat"])
    return row


def _registered_user(address: str):
    return get_user_model().objects.filter(email__iexact=address).first() if address else None


def _handle(row: InboundMessage, message: AnymailInboundMessage) -> tuple[str, str]:
    token = token_in_addresses(_recipients(message))
    sender = parseaddr(message.get("From") or "")[1].strip().lower()
    if token is None:
        user = _registered_user(sender)
        if user is not None:
            _answer_without_match(row, user)
        return InboundStatus.REJECTED, "no valid reply token in the recipient address"
    match = Match.objects.filter(pk=token.match_id).first()
    seat = match and match.seats.select_related("user").filter(number=token.seat).first()
    if not match or not seat or seat.user is None:
        return InboundStatus.REJECTED, "the token names no seat with a player"
    row.match, row.seat = match, seat.number
    registered = (seat.user.email or "").strip().lower()
    if sender != registered:
        _answer_wrong_sender(row, match, seat, sender)
        return InboundStatus.REJECTED, f"sender {sender} is not the seat's player"
    lines = command_lines(strip_reply(body_text(message)))
    report = run_commands(match, seat, token.seq, lines, row.message_id)
    _answer(row, match, seat, token.seq, lines, report)
    return InboundStatus.DONE, "; ".join(f"{r['line']}: {r['outcome']}" for r in report.lines)


def _key(message_id: str, index: int) -> str:
    return f"email:{hashlib.sha256(message_id.encode()).hexdigest()[:32]}:{index}"


def run_commands(
    match: Match, seat: Seat, token_seq: int, lines: list[str], message_id: str
) -> Report:
    """Play the lines in order; stop at the first that cannot be applied."""
    report = Report()
    moved = False  # after our own first move, the token's position is behind us by design
    for index, line in enumerate(lines):
        word, _, rest = line.partition(" ")
        word = word.lower().rstrip(":.,")
        if word == "status":
            report.add(line, "The position is below.")
            continue
        if word == "help":
            report.help = _help_text(match)
            report.add(line, "The commands are below.")
            continue
        if word == "say":
            from .chat import ChatError, post_message

            try:
                post_message(match=match, user=seat.user, text=rest, source="email")
            except ChatError as error:
                report.add(line, error.message)
                report.failed = line
                break
            report.posted = True
            report.add(line, "Posted to the match's board.")
            continue
        if word == "resign" and not rest.strip():
            result = services.resign(
                match_id=match.pk,
                seat=seat.number,
                source=MoveSource.EMAIL,
                idempotency_key=_key(message_id, index),
            )
            report.add(
                line,
                "You have resigned; a bot plays your seat on." if result.ok else result.message,
            )
            if not result.ok:
                report.failed = line
            break
        outcome, ok, command = _play(match, seat, token_seq, line, _key(message_id, index), moved)
        report.add(line, outcome)
        if not ok:
            report.failed = line
            report.outdated = outcome.startswith(OUTDATED)
            break
        moved = True
        report.applied.append(command)
    if len(report.lines) < len(lines):
        skipped = len(lines) - len(report.lines)
        report.add(
            "...",
            f"{skipped} more line{'s' if skipped > 1 else ''} not read: "
            "nothing after a line that could not be applied is played.",
        )
    return report


OUTDATED = "The game has moved on"


def _play(
    match: Match, seat: Seat, token_seq: int, line: str, key: str, moved: bool
) -> tuple[str, bool, str]:
    """Apply one move line. Returns (what to tell the player, applied?, the move as a
    command)."""
    if Move.objects.filter(match=match, idempotency_key=key).exists():
        return "Applied (this email was received before).", True, line
    for _ in range(3):  # another player's move between our read and our write: read again
        match.refresh_from_db()
        seat.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            over = "The match is over." if match.is_over else "The match has not started."
            return over, False, line
        if not moved and seat.deadline_seq != token_seq:
            return (
                (
                    f"{OUTDATED} since the email you answered, so this was not applied. "
                    "The current position is below."
                ),
                False,
                line,
            )
        game = match.game
        state = selectors.load_state(match)
        if seat.number not in game.to_act(state):
            return "It is not your turn now.", False, line
        try:
            move = commands.interpret(game, state, seat.number, line)
        except IllegalMove as error:
            return f"{error.message} Your choices are below.", False, line
        head = match.head_seq
        result = services.submit_move(
            match_id=match.pk,
            seat=seat.number,
            move=move,
            source=MoveSource.EMAIL,
            idempotency_key=key,
            expected_seq=head,
        )
        if result.ok:
            command = game.format_move(state, seat.number, move)
            note = " (this email was received before)" if result.duplicate else ""
            return f"Applied: {command}{note}.", True, command
        if Match.objects.filter(pk=match.pk, head_seq=head).exists():
            return f"{result.message} Your choices are below.", False, line
    return "The game is moving fast; please send this again.", False, line


def _help_text(match: Match) -> str:
    game = match.game
    text = game.help_text().strip()
    return (f"Commands of {game.title}:\n{text}\n" if text else "") + (
        "Any move may also be given by its number in the list of choices."
    )


# --- answering --------------------------------------------------------------------------


def _answer(
    row: InboundMessage, match: Match, seat: Seat, token_seq: int, lines: list[str], report: Report
) -> None:
    match.refresh_from_db()
    seat.refresh_from_db()
    asked = match.status == MatchStatus.ACTIVE and seat.number in match.to_act
    seq = seat.deadline_seq if asked and seat.deadline_seq is not None else match.head_seq
    if not lines:
        summary, intro = (
            "No command found",
            (
                "We found no command in your email. Write your move on the first line of your "
                "reply, above the quoted text."
            ),
        )
    elif report.outdated:
        summary, intro = (
            "The game has moved on",
            (
                "The game has moved on since the email you answered, so nothing was applied. "
                "Here is the position now; answer this email instead."
            ),
        )
    elif report.failed:
        summary = f"Not applied: {report.failed}"[:120]
        intro = (
            "Your email was read line by line. One line could not be applied; "
            "nothing after it was played."
        )
        if report.applied:
            intro += f" Before it, {len(report.applied)} move(s) were applied."
    elif report.applied:
        summary = "Applied: " + ", ".join(report.applied)
        intro = (
            "Your move was applied."
            if len(report.applied) == 1
            else (f"Your {len(report.applied)} moves were applied, in order.")
        )
    else:
        summary, intro = "Your commands", "Your commands were read."
    # The answer shows the new position: the turn notice written for it would say it twice.
    if asked:
        Notification.objects.filter(
            kind=Kind.TURN,
            channel=Channel.EMAIL,
            match=match,
            seat=seat.number,
            status=Status.PENDING,
            seq=seq,
        ).update(status=Status.SKIPPED, last_error="included in the answer to the player's email")
    outbox.write(
        kind=Kind.ANSWER,
        user=seat.user,
        dedupe_key=f"answer:{row.pk}",
        match=match,
        seat=seat.number,
        seq=seq,
        hold_for_quiet_hours=False,
        context={"report": report.lines, "summary": summary, "intro": intro, "help": report.help},
    )


def _answer_wrong_sender(row: InboundMessage, match: Match, seat: Seat, sender: str) -> None:
    outbox.write(
        kind=Kind.ANSWER,
        user=seat.user,
        dedupe_key=f"answer:{row.pk}",
        match=match,
        seat=seat.number,
        seq=match.head_seq,
        hold_for_quiet_hours=False,
        context={
            "summary": "Not applied: unknown sender",
            "intro": (
                f"We received a reply for your seat from {sender}, which is not the address "
                "registered for you, so nothing in it was applied. Please answer from this "
                "address."
            ),
            "report": [],
        },
    )


def _answer_without_match(row: InboundMessage, user) -> None:
    outbox.write(
        kind=Kind.ANSWER,
        user=user,
        dedupe_key=f"answer:{row.pk}",
        hold_for_quiet_hours=False,
        context={
            "summary": "Which match?",
            "intro": (
                "We received your email but could not tell which match it was for: the "
                "address it was sent to carries no valid match token. Reply to the email "
                "that asked for your move (its reply address names the match and your seat)."
            ),
            "report": [],
        },
    )


def reprocess_stuck(older_than) -> int:
    """Messages recorded but never handled (a worker died): handle them now."""
    ids = list(
        InboundMessage.objects.filter(
            status=InboundStatus.RECEIVED, received_at__lt=older_than
        ).values_list("pk", flat=True)[:100]
    )
    for pk in ids:
        try:
            handle(pk)
        except Exception:
            log.exception("inbound %s still cannot be handled", pk)
    return len(ids)
