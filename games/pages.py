"""What the web pages show: read-only helpers that turn a match into page context.

Everything a player sees is built here from `game.view(state, seat)`, `game.render_text`,
`selectors.history` and the match's public projections; no raw state or log payload leaves
this module for a player's page. The admin (staff only) reads raw state on its own.
"""

from __future__ import annotations

import logging
import math
import zoneinfo
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Exists, OuterRef, Q, prefetch_related_objects
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext, gettext_noop, ngettext, pgettext

from games import builder, selectors
from games.clock import effective_deadline
from games.engine import Game, State, seats_to_ask
from games.engine.preview import preview
from games.engine.words import Text
from games.language import in_language, localize
from games.models import Match, MatchStatus, Seat, TimeControl
from games.replay import LoggedMove, states_after
from players.calendar import calendar_of
from players.preferences import email_status as players_email_status
from players.preferences import prefs_for, zone

log = logging.getLogger(__name__)


def user_timezone(user) -> zoneinfo.ZoneInfo:
    """The time zone the player chose (UTC if none)."""
    return zone(prefs_for(user))


def email_status(user) -> dict[str, Any]:
    """Whether mail to the user is failing (players.preferences.email_status)."""
    try:
        return players_email_status(user)
    except Exception:  # a warning that cannot be read must not break a page
        log.exception("email status of user %s could not be read", user.pk)
        return {}


def time_left(deadline: datetime | None, now: datetime | None = None) -> str:
    """'2 days 3 hours', '45 minutes', 'overdue' or '' for no deadline."""
    if deadline is None:
        return ""
    left = deadline - (now or timezone.now())
    if left <= timedelta(0):
        return gettext("overdue")
    days, seconds = left.days, left.seconds
    hours, minutes = seconds // 3600, (seconds % 3600) // 60
    day_part = ngettext("%(count)s day", "%(count)s days", days) % {"count": days}
    hour_part = ngettext("%(count)s hour", "%(count)s hours", hours) % {"count": hours}
    if days:
        return f"{day_part} {hour_part}"
    if hours:
        return f"{hour_part} " + gettext("%(count)s min") % {"count": minutes}
    return gettext("%(count)s min") % {"count": max(minutes, 1)}


# --- lobby --------------------------------------------------------------------------------


@dataclass
class LobbyRow:
    match: Match
    seat: Seat
    your_turn: bool
    deadline_at: datetime | None
    time_left: str
    players: list[str]
    placing: str = ""


def placing(match: Match, number: int) -> str:
    """'1st of 3', 'shared 2nd of 4' for a finished match's seat (selectors.standings)."""
    if match.status != MatchStatus.FINISHED or not match.result:
        return ""
    lines = selectors.standings(match, [""] * len(match.result.get("scores") or []))
    mine = next((line for line in lines if line.seat == number), None)
    if mine is None:
        return ""
    place = mine.place
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
    return f"{'shared ' if mine.shared else ''}{place}{suffix} of {len(lines)}"


def shown_deadline(seat: Seat) -> datetime | None:
    """The deadline the sweep will enforce: the stored one, later if the player booked a
    vacation after it was set."""
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

    from games.models import SeatClock

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
    calendar = calendar_of(user) if turns else None
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
                placing=placing(match, seat.number),
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
class BoardPlay:
    """The move being built on the board: links for the next step's targets, the steps taken
    (each with the link that undoes it), and the move to confirm once one is left."""

    builder: builder.Builder
    links: dict[str, str]  # target id -> URL of the page with that target clicked
    off_board: list[builder.Choice]  # targets the board does not draw: buttons beside it
    on_board: int  # how many of the targets are drawn on the board
    undo: list[tuple[str, str | None]]  # (label, URL going back to before it | None: forced)
    restart: str  # URL with nothing clicked
    command: str  # the command of the move to confirm
    deselect: dict[str, str] = field(default_factory=dict)  # picked target -> URL without it
    # The move to confirm, played on a copy of the position for the mover's eyes only
    # (games/engine/preview.py): the mover's view after it, or why it cannot be shown.
    preview_view: dict[str, Any] | None = None
    preview_withheld: str = ""
    not_open: list[tuple[str, str]] = field(default_factory=list)  # (thing, why not now)
    # The off-board choices drawn as game pieces beside the board, one group per kind
    # (`pieces`); the step panel (#builder) lists the same choices for keyboards.
    pieces: list[PieceGroup] = field(default_factory=list)
    trades: list[builder.TradeForm] = field(default_factory=list)  # a trade as one form

    @property
    def picked(self) -> set[str]:
        return self.builder.picked_targets

    @property
    def last_undo(self) -> str:
        """The URL that undoes the last step taken by a click ('' if none was)."""
        return next((url for _label, url in reversed(self.undo) if url), "")

    @property
    def so_far(self) -> str:
        """The steps taken so far, in words ('Build › Bakery › E5')."""
        return " \u203a ".join(localize(label) for label, _url in self.undo)


@dataclass
class PieceGroup:
    """The choices of one kind drawn beside the board as game pieces (a character tile, an
    action, a card...), each tagged `data-component="<kind>"`. An amount (a bid, how many to
    sell: targets `<kind>:<number>`) is one control: coins to tap and a button with the total."""

    kind: str
    choices: list[tuple[builder.Choice, str]]  # (choice, URL that takes it)
    clicks: tuple[str, ...]  # the clicks before this step (hidden fields of the amount form)
    amount: bool = False

    @property
    def title(self) -> str:
        if self.kind in PIECE_TITLES:
            return gettext(PIECE_TITLES[self.kind])
        return self.kind.replace("_", " ").capitalize()


PIECE_TITLES = {
    "cmd": gettext_noop("Your choices"),
    "act": gettext_noop("Actions"),
    "end": gettext_noop("Your choices"),
}
AMOUNT_KINDS = ("bid", "count")  # targets `<kind>:<number>`, offered as one amount control


def piece_groups(
    built: builder.Builder, links: dict[str, str], drawn: tuple[str, ...], traded: set[str]
):
    """The choices the board does not draw, grouped by the prefix of their target (a trade
    action with its own form apart)."""
    groups: dict[str, PieceGroup] = {}
    for choice in built.choices:
        if choice.target.startswith(drawn) or choice.target in traded:
            continue
        kind = choice.target.split(":", 1)[0]
        group = groups.setdefault(kind, PieceGroup(kind, [], choice.picked[:-1]))
        group.choices.append((choice, links[choice.target]))
    for group in groups.values():
        numbers = [c.target.split(":", 1)[1] for c, _link in group.choices]
        group.amount = (
            group.kind in AMOUNT_KINDS and len(numbers) > 2 and all(n.isdecimal() for n in numbers)
        )
    return list(groups.values())


def step_url(match: Match, picked) -> str:
    url = reverse("match_detail", args=[match.pk])
    return f"{url}?{urlencode([('s', t) for t in picked])}" if picked else url


def in_reader_words(game: Game, built: builder.Builder) -> builder.Builder:
    """The steps' labels that a game left as its commands ("pass", "bid 3", "buy 0 cards":
    a move's own click, `Game.move_steps`) written in the reader's command words; a label
    the game wrote as a Text is said by the template."""

    def worded(label):
        return label if isinstance(label, Text) else in_language(game, str(label))

    built.choices = [replace(c, label=worded(c.label)) for c in built.choices]
    built.taken = [
        replace(t, step=t.step._replace(label=worded(t.step.label))) for t in built.taken
    ]
    return built


def board_play(match: Match, game: Game, state: State, seat: int, picked: list[str]) -> BoardPlay:
    built = in_reader_words(game, builder.build(game, state, seat, picked))
    drawn = tuple(f"{prefix}:" for prefix in game.board_targets)
    links = {c.target: step_url(match, c.picked) for c in built.choices}
    shown = preview(game, state, seat, built.move) if built.move is not None else None
    trades = builder.trade_forms(game, state, seat, built)
    # What cannot be chosen now, for the kinds offered and the ones taken by themselves (one
    # plan left to build is taken at once: the others are explained all the same).
    kinds = {c.kind for c in built.choices} | {t.step.kind for t in built.taken if t.undo is None}
    offered = {c.label.lower() for c in built.choices} | {t.step.label.lower() for t in built.taken}
    not_open = [
        (thing, why)
        for kind in sorted(kinds)
        for thing, why in game.not_open(state, seat, kind)
        if thing.lower() not in offered
    ]
    return BoardPlay(
        builder=built,
        links=links,
        off_board=[c for c in built.choices if not c.target.startswith(drawn)],
        on_board=sum(1 for c in built.choices if c.target.startswith(drawn)),
        undo=[
            (t.step.label, None if t.undo is None else step_url(match, t.undo)) for t in built.taken
        ],
        restart=step_url(match, []),
        command=game.format_move(state, seat, built.move) if built.move is not None else "",
        deselect={target: step_url(match, clicks) for target, clicks in built.deselect.items()},
        preview_view=game.view(shown.after, seat) if shown and shown.after is not None else None,
        preview_withheld=shown.withheld if shown else "",
        not_open=not_open,
        pieces=piece_groups(built, links, drawn, {t.action.target for t in trades}),
        trades=trades,
    )


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
    play: BoardPlay | None
    your_turn: bool
    deferred_command: str
    waiting_on: list[str]
    history: list[dict[str, Any]]
    result_lines: list[dict[str, Any]]
    result_notes: list[str]
    standing_orders: list[dict[str, Any]] = field(default_factory=list)
    reference: list[Any] = field(default_factory=list)  # the game's ReferenceSections
    panel: list[PanelRow] = field(default_factory=list)  # the players panel, seat by seat
    skip_confirm: bool = False  # the player's preference: a complete move is played at once
    # Standing orders that would answer the decision now asked, not yet given: offered beside
    # it ("From now on: ..."), where the player meets such a decision (issue 28).
    order_offers: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class PanelRow:
    """A seat in the players panel: the platform's seat, and what the viewer's own view of the
    game says of it (colour, score, money, goods, cards in hand as a count)."""

    seat: Seat
    colour: str
    stats: list[tuple[str, str]]


# What the panel reads from each seat's entry of `view["players"]` (each game's view.py):
# the first key found of each line, with its label. Only the viewer's own view is read, so
# another seat's money shows as "hidden" where the rules hide it (Blankenburg's purse) and a
# hand as the count every seat may see.
PANEL_FIELDS = (
    (("points", gettext_noop("Points")), ("prestige", gettext_noop("Prestige"))),
    (
        ("guilders", gettext_noop("Guilders")),
        ("silver", gettext_noop("Silver")),
        ("money", gettext_noop("Money")),
    ),
    (("cards", gettext_noop("Cards")), ("hand_size", gettext_noop("Plans in hand"))),
)


def panel_rows(view: dict[str, Any], seats: list[Seat], game: Game) -> list[PanelRow]:
    players = view.get("players") if view else None
    if not isinstance(players, list):
        return [PanelRow(seat, "", []) for seat in seats]
    rows = []
    for seat in seats:
        entry = players[seat.number] if seat.number < len(players) else {}
        entry = entry if isinstance(entry, dict) else {}
        stats = []
        for line in PANEL_FIELDS:
            for key, label in line:
                if key in entry:
                    value = entry[key]
                    if isinstance(value, list):
                        value = len(value)
                    shown = gettext("hidden") if value is None else str(value)
                    stats.append((gettext(label), shown))
                    break
        goods = _goods(entry, game.goods_names)
        if goods:
            stats.append((gettext("Goods"), goods))
        colour = next(
            (c for c in (entry.get("fill"), entry.get("colour")) if str(c).startswith("#")), ""
        )
        rows.append(PanelRow(seat, colour, stats))
    return rows


def _goods(entry: dict[str, Any], names: dict[str, str]) -> str:
    """'2 wood, 1 fish': Nieuwstad's goods list, Blankenburg's resources and gold, named as
    the game names them, in the reader's language."""
    counts: list[tuple[str, Any]] = []
    if isinstance(entry.get("goods"), list):
        goods = [g for g in entry["goods"] if isinstance(g, dict)]
        counts = [(g.get("good", ""), g.get("count")) for g in goods]
    elif isinstance(entry.get("res"), dict):
        counts = [*entry["res"].items(), ("gold", entry.get("gold"))]
    return ", ".join(
        f"{n} {localize(names.get(key, key))}" for key, n in counts if isinstance(n, int) and n > 0
    )


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


def match_page(
    match: Match, user, picked: list[str] | None = None, board_only: bool = False
) -> MatchPage:
    """The match page for `user`; `board_only` for a step of a move being built, which
    redraws only the board (no history to narrate)."""
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
        text_board = localize(game.render_text(view))
    # The tables in the reader's language (games.language); the view keeps its English
    # names, which the board's drawing looks things up by.
    reference = localize(game.reference(view)) if view else []
    commands = _legal_commands(match, game, state, playing)
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
        play=board_play(match, game, state, playing.number, picked or []) if commands else None,
        your_turn=your_turn,
        deferred_command=deferred,
        waiting_on=[seats[n].name for n in match.to_act if 0 <= n < len(seats)],
        history=selectors.recent_history(match, viewer)
        if state is not None and not board_only
        else [],
        result_lines=result_lines(match, seats),
        result_notes=result_notes(match),
        reference=reference,
        panel=panel_rows(view, seats, game),
        skip_confirm=bool(commands) and prefs_for(user).skip_confirm,
        order_offers=order_offers(game, state, playing) if commands else [],
        standing_orders=[
            {"key": o.key, "label": o.label, "on": o.key in (playing.standing_orders or [])}
            for o in game.standing_orders
        ]
        if playing and not match.is_over
        else [],
    )


def order_offers(game: Game, state: State, seat: Seat) -> list[dict[str, Any]]:
    """The standing orders the seat has not given that would answer this decision."""
    given = set(seat.standing_orders or [])
    return [
        {"key": o.key, "label": o.label, "given": sorted(given)}
        for o in game.standing_orders
        if o.key not in given
        and game.standing_move(state, seat.number, frozenset({o.key})) is not None
    ]


def _legal_commands(match: Match, game: Game, state: State | None, seat: Seat | None) -> list[str]:
    if state is None or seat is None or seat.resigned or match.status != MatchStatus.ACTIVE:
        return []
    if seat.number not in game.to_act(state):
        return []
    legal = game.legal_moves(state, seat.number)
    return [game.format_move(state, seat.number, m) for m in legal]


# --- replay -------------------------------------------------------------------------------


@dataclass
class ReplayBoard:
    who: str
    seat: int | None
    view: dict[str, Any]
    text: str


@dataclass
class ReplayFrame:
    seq: int
    head_seq: int
    boards: list[ReplayBoard]
    board_template: str | None
    history: list[dict[str, Any]]
    round_name: str  # what the game calls a round ("Turn" in Blankenburg)
    rounds: list[tuple[int, int]]  # (round, the seq it starts after)
    chart: dict[str, Any] | None  # the score chart, once the match is over
    result_notes: list[str]  # each seat's final score as a sum, and tie-breaks


def you(name: str) -> str:
    """A player's own name as the pages mark it for them: "Anna (you)"."""
    you = gettext("(you)")  # not in the f-string: xgettext reads none
    return f"{name} {you}"


def replay_frame(match: Match, user, seq: int, operator: bool = False) -> ReplayFrame:
    """The position after move `seq` as this user could have seen it; once the match is over,
    the public view and every seat's view. An `operator` (the admin's replay) sees every
    seat's view at every step, with the public narration."""
    game = match.game
    seats = list(match.seats.select_related("user").order_by("number"))
    seq = max(0, min(seq, match.head_seq))
    state = selectors.position_after(match, seq)
    mine = None
    if not operator:
        mine = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    if operator:
        shown = [(gettext("Public (spectator)"), None)] + [
            (
                gettext("Seat %(number)s: %(name)s") % {"number": s.number + 1, "name": s.name},
                s.number,
            )
            for s in seats
        ]
    elif match.is_over:
        shown = [(gettext("Everyone (public)"), None)] + [
            (you(s.name) if s is mine else s.name, s.number) for s in seats
        ]
    elif mine is not None:
        shown = [(you(mine.name), mine.number)]
    else:
        shown = [(gettext("Everyone (public)"), None)]
    boards = []
    for who, number in shown:
        view = game.view(state, number)
        boards.append(ReplayBoard(who, number, view, localize(game.render_text(view))))
    viewer = mine.number if mine is not None else None
    rounds, scores = timeline(match)
    return ReplayFrame(
        seq=seq,
        head_seq=match.head_seq,
        boards=boards,
        board_template=board_template(match.game_slug),
        history=selectors.recent_history(match, viewer, upto=seq),
        round_name=localize(game.round_name),
        rounds=rounds,
        chart=(
            score_chart(scores, [s.name for s in seats], game.seat_colours(state))
            if match.is_over
            else None
        ),
        result_notes=result_notes(match),
    )


def _public_points(game: Game, state: State) -> list[int] | None:
    players = game.view(state, None).get("players")
    if not isinstance(players, list):
        return None
    for key in ("points", "prestige"):
        if players and all(isinstance(p, dict) and isinstance(p.get(key), int) for p in players):
            return [p[key] for p in players]
    return None


def result_notes(match: Match) -> list[str]:
    return selectors.result_notes(match)


def timeline(match: Match) -> tuple[list[tuple[int, int]], list[tuple[int | str, list[int]]]]:
    """Where each round starts (after which move), by the game's own count (`round_of`), and
    the public scores at each start, then the final scores ("end"), from one pass over the
    log."""
    game = match.game
    state = selectors.setup_state(match)
    rounds: list[tuple[int, int]] = []
    scores: list[tuple[int | str, list[int]]] = []

    def starts(number: int, seq: int, position: State) -> None:
        rounds.append((number, seq))
        points = _public_points(game, position)
        if points is not None:
            scores.append((number, points))

    current = game.round_of(state)
    if current is not None:
        starts(current, 0, state)
    rows = match.moves.order_by("seq").values_list("seq", "seat", "kind", "payload")
    entries = [LoggedMove(*row) for row in rows]
    for entry, after in states_after(game, state, entries, match.seed):
        number = game.round_of(after)
        if number is not None and number != current:
            current = number
            starts(number, entry.seq, after)
    final = (match.result or {}).get("scores") if match.is_over else None
    if final and scores:
        scores.append((pgettext("score chart", "end"), list(final)))
    return rounds, scores


# For a game without seat colours; otherwise a seat's line has its colour on the board, and
# one too light for the white chart (Nieuwstad's white seals) is outlined as its seal is.
CHART_COLOURS = ("#1e5bc6", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#37474f")
CHART_OUTLINE = "#1f1f1f"


# The chart's own size in CSS pixels: it is never scaled down (its 12 px labels would shrink
# below legibility on a phone), so it is no wider than the side column's narrowest box (16rem
# less the card's padding: 215 px, at an 801 px window) and fits a phone; a match too long
# for 6 px a round widens it and it pans in its box.
CHART_WIDTH, CHART_LEFT, CHART_RIGHT = 214, 40, 14
MIN_STEP = 6
# Centres of two 12 px labels at least this far apart never overlap: a round's two digits are
# about 14 px wide and "end" 20 px, which leaves a gap of 5 px or more.
LABEL_SPACING = 22


def _luminance(colour: str) -> float:
    channels = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def chart_colours(colours: list[str], seats: int) -> list[tuple[str, str]]:
    """(line, outline) for each seat; the outline is "" unless the line has under 3:1
    against the chart's white (WCAG 1.4.11)."""
    colours = colours or [CHART_COLOURS[s % len(CHART_COLOURS)] for s in range(seats)]
    return [(c, CHART_OUTLINE if 1.05 / (_luminance(c) + 0.05) < 3 else "") for c in colours]


def score_chart(
    scores: list[tuple[int | str, list[int]]],
    names: list[str],
    colours: list[str] | None = None,
) -> dict[str, Any] | None:
    """An SVG line chart of each seat's public score at each round's start, and the final.
    When the rounds are too close for a label each, every second (third...) round is
    labelled, always the first and the end."""
    if len(scores) < 2:
        return None
    steps = len(scores) - 1
    left, bottom = CHART_LEFT, 30
    width = max(CHART_WIDTH, left + CHART_RIGHT + MIN_STEP * steps)
    height = 200
    step = (width - left - CHART_RIGHT) / steps
    top = max(max(points) for _r, points in scores) or 1
    xs = [left + step * i for i in range(len(scores))]
    lines = []
    inks = chart_colours(colours or [], len(names))
    for seat, name in enumerate(names):
        coords = []
        for x, (_r, points) in zip(xs, scores, strict=True):
            if seat < len(points):
                y = height - bottom - (height - bottom - 10) * points[seat] / top
                coords.append(f"{x:.1f},{y:.1f}")
        lines.append(
            {
                "name": name,
                "colour": inks[seat][0],
                "outline": inks[seat][1],
                "points": " ".join(coords),
                "final": scores[-1][1][seat] if seat < len(scores[-1][1]) else "",
            }
        )
    every = max(1, math.ceil(LABEL_SPACING / step))
    ticks = [
        {"x": round(xs[i], 1), "label": label}
        for i, (label, _p) in enumerate(scores)
        if i == steps or (i % every == 0 and (steps - i) * step >= LABEL_SPACING)
    ]
    return {
        "width": width,
        "height": height,
        "left": left,
        "base": height - bottom,
        "top": top,
        "lines": lines,
        "ticks": ticks,
    }
