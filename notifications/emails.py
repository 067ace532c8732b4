"""Rendering notifications: subject, plain text and HTML from templates/email/, plus the
headers that thread a match, unsubscribe in one click and keep auto-responders quiet.

Everything a player reads about a position comes from `game.view(state, seat)`,
`game.render_text(view)`, `selectors.history(match, seat)` and the public projections, never
from the raw state. Content is rendered when the row is sent, for the position the row names
(`row.seq`), so a message held overnight still shows the position it was written for.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import quote

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template import TemplateDoesNotExist
from django.template.loader import get_template, render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import dateformat, translation
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext_lazy

from games import commands, selectors, vacation_bank
from games.board_image import inline_boards
from games.language import help_in, in_language, localize, written_as
from games.models import ChatMessage, Match, MatchStatus, Seat, TimeControl, TimeoutPolicy
from games.rules.mail_words import ORGANISER_COMMANDS
from players.language import CODES, language_of
from players.models import NoticeMode
from players.preferences import local_time, prefs_for, zone
from replies.tokens import organiser_address, reply_address

from .models import Channel, Kind, Notification, Status
from .tokens import unsubscribe_token

WIDTH = 76
HISTORY_LIMIT = 15


@dataclass
class Rendered:
    subject: str
    text: str
    html: str
    reply_to: str


# --- links ------------------------------------------------------------------------------


# "(in 2 days)" after a deadline: German puts the count in the dative there ("in 2 Tagen"),
# which Django's own strings for timeuntil (nominative, "2 Tage") do not.
DEADLINE_IN = {
    "year": npgettext_lazy("deadline in", "%(num)d year", "%(num)d years", "num"),
    "month": npgettext_lazy("deadline in", "%(num)d month", "%(num)d months", "num"),
    "week": npgettext_lazy("deadline in", "%(num)d week", "%(num)d weeks", "num"),
    "day": npgettext_lazy("deadline in", "%(num)d day", "%(num)d days", "num"),
    "hour": npgettext_lazy("deadline in", "%(num)d hour", "%(num)d hours", "num"),
    "minute": npgettext_lazy("deadline in", "%(num)d minute", "%(num)d minutes", "num"),
}


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def _path(name: str, fallback: str, *args) -> str:
    try:
        return reverse(name, args=args)
    except NoReverseMatch:  # the page's app is not wired yet
        return fallback


def match_url(match: Match) -> str:
    return absolute(_path("match_detail", f"/matches/{match.pk}/", match.pk))


def match_signin_url(user, match: Match) -> str:
    """The match link: signs `user` in to this match only, once, for MATCH_LINK_MAX_AGE,
    on POST (the page shows a one-button form). Never a key to the account."""
    from players.match_links import match_link_query

    link = _path("match_link", f"/matches/{match.pk}/link/", match.pk)
    return absolute(link + match_link_query(user, match.pk))


def unsubscribe_url(user) -> str:
    return absolute(reverse("notifications:unsubscribe", args=[unsubscribe_token(user.pk)]))


def preferences_url() -> str:
    return absolute(reverse("notifications:preferences"))


def match_label(match: Match) -> str:
    return f"{match.game_title} #{match.pk}"


# --- text helpers -----------------------------------------------------------------------


def wrap(text: str, indent: str = "") -> str:
    return textwrap.fill(
        text,
        WIDTH,
        initial_indent=indent,
        subsequent_indent=" " * len(indent),
        break_long_words=False,
        break_on_hyphens=False,
    )


def tidy(text: str) -> str:
    """Templates leave blank lines where tags were; a mail client shows them all."""
    # "-- " keeps its space: it is the signature separator mail clients recognise.
    text = "\n".join(line if line == "-- " else line.rstrip() for line in text.splitlines())
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def time_control_text(match: Match) -> str:
    if match.time_control == TimeControl.BANK:
        text = _("a time bank of %(days)s days") % {"days": max(1, match.bank_days)}
        if match.increment_days:
            text += _(", plus %(days)s per move") % {"days": match.increment_days}
    else:
        text = ngettext("%(days)s day per move", "%(days)s days per move", match.days_per_move) % {
            "days": match.days_per_move
        }
    if match.weekends_off:
        text += _(", weekends off")
    policy = {
        TimeoutPolicy.DEFAULT_MOVE: _("a late player's default move is played"),
        TimeoutPolicy.BOT: _("a bot takes the seat of a late player"),
        TimeoutPolicy.FORFEIT: _("a player forfeits after %(timeouts)s timeouts")
        % {"timeouts": match.forfeit_after},
    }[match.timeout_policy]
    return f"{text}; {policy}"


def timeout_consequence(match: Match) -> str:
    if match.timeout_policy == TimeoutPolicy.BOT:
        return _("If you do not answer by then, a bot takes your seat for the rest of the match.")
    if match.timeout_policy == TimeoutPolicy.FORFEIT:
        return _(
            "If you do not answer by then, the server plays your default move and counts "
            "a timeout; after %(timeouts)s you forfeit the match."
        ) % {"timeouts": match.forfeit_after}
    return _("If you do not answer by then, the server plays your default move.")


# --- the position, as one seat sees it ------------------------------------------------


def _board_html(match: Match, view: dict, seat: int, legal_commands: list[str]) -> str:
    try:
        template = get_template(f"games/{match.game_slug}/board.html")
    except TemplateDoesNotExist:
        return ""
    return template.render({"view": view, "seat": seat, "legal_commands": legal_commands})


def _since_last_turn(match: Match, seat: int, seq: int) -> list[dict]:
    """History from the seat's own last move (included) to `seq`, at most HISTORY_LIMIT
    entries; narrated from a snapshot, so its cost does not grow with the match."""
    last_own = (
        match.moves.filter(seat=seat, seq__lte=seq).order_by("-seq").values_list("seq", flat=True)
    ).first()
    since = max((last_own or 1) - 1, seq - HISTORY_LIMIT, 0)
    return selectors.history(match, seat, upto=seq, since=since)


def position(match: Match, seat_row: Seat, seq: int, prefs) -> dict:
    """What the seat sees of the position after move `seq`: board, private view, what
    happened since its last turn, its choices, and how to answer."""
    game = match.game
    seat = seat_row.number
    state = selectors.load_state(match, upto=seq)
    view = game.view(state, seat)
    asked = (
        match.status == MatchStatus.ACTIVE and seat in game.to_act(state) and not seat_row.resigned
    )
    menu = commands.menu(game, state, seat) if asked else []
    legal = game.legal_moves(state, seat) if asked else []
    legal_commands = [entry.command for entry in menu] or [
        game.format_move(state, seat, m) for m in legal[:10]
    ]
    # The commands in the recipient's words (games.language); the board's links keep English.
    spoken = getattr(prefs, "language", "") or None

    def said(command: str) -> str:
        return in_language(game, command, spoken)

    entries = _since_last_turn(match, seat, seq)
    names = selectors.seat_names(match)
    waiting_on = [names[s] for s in game.to_act(state) if s != seat and not match.is_over]
    deadline, deadline_in = "", ""
    if asked and seat_row.deadline_seq == seq and seat_row.deadline_at:
        from games.clock import effective_deadline

        moment = effective_deadline(seat_row)
        deadline = local_time(prefs, moment)
        deadline_in = timeuntil(moment, depth=2, time_strings=DEADLINE_IN)
    return {
        "asked": asked,
        "prompt": localize(game.prompt(state, seat), spoken) if asked else "",
        "board": localize(game.render_text(view), spoken).rstrip(),
        "board_html": _board_html(match, view, seat, legal_commands),
        "history": [
            {"seq": e["seq"], "text": e["text"], "line": wrap(e["text"], f"  #{e['seq']} ")}
            for e in entries
        ],
        "menu": [{"number": e.number, "command": said(e.command)} for e in menu],
        "choices_count": len(legal),
        "examples": [said(c) for c in legal_commands[:3]],
        "choices_text": commands.choices_text(game, state, seat, language=spoken) if asked else "",
        "reference_text": (
            commands.reference_text(game, view, brief=True, language=spoken) if asked else ""
        ),
        "help_text": help_in(game, spoken).rstrip(),
        "waiting_on": ", ".join(waiting_on),
        "deadline": deadline,
        "deadline_in": deadline_in,
        "seq": seq,
    }


# --- answers confirmed in the next mail ------------------------------------------------
# An email reply whose moves were all applied is not answered by a mail of its own: its
# answer row is written `skipped` with CONFIRM_LATER (replies.inbound), and the next mail the
# player gets from that match, when it is sent, takes it (the row's last_error then names
# that mail) and says it in its first line: "Applied: pass, Tue 10:14. Now: ...". A mail
# rendered again later (to find it quoted in a reply) shows the same answers.

CONFIRM_LATER = "to be confirmed in the next mail of the match"
CARRIED_BY = "confirmed in notification "
CARRYING_KINDS = (
    Kind.TURN,
    Kind.REMINDER,
    Kind.START,
    Kind.CHAT,
    Kind.TIMEOUT,
    Kind.END,
    Kind.VACATION,
    Kind.WARNING,
    Kind.ANSWER,
    Kind.DIGEST,
)


def confirms_later(user) -> bool:
    """Whether a reply of `user`'s that was simply applied waits for the match's next mail:
    not when they asked to have each confirmed at once, nor when they get no other mail."""
    prefs = prefs_for(user)
    return not prefs.confirm_each_move and prefs.mode != NoticeMode.NONE


def confirmations(row: Notification, prefs) -> list[str]:
    """The answers this mail confirms, one line each ('Applied: pass, Tue 10:14'): while
    the row is being sent it takes those waiting for the player's next mail of its match
    (a digest: of any match)."""
    if row.channel != Channel.EMAIL or row.user_id is None or row.kind not in CARRYING_KINDS:
        return []
    carried = f"{CARRIED_BY}{row.pk}"
    answers = Notification.objects.filter(
        kind=Kind.ANSWER, status=Status.SKIPPED, user_id=row.user_id
    )
    if row.status == Status.SENDING:
        waiting = answers.filter(last_error=CONFIRM_LATER)
        if row.kind != Kind.DIGEST:
            waiting = waiting.filter(match_id=row.match_id)
        waiting.update(last_error=carried)
    lines = []
    for answer in answers.filter(last_error=carried).order_by("created_at", "pk"):
        when = dateformat.format(answer.created_at.astimezone(zone(prefs)), "D H:i")
        summary = answer.context.get("summary", "")
        lines.append(_("%(summary)s, %(when)s") % {"summary": summary, "when": when})
    return lines


# --- the match's start, told in the first mail of it ------------------------------------
# A match has no start mail of its own (issue 46: one mail per decision): the first mail a
# player gets from it (their first turn notice, normally; a digest's entry for a digest
# reader) tells who plays, the time control and the seed's commitment. The end mail
# has no need of it (its ranking and the seed say more). A start mail written before this
# (Kind.START) still renders those facts itself.

OPENING_KINDS = (
    Kind.TURN,
    Kind.REMINDER,
    Kind.ANSWER,
    Kind.CHAT,
    Kind.TIMEOUT,
    Kind.VACATION,
    Kind.WARNING,
)


def opens_match(row: Notification, prefs) -> bool:
    """Whether `row` is the first email its player gets from its match (so it tells the
    start): no other email of the match went to them before it. A digest reader hears of the
    start in the digest."""
    if (
        row.channel != Channel.EMAIL
        or row.kind not in OPENING_KINDS
        or row.user_id is None
        or row.match_id is None
        or prefs.mode != NoticeMode.EVERY_TURN
    ):
        return False
    earlier = Notification.objects.filter(
        match_id=row.match_id, user_id=row.user_id, channel=Channel.EMAIL, status=Status.SENT
    ).exclude(pk=row.pk)
    if row.sent_at is not None:  # rendered again later: the same answer as when it went
        earlier = earlier.filter(sent_at__lt=row.sent_at)
    return not earlier.exists()


# --- one context per kind ---------------------------------------------------------------


def _seat_row(row: Notification) -> Seat | None:
    if row.match_id is None or row.seat is None:
        return None
    return row.match.seats.select_related("user").filter(number=row.seat).first()


def _result(match: Match) -> dict:
    ranking = [
        {
            "place": line.place,
            "name": line.name,
            "score": "" if line.score is None else _("%(score)s points") % {"score": line.score},
            "shared": line.shared,
        }
        for line in selectors.standings(match)
    ]
    return {
        "ranking": ranking,
        "winners": [entry["name"] for entry in ranking if entry["place"] == 1],
        "notes": [wrap(n, "  ") for n in selectors.result_notes(match)],
        "seed": match.seed if match.is_over else "",
        "commitment": match.seed_commitment,
    }


def context_for(row: Notification) -> dict:
    user = row.user
    prefs = prefs_for(user)
    context: dict = {
        "kind": row.kind,
        "site_name": settings.SITE_NAME,
        "site_url": settings.SITE_URL,
        "preferences_url": preferences_url(),
        "unsubscribe_url": unsubscribe_url(user) if user else "",
        "name": (user.get_full_name() or user.email.split("@")[0]) if user else "",
        "extra": row.context,
        "confirmations": confirmations(row, prefs),
    }
    match = row.match
    seat_row = _seat_row(row)
    if match is not None:
        context.update(
            match=match,
            match_label=match_label(match),
            match_url=match_url(match),
            signin_url=match_signin_url(user, match) if user else match_url(match),
            time_control=time_control_text(match),
            players=selectors.seat_names(match),
        )
        if seat_row is not None:
            context["name"] = seat_row.display_name or context["name"]
            context["opening"] = opens_match(row, prefs)
    if (
        row.kind
        in (
            Kind.TURN,
            Kind.REMINDER,
            Kind.START,
            Kind.ANSWER,
            Kind.CHAT,
            Kind.TIMEOUT,
            Kind.END,
            Kind.VACATION,
            Kind.WARNING,
        )
        and seat_row is not None
    ):
        context["position"] = position(match, seat_row, min(row.seq or 0, match.head_seq), prefs)
    if row.kind == Kind.REMINDER:
        context["deadline"] = context["position"]["deadline"]
        context["timeout_consequence"] = wrap(timeout_consequence(match))
    if row.kind in (Kind.VACATION, Kind.WARNING):
        context["deadline"] = local_time(prefs, datetime.fromisoformat(row.context["deadline"]))
        context["timeout_consequence"] = wrap(timeout_consequence(match))
        context["sign_of_life_days"] = vacation_bank.sign_of_life_window().days
    if row.kind in (Kind.TURN, Kind.START, Kind.REMINDER, Kind.VACATION, Kind.WARNING) and user:
        context["vacation_bank"] = wrap(vacation_bank.bank_of(user).line())
    if row.kind == Kind.ROUND:
        context["tournament_url"] = absolute(
            reverse("tournament_detail", args=[row.context.get("tournament_id", 0)])
        )
        if row.context.get("organiser"):  # replies.organiser reads what they write back
            context["organiser_words"] = {
                english: written_as(ORGANISER_COMMANDS, english)
                for english in ORGANISER_COMMANDS
            }
    if row.kind == Kind.END:
        context["result"] = _result(match)
        context["abandoned"] = match.status == MatchStatus.ABANDONED
    if row.kind == Kind.TIMEOUT:
        entries = selectors.history(match, row.seat, upto=row.seq, since=max(0, row.seq - 1))
        context["timeout_line"] = wrap(entries[-1]["text"], "  ") if entries else ""
        context["resigned"] = bool(seat_row and seat_row.resigned)
        context["became_bot"] = bool(seat_row and seat_row.is_bot)
    if row.kind == Kind.CHAT:
        chat = ChatMessage.objects.filter(pk=row.context.get("chat_id")).first()
        names = selectors.seat_names(match)
        context["chat_author"] = names[chat.seat] if chat else ""
        context["chat_text"] = chat.text if chat else ""
    if row.kind == Kind.ANSWER:
        context["report"] = [
            # Stored in English when the mail was read; said in the reader's language here.
            {"line": r["line"], "outcome": wrap(_(r["outcome"]) if r["outcome"] else "", "    ")}
            for r in row.context.get("report", [])
        ]
        context["intro"] = wrap(row.context.get("intro", ""))
    if row.kind == Kind.DIGEST:
        context["matches"] = _digest_matches(row, prefs)
    if row.kind == Kind.INVITE:
        email = row.context.get("email", row.address)
        context["name"] = context["name"] or email.split("@")[0]
        context["inviter"] = row.context.get("inviter", "A player")
        context["game_title"] = match.game_title
        context["seats"] = match.player_count
        path = _path("match_detail", f"/matches/{match.pk}/", match.pk)
        context["join_url"] = (
            match_signin_url(user, match)
            if user
            else absolute(f"{_path('signup', '/signup/')}?next={quote(path)}")
        )
        context["has_account"] = user is not None
    return context


def _digest_matches(row: Notification, prefs) -> list[dict]:
    out = []
    for match_id, seat, seq in row.context.get("seats", []):
        match = Match.objects.filter(pk=match_id).first()
        seat_row = match and match.seats.select_related("user").filter(number=seat).first()
        if not match or not seat_row or match.status != MatchStatus.ACTIVE:
            continue
        seq = seat_row.deadline_seq or match.head_seq
        since = row.context.get("since", "1970-01-01T00:00:00+00:00")
        chat = [
            wrap(f"{selectors.seat_names(match)[c.seat]}: {c.text}", "  ")
            for c in ChatMessage.objects.filter(match=match, created_at__gte=since).exclude(
                seat=seat
            )
        ]
        out.append(
            {
                "match": match,
                "label": match_label(match),
                "url": match_url(match),
                "position": position(match, seat_row, seq, prefs),
                "reply_address": reply_address(match.pk, seat, seq),
                "chat": chat,
                # A match begun since the last digest: its start is told here.
                "opening": bool(match.started_at)
                and match.started_at >= datetime.fromisoformat(since),
                "players": selectors.seat_names(match),
                "time_control": time_control_text(match),
            }
        )
    return out


# --- subject, bodies, headers ------------------------------------------------------------


# Every message about a match carries the match's one subject, so a mail client that threads
# by subject (Gmail) keeps the match in one thread; what the message says goes in its first
# line ("headline", from templates/email/<kind>.subject.txt). The answer to a player's mail
# is a mail of the match too: what happened to the moves is its first line, which mail
# clients show beside the subject. Invitations (sent before the seat is taken), digests
# (several matches) and notices about mail that named no match keep their own subject.
OWN_SUBJECT_KINDS = (Kind.INVITE, Kind.DIGEST, Kind.ROUND)


def thread_subject(match: Match) -> str:
    """The subject of every email about `match`: '[Postal Boards] Nieuwstad #12 with Alice,
    Bob'. Plain text (a subject is never HTML)."""
    names = ", ".join(selectors.seat_names(match))
    return plain_line(
        _("[%(site)s] %(match)s with %(names)s")
        % {"site": settings.SITE_NAME, "match": match_label(match), "names": names}
    )


def plain_line(text: str) -> str:
    """One line of plain text for a header: whitespace (newlines included) folded."""
    return " ".join(text.split())


def recipient_language(row: Notification) -> str:
    """The language of everything sent for `row`: its player's, else the one noted when the
    row was made (an invitation to an address with no account: the inviter's page), else
    the site's."""
    if row.user_id is not None:
        return language_of(row.user)
    noted = (row.context or {}).get("language", "")
    return noted if noted in CODES else settings.LANGUAGE_CODE


def render(row: Notification) -> Rendered:
    """The mail of `row`, in its recipient's language (the answer's reader re-renders a sent
    mail to find it quoted: it must come out as it went)."""
    with translation.override(recipient_language(row)):
        return _render(row)


def _render(row: Notification) -> Rendered:
    context = context_for(row)
    kind = row.kind
    # Subject templates are rendered with autoescape off: a subject is plain text.
    headline = plain_line(render_to_string(f"email/{kind}.subject.txt", context))
    if row.match_id is not None and kind not in OWN_SUBJECT_KINDS:
        subject = thread_subject(row.match)
        if context["confirmations"]:  # the player's applied moves first, then the news
            done = "; ".join(context["confirmations"])
            headline = _("%(done)s. Now: %(headline)s") % {"done": done, "headline": headline}
            context["confirmations"] = []
    else:
        subject, headline = headline, ""
    context["headline"] = headline
    text = tidy(render_to_string(f"email/{kind}.txt", context))
    html = render_to_string(f"email/{kind}.html", context)
    reply_to = ""
    if row.match_id is not None and row.seat is not None:
        seq = context.get("position", {}).get("seq", row.seq or 0)
        reply_to = reply_address(row.match_id, row.seat, seq)
    elif row.kind == Kind.ROUND and row.context.get("organiser"):
        reply_to = organiser_address(row.context["tournament_id"], row.user_id)
    return Rendered(subject=subject, text=text, html=html, reply_to=reply_to)


def thread_root(row: Notification) -> str:
    """The Message-ID this message answers: the first email of the match really sent to
    this seat (the start mail, normally), or '' when this one is the first."""
    if row.match_id is None or row.seat is None:
        return ""
    root = (
        Notification.objects.filter(
            match_id=row.match_id,
            seat=row.seat,
            address=row.address,
            channel=row.channel,
            status=Status.SENT,
        )
        .exclude(pk=row.pk)
        .order_by("sent_at", "pk")
        .values_list("message_id", flat=True)
        .first()
    )
    return root or ""


def answered_message_id(row: Notification) -> str:
    """'<id>' of the player's mail that this answer is about, or ''. The id came from outside:
    only a plain token goes into a header."""
    value = str((row.context or {}).get("answers", ""))
    if row.kind != Kind.ANSWER or not re.fullmatch(r"[!-;=?-~]{1,250}", value):
        return ""
    return f"<{value}>"


def build_email(row: Notification) -> EmailMultiAlternatives:
    rendered = render(row)
    headers = {
        # Fixed per row and random: a message sent again after a lost sender carries the
        # same id, and no other message anywhere does.
        "Message-ID": row.message_id,
        "Auto-Submitted": "auto-generated",
        "X-Auto-Response-Suppress": "All",
    }
    if row.user is not None:
        headers["List-Unsubscribe"] = f"<{unsubscribe_url(row.user)}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    root = thread_root(row)
    answered = answered_message_id(row)
    if root or answered:
        # An answer replies to the player's own mail, inside the match's thread.
        headers["In-Reply-To"] = answered or root
        headers["References"] = " ".join(dict.fromkeys(i for i in (root, answered) if i))
    message = EmailMultiAlternatives(
        subject=rendered.subject,
        body=rendered.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.address],
        reply_to=[rendered.reply_to] if rendered.reply_to else None,
        headers=headers,
    )
    # Mail clients do not show inline <svg>: each drawn board is a PNG part of the HTML (cid:).
    html, boards = inline_boards(rendered.html)
    message.attach_alternative(html, "text/html")
    if boards:
        message.mixed_subtype = "related"
        for board in boards:
            message.attach(board)
    return message


def webhook_text(row: Notification) -> str:
    """A short notice for a chat channel: what is asked and where. No private information:
    a channel may be read by more people than the player."""
    if row.kind == Kind.CHANNEL:  # written whole, at the event, for a match's channel
        return row.context.get("text", "")
    match = row.match
    label = match_label(match) if match else settings.SITE_NAME
    prompt = localize(match.prompt_text) if match else ""
    if row.kind == Kind.REMINDER:
        deadline = row.context.get("deadline", "")
        seat = _seat_row(row)
        when = local_time(prefs_for(row.user), seat.deadline_at) if seat else deadline
        return _(
            "Reminder: %(label)s is waiting for your move (%(prompt)s). Deadline: %(when)s. %(url)s"
        ) % {"label": label, "prompt": prompt, "when": when, "url": match_url(match)}
    return _("Your turn in %(label)s: %(prompt)s. %(url)s") % {
        "label": label,
        "prompt": prompt,
        "url": match_url(match),
    }
