"""What the web pages show: read-only helpers that turn a match into page context.

Everything a player sees is built here from `game.view(state, seat)`, `game.render_text`,
`selectors.history` and the match's public projections; no raw state or log payload leaves
this module for a player's page. The admin (staff only) reads raw state on its own.
"""

from __future__ import annotations

import logging
import zoneinfo
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Exists, OuterRef, Q, prefetch_related_objects
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils import timezone

from games import selectors
from games.commands import menu
from games.engine import Game, State, seats_to_ask
from games.models import Match, MatchStatus, Seat, TimeControl

log = logging.getLogger(__name__)

# Above this many legal moves the buttons are grouped by their first word.
BUTTON_LIMIT = 60


def user_timezone(user) -> zoneinfo.ZoneInfo:
    """The user's preferred time zone if the notifications app knows it, else UTC."""
    try:
        from notifications.selectors import user_timezone as preferred
    except ImportError:
        return zoneinfo.ZoneInfo("UTC")
    try:
        zone = preferred(user)
    except Exception:  # a preference that cannot be read must not break a page
        log.exception("time zone of user %s could not be read", user.pk)
        return zoneinfo.ZoneInfo("UTC")
    if isinstance(zone, str):
        try:
            return zoneinfo.ZoneInfo(zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")
    return zone or zoneinfo.ZoneInfo("UTC")


def email_status(user) -> dict[str, Any]:
    """Whether mail to the user is failing, if the notifications app can tell."""
    try:
        from notifications.selectors import email_status as status
    except ImportError:
        return {}
    try:
        return status(user)
    except Exception:  # a warning that cannot be read must not break a page
        log.exception("email status of user %s could not be read", user.pk)
        return {}


def time_left(deadline: datetime | None, now: datetime | None = None) -> str:
    """'2 days 3 hours', '45 minutes', 'overdue' or '' for no deadline."""
    if deadline is None:
        return ""
    left = deadline - (now or timezone.now())
    if left <= timedelta(0):
        return "overdue"
    days, seconds = left.days, left.seconds
    hours, minutes = seconds // 3600, (seconds % 3600) // 60
    if days:
        return f"{days} day{'s' * (days != 1)} {hours} hour{'s' * (hours != 1)}"
    if hours:
        return f"{hours} hour{'s' * (hours != 1)} {minutes} min"
    return f"{max(minutes, 1)} min"


# --- lobby --------------------------------------------------------------------------------


@dataclass
class LobbyRow:
    match: Match
    seat: Seat
    your_turn: bool
    deadline_at: datetime | None
    time_left: str
    players: list[str]


def shown_deadline(seat: Seat) -> datetime | None:
    """The deadline the sweep will enforce: the stored one, later if the player booked a
    vacation after it was set."""
    from notifications.selectors import effective_deadline

    return effective_deadline(seat)


LOBBY_TURNS = 50  # the seats waiting on the player, soonest deadline first, at most
LOBBY_PAGE = 25  # the player's other matches, newest first, a page at a time
OPEN_PAGE = 25  # open matches, newest first, a page at a time


@dataclass
class LobbyPage:
    rows: list[LobbyRow]
    older: int | None  # pass as ?older= for the next page of the other matches
    more_turns: bool  # more seats wait on the player than LOBBY_TURNS


def _your_turn():
    # Asked seats have a deadline; a seat whose one legal move waits for the others has not.
    return Q(deadline_at__isnull=False, resigned=False, match__status=MatchStatus.ACTIVE)


def lobby_page(user, older: int | None = None) -> LobbyPage:
    """The user's matches, bounded whatever their number: on the first page every seat that
    waits on the player (soonest deadline first, at most LOBBY_TURNS), then LOBBY_PAGE other
    matches newest first; `older` (a match id) pages on through the other matches. Each part
    is one indexed query (seat_user_turn, seat_user_match) that stops at its limit."""
    from notifications.deadlines import effective_deadline
    from notifications.models import SeatClock
    from notifications.preferences import prefs_for, vacation_days

    turns: list[Seat] = []
    if older is None:
        turns = list(
            Seat.objects.filter(_your_turn(), user=user)
            .select_related("match")
            .order_by("deadline_at", "pk")[: LOBBY_TURNS + 1]
        )
    more_turns = len(turns) > LOBBY_TURNS
    turns = [s for s in turns[:LOBBY_TURNS] if s.number in s.match.to_act]
    others = Seat.objects.filter(user=user).exclude(_your_turn()).select_related("match")
    if older is not None:
        others = others.filter(match_id__lt=older)
    others = list(others.order_by("-match_id")[: LOBBY_PAGE + 1])
    next_older = others[LOBBY_PAGE - 1].match_id if len(others) > LOBBY_PAGE else None
    others = others[:LOBBY_PAGE]
    seats = turns + others
    matches = [s.match for s in seats]
    prefetch_related_objects(matches, "seats__user")
    # Every row is this user's: their calendar once, and the time-bank clocks in one query.
    calendar = (prefs_for(user), vacation_days(user)) if turns else None
    banked = [s for s in turns if s.match.time_control == TimeControl.BANK]
    clocks = (
        {
            (c.match_id, c.seat): c
            for c in SeatClock.objects.filter(match_id__in=[s.match_id for s in banked])
        }
        if banked
        else {}
    )
    now = timezone.now()
    rows = []
    for seat in seats:
        match = seat.match
        seat.user = user
        your_turn = seat in turns
        deadline = (
            effective_deadline(seat, calendar, clocks.get((match.pk, seat.number)))
            if your_turn
            else None
        )
        rows.append(
            LobbyRow(
                match=match,
                seat=seat,
                your_turn=your_turn,
                deadline_at=deadline,
                time_left=time_left(deadline, now) if your_turn else "",
                players=[s.name for s in match.seats.all()],
            )
        )
    far = now + timedelta(days=3650)
    rows[: len(turns)] = sorted(rows[: len(turns)], key=lambda r: r.deadline_at or far)
    return LobbyPage(rows=rows, older=next_older, more_turns=more_turns)


def my_matches(user, older: int | None = None) -> list[LobbyRow]:
    """The rows of the user's lobby page (see `lobby_page`)."""
    return lobby_page(user, older).rows


def open_matches(user, before: int | None = None) -> tuple[list[Match], int | None]:
    """Matches waiting for players that this user may join, newest first, OPEN_PAGE at a
    time; and the id to pass as ?open_before= for the next page (None: no more). One query
    that walks match_open_newest and stops at the page's end."""
    email = (getattr(user, "email", "") or "").lower()
    joinable = Seat.objects.filter(match=OuterRef("pk"), user__isnull=True, is_bot=False).filter(
        Q(invited_email="") | Q(invited_email=email)
    )
    matches = Match.objects.filter(Exists(joinable), status=MatchStatus.OPEN)
    if getattr(user, "is_authenticated", False):
        matches = matches.exclude(Exists(Seat.objects.filter(match=OuterRef("pk"), user=user)))
    if before is not None:
        matches = matches.filter(pk__lt=before)
    page = list(matches.order_by("-pk")[: OPEN_PAGE + 1])
    return page[:OPEN_PAGE], page[OPEN_PAGE - 1].pk if len(page) > OPEN_PAGE else None


# --- the match page -----------------------------------------------------------------------


@dataclass
class MoveGroup:
    label: str
    commands: list[str]


@dataclass
class MatchPage:
    match: Match
    game: Game
    seat: Seat | None
    seats: list[Seat]
    viewer: int | None  # the seat whose view is shown; None: the public view
    view: dict[str, Any]
    text_board: str
    board_template: str | None
    legal_commands: list[str]
    move_groups: list[MoveGroup]
    numbered: bool
    your_turn: bool
    deferred_command: str
    waiting_on: list[str]
    history: list[dict[str, Any]]
    result_lines: list[dict[str, Any]]
    result_notes: list[str]
    standing_orders: list[dict[str, Any]] = field(default_factory=list)


def board_template(slug: str) -> str | None:
    """The game's own board fragment, if it has one."""
    name = f"games/{slug}/board.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return None
    return name


def template_exists(name: str) -> bool:
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return False
    return True


def group_commands(commands: list[str]) -> list[MoveGroup]:
    """One group when the list is short; otherwise by the command's first word."""
    if len(commands) <= BUTTON_LIMIT:
        return [MoveGroup("", commands)] if commands else []
    groups: OrderedDict[str, list[str]] = OrderedDict()
    for command in commands:
        groups.setdefault(command.split(" ", 1)[0], []).append(command)
    return [MoveGroup(label, items) for label, items in groups.items()]


def result_lines(match: Match, seats: list[Seat]) -> list[dict[str, Any]]:
    """The result in words, best first: place and 'Anna - 22 points' ('shared' in a tie)."""
    if not match.result:
        return []
    lines = []
    for line in selectors.standings(match, [s.name for s in seats]):
        text = line.name if line.score is None else f"{line.name} - {line.score} points"
        if line.shared:
            text += " (shared place)"
        lines.append({"place": line.place, "text": text})
    return lines


def match_page(match: Match, user) -> MatchPage:
    game = match.game
    seats = list(match.seats.select_related("user").order_by("number"))
    mine = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    # A viewer sees their own deadline only: a seat whose one legal move waits for the
    # others has none, so another seat's deadline (or its absence) would tell what it holds.
    for seat in seats:
        seat.shown_deadline = shown_deadline(seat) if seat is mine else None
    playing = mine if mine is not None and match.status != MatchStatus.OPEN else None
    viewer = playing.number if playing else None
    state = selectors.load_state(match) if match.status != MatchStatus.OPEN else None
    if state is None:
        view: dict[str, Any] = {}
        text_board = ""
    else:
        view = game.view(state, viewer)
        text_board = game.render_text(view)
    commands, numbered = _legal_commands(match, game, state, playing)
    # A seat with one legal move in a simultaneous decision is not asked: the move is played
    # for it once the others have answered (games/engine/driver.py).
    deferred = ""
    if commands and playing.number not in seats_to_ask(game, state):
        deferred, commands = commands[0], []
    your_turn = bool(commands)
    return MatchPage(
        match=match,
        game=game,
        seat=mine,
        seats=seats,
        viewer=viewer,
        view=view,
        text_board=text_board,
        board_template=board_template(match.game_slug) if state is not None else None,
        legal_commands=commands,
        move_groups=group_commands(commands),
        numbered=numbered,
        your_turn=your_turn,
        deferred_command=deferred,
        waiting_on=[seats[n].name for n in match.to_act if 0 <= n < len(seats)],
        history=selectors.recent_history(match, viewer) if state is not None else [],
        result_lines=result_lines(match, seats),
        result_notes=[str(n) for n in (match.result or {}).get("notes", [])],
        standing_orders=[
            {"key": o.key, "label": o.label, "on": o.key in (playing.standing_orders or [])}
            for o in game.standing_orders
        ]
        if playing and not match.is_over
        else [],
    )


def _legal_commands(
    match: Match, game: Game, state: State | None, seat: Seat | None
) -> tuple[list[str], bool]:
    if state is None or seat is None or seat.resigned or match.status != MatchStatus.ACTIVE:
        return [], False
    if seat.number not in game.to_act(state):
        return [], False
    entries = menu(game, state, seat.number)
    if entries:
        return [e.command for e in entries], True
    legal = game.legal_moves(state, seat.number)
    return [game.format_move(state, seat.number, m) for m in legal], False


def move_received(match: Match, idempotency_key: str) -> bool:
    return match.moves.filter(idempotency_key=idempotency_key).exists()


# --- replay -------------------------------------------------------------------------------


@dataclass
class ReplayFrame:
    seq: int
    head_seq: int
    boards: list[tuple[str, str]]  # (whose view, render_text)
    history: list[dict[str, Any]]


def replay_frame(match: Match, user, seq: int) -> ReplayFrame:
    """The position after move `seq` as this user could have seen it; once the match is over,
    the public view and every seat's view."""
    game = match.game
    seats = list(match.seats.select_related("user").order_by("number"))
    seq = max(0, min(seq, match.head_seq))
    state = selectors.position_after(match, seq)
    mine = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    if match.is_over:
        boards = [("Everyone (public)", game.render_text(game.view(state, None)))]
        boards += [(s.name, game.render_text(game.view(state, s.number))) for s in seats]
    elif mine is not None:
        boards = [(f"{mine.name} (you)", game.render_text(game.view(state, mine.number)))]
    else:
        boards = [("Everyone (public)", game.render_text(game.view(state, None)))]
    viewer = mine.number if mine is not None else None
    return ReplayFrame(
        seq=seq,
        head_seq=match.head_seq,
        boards=boards,
        history=selectors.recent_history(match, viewer, upto=seq),
    )
