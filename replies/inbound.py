"""Email in: a reply is a move.

Every message is recorded once, keyed on its Message-ID, and ends in a terminal state in
the same pass: played and answered (`done`), refused with a reason (`rejected`, answered at
the registered address when there is one to tell), or dropped with a reason (`dropped`:
machine mail). Reading goes through `replies.reading` (decode, format=flowed, HTML,
the player's own text), which never raises on any input. Moves go through
games.services.submit_move with the Message-ID and line index as idempotency key, so a
message delivered twice plays once. The answer goes only to the player's registered address.
Only a database that cannot be reached leaves a message `received`: the MTA retries it (the
pipe exits 75) and the outbox sweep handles what a worker left.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field
from datetime import timedelta
from email.message import Message
from email.policy import compat32
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, InterfaceError, OperationalError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop, ngettext

from games import commands, language, selectors, services
from games.engine import IllegalMove, ParseError
from games.engine.names import find_player
from games.engine.numbers import is_number, read_number
from games.models import Match, MatchStatus, MoveSource, Seat
from notifications import emails, outbox
from notifications.models import Channel, Kind, Notification, Status
from tournaments.models import Tournament
from tournaments.services import join, withdraw

from . import organiser
from .models import InboundMessage, InboundStatus
from .reading import decode
from .reading.machine import machine_mail
from .reading.quotes import own_text
from .reading.trust import authentication_failures
from .tokens import organiser_token_in_addresses, token_in_addresses

log = logging.getLogger(__name__)

MAX_COMMAND_LINES = 30
MAX_OWN_LINES = 400
# Words no game uses ("offer" and "skip" are moves of Blankenburg and Nieuwstad).
BUILTIN_WORDS = (
    "status",
    "help",
    "resign",
    "say",
    "undo",
    "substitute",
    "expel",
    "withdraw",
    "tournament",
    "takeover",
)
# A database that cannot be reached: the only failure that leaves a message for later.
DATABASE_DOWN = (OperationalError, InterfaceError)

# --- the stored form ----------------------------------------------------------------------
# `raw` is text; a message that is not UTF-8 is kept as Latin-1 (byte for byte) under a
# marker line, and one over INBOUND_MAX_BYTES is kept up to that size (its text comes first
# in every client's layout; attachments are never read).
_LATIN1 = "X-Pbm-Stored-As: latin-1\n"
_TRUNCATED = re.compile(r"^X-Pbm-Truncated-From: (\d+)\n")


def _store(raw: bytes) -> str:
    limit = getattr(settings, "INBOUND_MAX_BYTES", 512 * 1024)
    prefix = ""
    if len(raw) > limit:
        prefix = f"X-Pbm-Truncated-From: {len(raw)}\n"
        raw = raw[:limit]
    raw = raw.replace(b"\x00", b"")
    try:
        return prefix + raw.decode("utf-8")
    except UnicodeDecodeError:
        return _LATIN1 + prefix + raw.decode("latin-1")


def _load(stored: str) -> tuple[bytes, int]:
    """The message's bytes and, when it was cut, its original size (else 0)."""
    latin1 = stored.startswith(_LATIN1)
    if latin1:
        stored = stored[len(_LATIN1) :]
    cut = _TRUNCATED.match(stored)
    size = int(cut.group(1)) if cut else 0
    if cut:
        stored = stored[cut.end() :]
    if latin1:
        return stored.encode("latin-1", "replace"), size
    return stored.encode("utf-8", "surrogateescape"), size


# --- recording ----------------------------------------------------------------------------


def normalised_message_id(message: Message, raw: bytes) -> str:
    value = decode.raw_header(message, "Message-ID")
    found = re.search(r"<([^<>]+)>", value)
    value = (found.group(1) if found else value).strip()
    if not value:  # a message without one: its content names it
        value = "sha256:" + hashlib.sha256(raw).hexdigest()
    return value[:500]


def _recipients(message: Message, envelope_recipient: str = "") -> list[str]:
    found = [envelope_recipient]
    for name in ("Delivered-To", "X-Original-To", "To", "Cc"):
        found.extend(decode.raw_headers(message, name))
    return [a for a in found if a]


def record_raw(
    raw: bytes, *, recipient: str = "", sender: str | None = None
) -> tuple[InboundMessage, bool]:
    """Store the message once. Returns (row, created); a redelivery returns the first row."""
    message = decode.parse(raw)
    message_id = normalised_message_id(message, raw)
    existing = InboundMessage.objects.filter(message_id=message_id).first()
    if existing is not None:
        return existing, False
    recipients = _recipients(message, decode.clean_text(recipient).strip())
    token_address = next((a for a in recipients if token_in_addresses([a])), "")
    token_address = token_address or (recipients[0] if recipients else "")
    dropped = machine_mail(message, sender)
    try:
        with transaction.atomic():
            row = InboundMessage.objects.create(
                message_id=message_id,
                recipient=token_address[:500],
                sender=decode.address(message, "From")[:500],
                subject=decode.header(message, "Subject")[:500],
                raw=_store(raw),
                status=InboundStatus.DROPPED if dropped else InboundStatus.RECEIVED,
                outcome=dropped,
            )
    except IntegrityError:  # a concurrent delivery of the same message won
        return InboundMessage.objects.get(message_id=message_id), False
    if dropped:
        log.info("inbound %s dropped: %s", message_id, dropped)
    return row, True


def message_bytes(message: Message) -> bytes:
    """The bytes of a message anymail parsed (the webhook), as close to the original as the
    email package can give them."""
    for render in (
        lambda: message.as_bytes(),
        lambda: message.as_bytes(policy=compat32),
        lambda: message.as_string(policy=compat32).encode("utf-8", "replace"),
    ):
        try:
            return render()
        except Exception:
            continue
    return b""


def record(message: Message) -> tuple[InboundMessage, bool]:
    """Record a message anymail parsed (the inbound webhook)."""
    return record_raw(
        message_bytes(message),
        recipient=str(getattr(message, "envelope_recipient", None) or ""),
        sender=getattr(message, "envelope_sender", None),
    )


def receive_raw(raw: bytes, *, recipient: str = "", sender: str | None = None) -> InboundMessage:
    """An MTA pipe or the local mailbox: record and handle one RFC 822 message now."""
    row, _ = record_raw(raw, recipient=recipient, sender=sender)
    return handle(row.pk)


# --- handling -----------------------------------------------------------------------------


@dataclass
class Report:
    lines: list[dict] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)
    failed: str = ""
    outdated: bool = False
    help: str = ""
    posted: bool = False
    taken_back: bool = False
    ignored: list[str] = field(default_factory=list)
    first_hint: str = ""
    # A line that was not simply done (a refusal, a question such as status or help, a vote,
    # anything the player must read): the answer goes at once, not with the next mail.
    answer_now: bool = False

    def add(self, line: str, outcome: str, done: bool = False) -> None:
        """`done`: the line was a move applied, a post or a takeback, nothing more to say."""
        self.lines.append({"line": line, "outcome": outcome})
        self.answer_now = self.answer_now or not done


def handle(pk: int) -> InboundMessage:
    """Handle a recorded message once, to a terminal state. Everything it does commits
    together: the moves, the chat, the answer. A message already handled is left alone.
    Only an unreachable database raises; any other failure is recorded on the row."""
    try:
        with transaction.atomic():
            row = InboundMessage.objects.select_for_update().get(pk=pk)
            if row.status != InboundStatus.RECEIVED:
                return row
            raw, original_size = _load(row.raw)
            status, outcome = _handle(row, decode.parse(raw), original_size)
            row.status, row.outcome = status, outcome[:2000]
            row.save(update_fields=["status", "outcome", "match", "seat"])
        return row
    except DATABASE_DOWN:
        raise
    except Exception as error:  # a bug must not leave the message to be retried forever
        log.exception("inbound %s could not be handled", pk)
        InboundMessage.objects.filter(pk=pk, status=InboundStatus.RECEIVED).update(
            status=InboundStatus.REJECTED,
            outcome=f"could not be handled: {type(error).__name__}: {error}"[:2000],
        )
        return InboundMessage.objects.get(pk=pk)


def _registered_user(address: str):
    if not address:
        return None
    return get_user_model().objects.filter(email__iexact=address, is_active=True).first()


def _handle(row: InboundMessage, message: Message, original_size: int) -> tuple[str, str]:
    token = token_in_addresses(_recipients(message, row.recipient))
    sender = decode.address(message, "From")
    failures = authentication_failures(message, getattr(settings, "INBOUND_AUTHSERV_ID", ""))
    if len(decode.raw_headers(message, "From")) > 1:
        # RFC 5322 allows one From; with two, which one a client shows is anyone's guess.
        failures = [*failures, "more than one From header"]
    if token is None:
        organiser_token = organiser_token_in_addresses(_recipients(message, row.recipient))
        if organiser_token is not None:
            return organiser.handle(row, message, organiser_token, sender, failures)
        if failures:
            return InboundStatus.DROPPED, f"forged: {', '.join(failures)}; no reply token"
        user = _registered_user(sender)
        if user is not None:
            _notice_without_match(row, user)
        return InboundStatus.REJECTED, "no valid reply token in the recipient address"
    match = Match.objects.filter(pk=token.match_id).first()
    seat = match and match.seats.select_related("user").filter(number=token.seat).first()
    if not match or not seat or seat.user is None:
        return InboundStatus.REJECTED, "the token names no seat with a player"
    row.match, row.seat = match, seat.number
    if failures:
        _notice_forged(row, match, seat, sender, failures)
        return InboundStatus.REJECTED, f"forged: {', '.join(failures)} for {sender}"
    registered = (seat.user.email or "").strip().lower()
    if sender != registered:
        _notice_wrong_sender(row, match, seat, sender)
        return InboundStatus.REJECTED, f"sender {sender} is not the seat's player"
    body = decode.body(message)
    # Blank lines are kept (as "") because they end a message of several lines after `say`.
    answered = partial(_answered_text, match, seat, token.seq)
    lines = paragraphs(own_text(body.text, answered))[:MAX_OWN_LINES]
    report = run_commands(match, seat, token.seq, lines, row.message_id)
    _answer(row, match, seat, report, original_size)
    outcome = "; ".join(f"{r['line'][:80]}: {r['outcome']}" for r in report.lines)
    return InboundStatus.DONE, outcome or "no command found"


def _answered_text(match: Match, seat: Seat, seq: int) -> str:
    """The text of the email this reply answers (the newest sent to the seat for the
    position its token names), rendered again, so the reply's quote of it is recognised
    under any prefix; '' when there is none."""
    sent = (
        Notification.objects.filter(
            match=match, seat=seat.number, seq=seq, channel=Channel.EMAIL, status=Status.SENT
        )
        .order_by("-pk")
        .first()
    )
    if sent is None:
        return ""
    try:
        return emails.render(sent).text
    except Exception:  # reading the reply goes on without it
        log.exception(
            "inbound: the email answered (notification %s) could not be rendered", sent.pk
        )
        return ""


# --- reading commands ---------------------------------------------------------------------


def _key(message_id: str, index: int) -> str:
    return f"email:{hashlib.sha256(message_id.encode()).hexdigest()[:32]}:{index}"


def command_words(match: Match, seat: Seat) -> set[str]:
    """The words a command of this game starts with: from its help and the moves open to
    the seat now. A line starting with another word is not a command (a greeting, a
    sign-off, a signature, a phone's footer)."""
    game = match.game
    words = set(BUILTIN_WORDS)
    for line in (game.help_text() or "").splitlines():
        if len(line) - len(line.lstrip()) > 2:
            continue  # a command's wrapped second line ("    Anna pays 1 g ...")
        for alternative in re.split(r"\s[|/]\s", line):
            first = alternative.strip().split(" ", 1)[0].lower().rstrip(":.,;")
            if first.isalpha():
                words.add(first)
    try:
        state = selectors.load_state(match)
        for move in game.legal_moves(state, seat.number)[:500]:
            words.add(game.format_move(state, seat.number, move).split(" ", 1)[0].lower())
    except Exception:  # a match that cannot be loaded is answered by _play
        log.exception("command words of match %s", match.pk)
    return words | language.first_words(game, words)  # "bouw", "baue", "construis"


def paragraphs(text_lines: list[str]) -> list[str]:
    """The lines stripped, runs of blank lines folded to one "" (a paragraph break)."""
    out: list[str] = []
    for line in text_lines:
        line = line.strip()
        if line or (out and out[-1]):
            out.append(line)
    return out


def said(lines: list[str], index: int, words: set[str]) -> tuple[str, int]:
    """The chat message a `say` line starts, and the index of its last line. `say` alone on
    its line takes the paragraph below it; `say text` takes the lines below it up to a blank
    line or a command."""
    first = lines[index].partition(" ")[2].strip()
    parts = [first] if first else []
    end = index
    start = index + 1
    if not first and start < len(lines) and not lines[start]:
        start += 1  # "say", a blank line, then the message
    for following in range(start, len(lines)):
        line = lines[following]
        if not line or (first and is_command(line, words)):
            break
        parts.append(line)
        end = following
    return "\n".join(parts), end


def is_command(line: str, words: set[str]) -> bool:
    """A line that starts with a command's word or a menu number, or is one short answer
    ("Yes", "n", "OK."), which commands.interpret reads against the question asked."""
    first = language.courteously(line).split(" ", 1)[0].lower().rstrip(":.,;!)")
    known = first in words or language.loosely(first) in words  # "Holzfaeller"
    return is_number(first.lstrip("#")) or known or is_short_answer(line, words)


def is_short_answer(line: str, words: set[str]) -> bool:
    """One word that answers a question ("Yes", "OK."), and not a command of the game."""
    whole = line.strip().lower().rstrip(".!")
    known = whole in commands.SHORT_ANSWERS or whole in language.answer_words()  # "Ja."
    return known and whole not in words


# A command the client wrapped goes on below a line that ends like this.
_GOES_ON = re.compile(r"(?i)([,:;]|\b(and|with|pays|for))$")
# ... and a line below it that starts with a number and goes on ("3 wood for 2 points") is
# more of it, where a menu number stands alone.
_AMOUNT = re.compile(r"^\d+\s+\D")


def unwrapped(lines: list[str], words: set[str]) -> list[str]:
    """A command wrapped over several lines by the mail client ("counter: Cor pays 2 g and
    1 wood for 1 point," / "Anna pays ...") as one line: a command line that ends in a
    comma, a colon or a word that needs more takes the lines below it that are not
    commands (or that start with an amount). Never a `say` line: a chat message keeps its lines."""
    out: list[str] = []
    for line in lines:
        last = out[-1] if out else ""
        if (
            line
            and last
            and _GOES_ON.search(last)
            and is_command(last, words)
            and not last.lower().startswith("say")
            and (not is_command(line, words) or _AMOUNT.match(line))
        ):
            out[-1] = f"{last} {line}"
        else:
            out.append(line)
    return out


def run_commands(
    match: Match, seat: Seat, token_seq: int, lines: list[str], message_id: str
) -> Report:
    """The report of `_run_commands`, its outcomes written in the player's language (the
    games' refusals and help are Texts, said there; the answer keeps them as written)."""
    with translation.override(services.language_of(seat) or settings.LANGUAGE_CODE):
        return _run_commands(match, seat, token_seq, lines, message_id)


def _run_commands(
    match: Match, seat: Seat, token_seq: int, lines: list[str], message_id: str
) -> Report:
    """Play the command lines in order and stop at the first that cannot be applied. Lines
    that are not commands are passed over and listed, never refused; after the first of them
    that follows a command (a sign-off), everything is passed over, so a signature's
    postcode or phone number is never read as a menu number."""
    report = Report()
    words = command_words(match, seat) | language.mail_command_words()
    spoken = services.language_of(seat)
    lines = unwrapped(lines, words)
    seen = token_seq  # the position the player answers: the email's, then their own move's
    commands_read = 0
    signed_off = False  # the first other line after a command: what follows is a signature
    skip_to = -1  # the last line of a message taken by `say`
    for index, line in enumerate(lines):
        if not line or index <= skip_to:
            continue
        # A one-word answer ("OK") answers the email's question: after a command it is a
        # sign-off, never an answer to a question the player has not seen.
        late_word = commands_read > 0 and is_short_answer(line, words)
        if signed_off or late_word or not is_command(line, words):
            signed_off = signed_off or commands_read > 0
            report.ignored.append(line)
            continue
        commands_read += 1
        if commands_read > MAX_COMMAND_LINES:
            report.add(
                "...",
                gettext("Only the first %(count)s commands are read.")
                % {"count": MAX_COMMAND_LINES},
            )
            break
        word, _, rest = line.partition(" ")
        word = word.lower().rstrip(":.,")
        builtin = language.mail_command(line, spoken)  # "zeg hallo", "geef op", "Hilfe"
        if builtin is not None:
            word, rest = builtin
        if word == "status":
            report.add(line, gettext_noop("The position is below."))
            continue
        if word == "help":
            report.help = _help_text(match)
            report.add(line, gettext_noop("The commands are below."))
            continue
        if word == "say":
            from games.chat import ChatError, post_message

            text, skip_to = said(lines, index, words)
            try:
                post_message(match=match, user=seat.user, text=text, source="email")
            except ChatError as error:
                report.add(line, error.message)
                report.failed = line
                break
            report.posted = True
            report.add(line, gettext_noop("Posted to the match's board."), done=True)
            continue
        if word == "undo" and not rest.strip():
            result = services.take_back(
                match_id=match.pk,
                player=seat.user,
                source=MoveSource.EMAIL,
                idempotency_key=_key(message_id, index),
            )
            report.add(line, result.message, done=result.ok)
            if not result.ok:
                report.failed = line
                break
            report.taken_back = True
            seen = result.match.head_seq
            continue
        if word in ("substitute", "expel") and rest.strip():
            answer = _mail_command(_seat_vote, match, seat, word, rest)
            report.add(line, answer)
            continue
        if word == "tournament join":  # "toernooi doe mee 7", "Turnier mitmachen 7"
            report.add(line, _mail_command(_join_tournament, seat, rest))
            continue
        if word == "tournament" and rest.strip():
            report.add(line, gettext(TOURNAMENT_JOIN))
            continue
        if word == "takeover" and rest.strip():
            report.add(line, _mail_command(_take_over, seat, rest))
            continue
        if word == "withdraw" and not rest.strip():
            report.add(line, _mail_command(_withdraw, match, seat))
            continue
        if word == "resign" and not rest.strip():
            result = services.resign(
                match_id=match.pk,
                player=seat.user,
                source=MoveSource.EMAIL,
                idempotency_key=_key(message_id, index),
            )
            report.add(
                line,
                gettext_noop("You have resigned; a bot plays your seat on.")
                if result.ok
                else result.message,
            )
            if not result.ok:
                report.failed = line
            break
        result = services.submit_move(
            match_id=match.pk,
            player=seat.user,
            command=line,
            source=MoveSource.EMAIL,
            idempotency_key=_key(message_id, index),
            seen_seq=seen,
        )
        report.add(line, _outcome_line(result, line), done=result.ok and not result.duplicate)
        if not result.ok:
            report.failed = line
            report.outdated = result.outcome == services.Outcome.MOVED_ON
            break
        seen = result.match.head_seq
        report.applied.append(_in_their_words(result, line))
    if report.failed:
        rest = [ln for ln in lines[index + 1 :] if ln and is_command(ln, words)]
        if rest:
            report.add(
                "...",
                ngettext(
                    "%(count)s more line not read: nothing after a line that could not be "
                    "applied is played.",
                    "%(count)s more lines not read: nothing after a line that could not be "
                    "applied is played.",
                    len(rest),
                )
                % {"count": len(rest)},
            )
    if not commands_read and report.ignored:
        report.first_hint = _hint(match, seat, report.ignored[0])
    return report


def _seat_vote(match: Match, seat: Seat, word: str, named: str) -> str:
    """`substitute <player>`: offer their seat, which timed out, to a substitute; `expel
    <player>`: vote to skip it. The answer line."""
    seats = list(match.seats.order_by("number"))
    names = [s.name for s in seats]
    try:
        target = find_player(named, names, [s.number for s in seats if s.number != seat.number])
        if word == "substitute":
            services.offer_seat(match_id=match.pk, seat=target, by=seat.user)
            return gettext("%(name)s's seat is offered in the lobby to a substitute.") % {
                "name": names[target]
            }
        if services.vote_to_skip(match_id=match.pk, seat=target, voter=seat.user):
            return gettext("%(name)s's seat is skipped: the rules' default move plays it.") % {
                "name": names[target]
            }
        return gettext("Your vote to skip %(name)s's seat is counted.") % {"name": names[target]}
    except (ParseError, services.ServiceError) as error:
        return gettext(language.localize(error.message))


UNREAD_COMMAND = gettext_noop("That command could not be read.")


def _mail_command(command, *args) -> str:
    """A mail command's answer line; one that trips over odd input (its bug) is still
    answered, like a move the rules could not read, and the rest of the mail is read on."""
    try:
        return command(*args)
    except DatabaseError:
        raise  # the message is handled again when the database answers
    except Exception:
        log.exception("mail command %s%r could not be read", command.__name__, args[1:])
        return gettext(UNREAD_COMMAND)


def _number(text: str) -> int | None:
    """A tournament's or a match's number as a person writes it ("7", "#7", "٧")."""
    return read_number(text.strip().lstrip("#"), low=1)


TOURNAMENT_JOIN = gettext_noop("Write 'tournament join N', N the tournament's number on its page.")


def _join_tournament(seat: Seat, number: str) -> str:
    """`tournament join <number>`, in any language: sign up, from any match's mail."""
    found = _number(number)
    tournament = Tournament.objects.filter(pk=found).first() if found else None
    if tournament is None:
        return gettext(TOURNAMENT_JOIN)
    try:
        join(tournament, seat.user)
    except services.ServiceError as error:
        return error.message
    return gettext("You are in %(name)s; each round's match comes by email.") % {
        "name": tournament.name
    }


def _take_over(seat: Seat, rest: str) -> str:
    """`takeover <match number>`: take the seat offered to a substitute in that match."""
    found = _number(rest)
    offered = (
        Seat.objects.filter(match_id=found, takeover_offered_at__isnull=False)
        .order_by("number")
        .first()
        if found
        else None
    )
    if offered is None:
        return gettext(
            "No seat of that match is offered to a substitute (the lobby lists those that are)."
        )
    try:
        services.take_seat(match_id=offered.match_id, seat=offered.number, user=seat.user)
    except services.ServiceError as error:
        return error.message
    return gettext("The seat in %(match)s is yours; its turn emails come to you from now on.") % {
        "match": offered.match
    }


def _withdraw(match: Match, seat: Seat) -> str:
    """Leave the tournament this match is part of."""
    tournament = Tournament.objects.filter(round_set__tables__match=match).first()
    if tournament is None:
        return gettext("This match is not part of a tournament; to leave it, write: resign")
    try:
        withdraw(tournament, seat.user)
    except services.ServiceError as error:
        return error.message
    return gettext("You have left %(name)s: your matches in play are resigned.") % {
        "name": tournament.name
    }


def _hint(match: Match, seat: Seat, line: str) -> str:
    """What the game would have expected, for a message with no command in it."""
    try:
        state = selectors.load_state(match)
        commands.interpret(match.game, state, seat.number, line)
    except IllegalMove as error:
        return language.refusal_in(match.game, error.message)
    except Exception:
        return ""
    return ""


def _outcome_line(result: services.MoveResult, line: str) -> str:
    """What the answer says of one command line."""
    if result.duplicate:
        return gettext("Applied: %(command)s (this email was received before).") % {
            "command": _as_command(result, line)
        }
    headline = result.headline(_as_command(result, line))  # the web's and the API's words
    if result.outcome == services.Outcome.MOVED_ON:
        below = gettext("The current position is below.")  # (xgettext reads no f-string)
        return f"{headline} {below}"
    if result.outcome in (services.Outcome.ILLEGAL, services.Outcome.NOT_YOUR_TURN):
        below = gettext("Your choices are below.")
        return f"{headline} {below}"
    return headline


def _as_command(result: services.MoveResult, line: str) -> str:
    """The applied move in the game's own words (the line as written, for a repeat)."""
    return result.worded or line


def _in_their_words(result: services.MoveResult, line: str) -> str:
    """The applied move as the answer's subject and the next mail's "Applied: ..." say it: in
    the reader's command words (the active language), which read back as the same move."""
    if result.worded and result.match is not None:
        return language.in_language(result.match.game, result.worded)
    return line


def _help_text(match: Match) -> str:
    game = match.game
    text = language.help_in(game).strip()
    heading = gettext("Commands of %(game)s:") % {"game": game.title}
    return (f"{heading}\n{text}\n" if text else "") + gettext(
        "Any move may also be given by its number in the list of choices."
    )


# --- answering ----------------------------------------------------------------------------


def summary_of(report: Report) -> tuple[str, str]:
    """The answer's subject (what happened to the moves) and its first sentence."""
    applied = ", ".join(report.applied)
    if report.outdated:
        return (
            gettext("Not applied: the game has moved on"),
            gettext(
                "The game has moved on since the email you answered, so nothing was applied. "
                "Here is the position now; answer this email instead."
            ),
        )
    if report.failed:
        failed = {"line": report.failed, "why": _first_sentence(report), "applied": applied}
        summary = gettext("Not applied: %(line)s: %(why)s") % failed
        intro = gettext(
            "Your email was read line by line. One line could not be applied; "
            "nothing after it was played."
        )
        if report.applied:
            summary = gettext("Applied: %(applied)s; not applied: %(line)s: %(why)s") % failed
            intro += " " + ngettext(
                "Before it, %(count)s move was applied.",
                "Before it, %(count)s moves were applied.",
                len(report.applied),
            ) % {"count": len(report.applied)}
        return summary[:150], intro
    if report.applied:
        intro = ngettext(
            "Your move was applied.",
            "Your %(count)s moves were applied, in order.",
            len(report.applied),
        ) % {"count": len(report.applied)}
        return (gettext("Applied: %(applied)s") % {"applied": applied})[:150], intro
    if not report.lines:
        intro = gettext(
            "We found no command in your email. Write your move on the first line of your "
            "reply, above the quoted text."
        )
        if report.first_hint:
            intro += " " + gettext("About “%(line)s”: %(hint)s") % {
                "line": report.ignored[0][:80],
                "hint": report.first_hint,
            }
        return gettext("No command found: no move was made"), intro
    if report.taken_back:
        return gettext("Taken back: your last move"), gettext("Your last move is taken back.")
    if report.posted:
        return gettext("Posted to the board; no move was made"), gettext("Your message was posted.")
    return gettext("No move was made"), gettext("Your commands were read.")


def _first_sentence(report: Report) -> str:
    """Why the line that stopped the reading was refused, in its first sentence."""
    why = next((r["outcome"] for r in reversed(report.lines) if r["line"] == report.failed), "")
    # The subject says "Not applied" already, in the reader's words ("Niet verwerkt: ").
    said = gettext("Not applied: %(message)s") % {"message": ""}
    why = why.removeprefix(said).removeprefix("Not applied: ")
    return re.split(r"(?<=[.!?])\s", why, maxsplit=1)[0]


def _answer(
    row: InboundMessage,
    match: Match,
    seat: Seat,
    report: Report,
    original_size: int,
) -> None:
    match.refresh_from_db()
    seat.refresh_from_db()
    asked = match.status == MatchStatus.ACTIVE and seat.number in match.to_act
    seq = outbox.reply_seq(match, seat)
    # The answer's own sentences are written in its reader's language (the outcomes, stored in
    # English, are said in it when the mail is rendered).
    with translation.override(services.language_of(seat) or settings.LANGUAGE_CODE):
        summary, intro = summary_of(report)
        entries = list(report.lines)
        if report.ignored and (report.lines or len(report.ignored) > 1):
            shown = ", ".join(f"“{line[:60]}”" for line in report.ignored[:5])
            if len(report.ignored) > 5:
                shown += " " + gettext("and %(count)s more") % {"count": len(report.ignored) - 5}
            entries.append(
                {
                    "line": gettext("(not commands)"),
                    "outcome": gettext(
                        "Passed over, as a greeting or signature would be: %(lines)s."
                    )
                    % {"lines": shown},
                }
            )
        if original_size:
            intro += " " + gettext(
                "Your email was %(size)s KB; we read its first %(read)s KB "
                "(attachments are not used)."
            ) % {"size": original_size // 1024, "read": settings.INBOUND_MAX_BYTES // 1024}
    # Moves applied and nothing else to say: the next mail the player gets from the match
    # confirms them ("Applied: pass, Tue 10:14. Now: ..."), unless they asked for a mail at
    # once or have no other mail coming. When they are asked again, this is that next mail.
    later = (
        not asked
        and not report.answer_now
        and not original_size
        and not report.help
        and bool(report.applied or report.posted or report.taken_back)
        and emails.confirms_later(seat.user)
    )
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
    answer = outbox.row_for(
        kind=Kind.ANSWER,
        user=seat.user,
        dedupe_key=f"answer:{row.pk}",
        match=match,
        seat=seat.number,
        seq=seq,
        hold_for_quiet_hours=False,
        context={
            "report": entries,
            "summary": summary,
            "intro": intro,
            "help": report.help,
            "answers": row.message_id,
        },
    )
    if later and answer is not None:
        answer.status, answer.last_error = Status.SKIPPED, emails.CONFIRM_LATER
    outbox.write(answer)


# --- notices about mail we could not take ---------------------------------------------------
# They go only to a registered address, and at most INBOUND_NOTICES_PER_HOUR in any hour to
# each person: a forger can make us write to a player, never to an address of the forger's
# choosing, and never many times. The count is the notices' own outbox rows, read under a
# lock on the person's row in the transaction that writes the next one, so it holds across
# every process that handles mail (each `receive_email` run of an MTA pipe, the webhook's
# workers) with nothing shared but the database.


def may_send_notice(user) -> bool:
    limit = getattr(settings, "INBOUND_NOTICES_PER_HOUR", 3)
    with transaction.atomic():  # the caller's transaction, which writes the notice
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        sent = Notification.objects.filter(
            user=user,
            kind=Kind.ANSWER,
            context__notice=True,
            created_at__gte=timezone.now() - timedelta(hours=1),
        ).count()
    return sent < limit


def _notice(row: InboundMessage, user, summary: str, intro: str, match=None, seat=None) -> None:
    if not may_send_notice(user):
        log.info("inbound %s: notice to user %s throttled", row.message_id, user.pk)
        return
    outbox.write(
        outbox.row_for(
            kind=Kind.ANSWER,
            user=user,
            dedupe_key=f"answer:{row.pk}",
            match=match,
            seat=seat.number if seat is not None else None,
            seq=match.head_seq if match is not None else None,
            hold_for_quiet_hours=False,
            context={
                "summary": summary,
                "intro": intro,
                "report": [],
                "answers": row.message_id,
                "notice": True,
            },
        )
    )


def _spoken_by(user):
    """The language the notice's reader chose (the site's when they chose none)."""
    from players.models import Preferences

    chosen = Preferences.objects.filter(user_id=user.pk).values_list("language", flat=True)
    return translation.override(chosen.first() or settings.LANGUAGE_CODE)


def _notice_wrong_sender(row: InboundMessage, match: Match, seat: Seat, sender: str) -> None:
    with _spoken_by(seat.user):
        _notice(
            row,
            seat.user,
            gettext("Not applied: unknown sender"),
            gettext(
                "We received a reply for your seat from %(sender)s, which is not the address "
                "registered for you, so nothing in it was applied. Please answer from this "
                "address."
            )
            % {"sender": sender or gettext("an unknown sender")},
            match,
            seat,
        )


def _notice_forged(
    row: InboundMessage, match: Match, seat: Seat, sender: str, failures: list[str]
) -> None:
    with _spoken_by(seat.user):
        _notice(
            row,
            seat.user,
            gettext("Not applied: the sender could not be verified"),
            gettext(
                "We received a reply for your seat from %(sender)s, but our mail server found "
                "that it did not come from that address's mail system (%(failures)s), so "
                "nothing in it was applied. If you sent it, your mail provider may be "
                "forwarding it in a way that breaks the check: answer from the page of the "
                "match instead."
            )
            % {"sender": sender or gettext("an unknown sender"), "failures": ", ".join(failures)},
            match,
            seat,
        )


def _notice_without_match(row: InboundMessage, user) -> None:
    with _spoken_by(user):
        _notice(
            row,
            user,
            gettext("Which match?"),
            gettext(
                "We received your email but could not tell which match it was for: the address "
                "it was sent to carries no valid match token. Reply to the email that asked for "
                "your move (its reply address names the match and your seat)."
            ),
        )


def reprocess_stuck(older_than) -> int:
    """Messages recorded but never handled (a worker died, the database went away): handle
    them now. Returns how many were taken up."""
    ids = list(
        InboundMessage.objects.filter(
            status=InboundStatus.RECEIVED, received_at__lt=older_than
        ).values_list("pk", flat=True)[:100]
    )
    for pk in ids:
        try:
            handle(pk)
        except DATABASE_DOWN:
            log.warning("inbound %s left for the next sweep: database unavailable", pk)
            break
    return len(ids)
