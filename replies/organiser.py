"""An organiser runs a tournament by email.

The mails the server sends an organiser about their tournament (a seat that let a deadline
pass, the answers to their own mail) reply to the tournament's organiser address
(replies.tokens.organiser_address); the tournament's page shows it too. A mail there is read
like a player's reply (quotes and signature left out) and its command lines do what the
page's tools do, through the same services, each recorded with who and why:

    draw                        what the next round's draw would be now
    extend 3 days <why>         sign-up stays open 3 days longer
    describe <text>             the tournament's description (the lines below it too)
    withdraw <player> <why>     the player leaves; their matches in play are resigned
    offer <match> <player>      a seat that let a deadline pass goes to a substitute
    cancel <why>                the tournament is called off
    help                        these commands

Command words are read in every language (games.rules.mail_words.ORGANISER_COMMANDS); one
mail answers, in the organiser's language.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import DatabaseError
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from community.names import public_name
from games import language
from games.engine import ParseError
from games.engine.names import find_player
from games.engine.numbers import read_number
from games.models import Match
from games.rules.mail_words import DAYS, ORGANISER_COMMANDS
from games.services import ServiceError
from notifications import emails, outbox
from notifications.models import Channel, Kind, Notification, Status
from players.language import language_of
from players.preferences import local_time, prefs_for
from tournaments import services
from tournaments.models import Tournament

from .models import InboundStatus
from .reading import decode
from .reading.quotes import own_text
from .tokens import OrganiserToken

log = logging.getLogger(__name__)

MAX_COMMANDS = 10
MAX_EXTENSION_DAYS = 60
SEPARATORS = ",:;.-–—"


def handle(row, message, token: OrganiserToken, sender: str, failures: list[str]):
    """(status, outcome) of an organiser's mail; the answer is written to the outbox."""
    t = Tournament.objects.filter(pk=token.tournament_id).select_related("organiser").first()
    if t is None or t.organiser_id != token.user_id or t.organiser is None:
        return InboundStatus.REJECTED, "the token names no tournament of that organiser"
    if failures:
        return InboundStatus.REJECTED, f"forged: {', '.join(failures)} for {sender}"
    if sender != (t.organiser.email or "").strip().lower():
        return InboundStatus.REJECTED, f"sender {sender} is not the tournament's organiser"
    body = decode.body(message)
    lines = [line.strip() for line in own_text(body.text, _answered(t))]
    with translation.override(language_of(t.organiser)):
        report = read_and_act(t, lines)
        _answer(row, t, report)
    outcome = "; ".join(f"{line[:80]}: {said[:200]}" for line, said in report)
    return InboundStatus.DONE, outcome or "no command found"


def read_and_act(t: Tournament, lines: list[str]) -> list[tuple[str, str]]:
    """Each command line and what came of it. Lines before the first command are passed
    over (a greeting); the first other line after a command ends the reading (a sign-off,
    a signature)."""
    report: list[tuple[str, str]] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        # As written first (a description keeps its words), else without courtesies.
        found = language.mail_command(line, None, ORGANISER_COMMANDS) or language.mail_command(
            language.courteously(line), None, ORGANISER_COMMANDS
        )
        if found is None:
            if report and line:
                break
            continue
        if len(report) == MAX_COMMANDS:
            report.append(
                (
                    "...",
                    gettext("Only the first %(count)s commands are read.")
                    % {"count": MAX_COMMANDS},
                )
            )
            break
        word, rest = found
        if word == "describe":
            # The description goes on in the lines below, to the first blank line.
            while index < len(lines) and lines[index]:
                rest = f"{rest}\n{lines[index]}".strip()
                index += 1
        report.append((line, _act(t, word, rest)))
    if not report:
        report.append(("", gettext("No command was found in your mail.")))
        report.append(("", help_text()))
    return report


def _act(t: Tournament, word: str, rest: str) -> str:
    t.refresh_from_db()
    by = t.organiser
    try:
        if word == "help":
            return help_text()
        if word == "draw":
            return draw_text(t)
        if word == "extend":
            return _extend(t, by, rest)
        if word == "describe":
            if not rest:
                return gettext("Write the description after the word, on the same line or below.")
            services.describe(t, by=by, description=rest[:5000])
            return gettext("The description is saved.")
        if word == "withdraw":
            user, reason = _entrant(t, rest)
            services.withdraw_player(t, user, by=by, reason=reason)
            return gettext("%(name)s is withdrawn; their matches in play are resigned.") % {
                "name": public_name(user)
            }
        if word == "offer":
            return _offer(t, by, rest)
        if word == "cancel":
            services.cancel(t, by=by, reason=rest.lstrip(SEPARATORS + " ").rstrip())
            return gettext("The tournament is cancelled.")
    except (ServiceError, ParseError) as error:
        return str(language.localize(error.message))
    except DatabaseError:
        raise  # the message is handled again when the database answers
    except Exception:
        log.exception("tournament %s: the organiser's %r could not be done", t.pk, word)
        return gettext("That command could not be read.")
    return gettext("That command could not be read.")


def _extend(t: Tournament, by, rest: str) -> str:
    number, _, reason = rest.partition(" ")
    days = read_number(number, low=1, high=MAX_EXTENSION_DAYS)
    if days is None:
        return gettext("Write how many days longer sign-up stays open (1 to %(most)s) and why.") % {
            "most": MAX_EXTENSION_DAYS
        }
    first, _, after = reason.strip().partition(" ")
    if language.mail_command(first, None, (DAYS, "day")) is not None:
        reason = after  # "extend 3 days ..." / "verleng 3 dagen ..."
    start = max(timezone.now(), t.signup_until or timezone.now())
    until = start + timedelta(days=days)
    services.extend_signup(t, by=by, until=until, reason=reason.lstrip(SEPARATORS + " ").rstrip())
    return gettext("Sign-up stays open until %(until)s.") % {
        "until": local_time(prefs_for(by), until)
    }


def _named(rest: str, names: list[str], candidates: list[int]) -> tuple[int, str]:
    """The one name among `names` that the words of `rest` start with, longest first, and
    the words after it (the reason)."""
    words = rest.split()
    for count in range(len(words), 0, -1):
        wanted = " ".join(words[:count]).rstrip(SEPARATORS)
        try:
            found = find_player(wanted, names, candidates)
        except ParseError:
            if count == 1:
                raise
            continue
        return found, " ".join(words[count:]).lstrip(SEPARATORS + " ").rstrip()
    find_player("", names, candidates)  # raises, naming who may be meant
    raise AssertionError


def _entrant(t: Tournament, rest: str):
    entries = list(t.entries.filter(withdrawn_at__isnull=True).select_related("user"))
    if not entries:
        raise ServiceError(gettext("Nobody is in this tournament."))
    names = [public_name(e.user) for e in entries]
    found, reason = _named(rest, names, list(range(len(entries))))
    return entries[found].user, reason


def _offer(t: Tournament, by, rest: str) -> str:
    number, _, named = rest.strip().lstrip("#").partition(" ")
    match_id = read_number(number, low=1)
    match = Match.objects.filter(pk=match_id).first() if match_id else None
    if match is None:
        return gettext("Write the match's number and the player: %(example)s") % {
            "example": f"{language.written_as(ORGANISER_COMMANDS, 'offer')} 83 Anna"
        }
    seats = list(match.seats.select_related("user").order_by("number"))
    if not seats:
        return gettext("Write the match's number and the player: %(example)s") % {
            "example": f"{language.written_as(ORGANISER_COMMANDS, 'offer')} 83 Anna"
        }
    names = [s.name for s in seats]
    seat, reason = _named(named, names, [s.number for s in seats])
    services.offer_seat(t, match, seat, by=by, reason=reason)
    return gettext("%(name)s's seat in %(match)s is offered in the lobby to a substitute.") % {
        "name": names[seat],
        "match": match,
    }


def draw_text(t: Tournament) -> str:
    preview = services.preview_draw(t)
    if preview is None:
        return gettext("There is no round to draw now.")
    number, tables, byes = preview
    users = {e.user_id: public_name(e.user) for e in t.entries.select_related("user")}
    lines = [gettext("Round %(number)s would be drawn now as:") % {"number": number}]
    for index, table in enumerate(tables, 1):
        lines.append(
            gettext("Table %(number)s: %(players)s")
            % {"number": index, "players": ", ".join(users.get(u, "?") for u in table)}
        )
    if byes:
        lines.append(
            ngettext("Bye: %(players)s", "Byes: %(players)s", len(byes))
            % {"players": ", ".join(users.get(u, "?") for u in byes)}
        )
    return "\n".join(lines)


def help_text() -> str:
    """The commands, in the reader's words."""
    word = {
        english: language.written_as(ORGANISER_COMMANDS, english) for english in ORGANISER_COMMANDS
    }
    lines = [
        gettext("Write one command a line, in reply to this mail:"),
        f"  {word['draw']}: " + gettext("the next round's draw as it would be now"),
        f"  {word['extend']} 3: " + gettext("sign-up stays open 3 days longer; say why after it"),
        f"  {word['describe']} …: " + gettext("the tournament's description, to a blank line"),
        f"  {word['withdraw']} Anna …: " + gettext("Anna leaves the tournament; say why after"),
        f"  {word['offer']} 83 Anna: "
        + gettext("Anna's seat in match 83, which let a deadline pass, goes to a substitute"),
        f"  {word['cancel']} …: " + gettext("the tournament is called off; say why after it"),
    ]
    return "\n".join(lines)


def _answered(t: Tournament) -> str:
    """The newest mail sent to the organiser about this tournament, as it went (its quote
    in the reply is recognised under any prefix); '' when there is none."""
    sent = (
        Notification.objects.filter(
            user_id=t.organiser_id,
            kind=Kind.ROUND,
            channel=Channel.EMAIL,
            status=Status.SENT,
            context__tournament_id=t.pk,
        )
        .order_by("-pk")
        .first()
    )
    if sent is None:
        return ""
    try:
        return emails.render(sent).text
    except Exception:  # reading the reply goes on without it
        log.exception("organiser: the mail answered (notification %s) failed to render", sent.pk)
        return ""


def _answer(row, t: Tournament, report: list[tuple[str, str]]) -> None:
    outbox.write(
        outbox.row_for(
            kind=Kind.ROUND,
            user=t.organiser,
            dedupe_key=f"organiser-answer:{row.pk}",
            hold_for_quiet_hours=False,
            context={
                "event": "organiser",
                "tournament": t.name,
                "tournament_id": t.pk,
                "organiser": True,
                "answers": row.message_id,
                "report": [{"line": line, "outcome": said} for line, said in report],
            },
        )
    )
