"""The service layer: the only code that writes matches, seats and the move log.

Every write happens in one transaction that locks the match row first, so two players (or a
player and a deadline sweep) acting at the same instant are serialised; the unique
(match, seq) constraint is the last line of defence.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.db.models import Case, Value, When
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from community.names import public_name
from community.ratings import record_finished
from games import clock, events, vacation_bank
from games.commands import interpret
from games.conflicts import retried_on_lock_conflict
from games.engine import (
    GENESIS,
    IllegalMove,
    State,
    chain_digest,
    copy_state,
    event_rng,
    get_game,
    new_seed,
    next_step,
    seed_commitment,
)
from games.engine.preview import reveals_hidden
from games.engine.words import Text, joined
from games.language import in_language, localize, refusal_in
from games.models import (
    Match,
    MatchStatus,
    Move,
    MoveKind,
    MoveSource,
    Seat,
    SeatHolder,
    SkipVote,
    Snapshot,
    TimeControl,
    TimeoutPolicy,
)
from games.replay import LoggedMove, apply_logged, initial_digest, initial_state
from games.selectors import load_state, position_after, remember_position
from players import accounts
from players.calendar import Calendars, clock_stopped
from players.models import Preferences
from players.preferences import prefs_for, vacation_booked

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1  # the largest primary key (BigAutoField)
MAX_AUTOMATIC_MOVES = 50_000  # a bot-only match is played out inside one call
MAX_VACATION_CAP = 60  # days of a player's bank the clock may spend in one match


class ServiceError(Exception):
    """A request the platform refuses; the message is for the person who made it."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Outcome(StrEnum):
    """What became of a request to the match: a value to branch on, never a sentence."""

    APPLIED = "applied"
    REPEAT = "repeat"  # its idempotency key was seen before, with the same request
    KEY_REUSED = "key_reused"  # its idempotency key was used before for another request
    MOVED_ON = "moved_on"  # the position the player saw is no longer the one asked about
    NOT_YOUR_TURN = "not_your_turn"
    NOT_IN_PLAY = "not_in_play"  # not started yet, over, or the player resigned
    NOT_A_PLAYER = "not_a_player"  # no seat of the match is the player's
    ILLEGAL = "illegal"  # the rules refuse the move, or the command means none
    REFUSED = "refused"  # a policy refuses it (takebacks, standing orders, operator)


# Outcomes that say the match is not where the asker thought it was (the API answers 409).
CONFLICTS = frozenset(
    {Outcome.MOVED_ON, Outcome.NOT_YOUR_TURN, Outcome.NOT_IN_PLAY, Outcome.KEY_REUSED}
)


@dataclass
class MoveResult:
    outcome: Outcome
    message: str = ""
    applied: list[Move] = field(default_factory=list)
    match: Match | None = None
    seat: Seat | None = None  # the asker's seat, as the request left it
    worded: str = ""  # an applied typed command, in the game's own words

    @property
    def ok(self) -> bool:
        return self.outcome in (Outcome.APPLIED, Outcome.REPEAT)

    @property
    def duplicate(self) -> bool:
        return self.outcome == Outcome.REPEAT

    def headline(self, command: str = "") -> str:
        """What happened, in the words every path says first: the web page's message, the
        API's `message`, an email answer's line. `command` is the request as the player
        wrote it, for a move the game did not word itself."""
        # The move as the reader would write it (their command words, which read back as the
        # same move); a repeat's line as the player wrote it.
        what = self.worded or command
        if self.worded and self.match is not None:
            what = in_language(self.match.game, self.worded)
        # The refusals are marked with gettext_noop where they are made (they are also kept and
        # compared as English); they are said in the active language here.
        if isinstance(self.message, Text) and self.match is not None:
            message = refusal_in(self.match.game, self.message)  # its commands in their words
        else:
            message = localize(self.message)
        message = gettext(message) if message else ""
        if self.outcome == Outcome.REPEAT:
            if what:
                return gettext("Already applied: %(what)s.") % {"what": what}
            return gettext("Already applied. %(message)s") % {"message": message}
        if self.outcome == Outcome.APPLIED:
            if message:
                return message
            return gettext("Applied: %(what)s.") % {"what": what} if what else gettext("Applied.")
        if self.outcome == Outcome.MOVED_ON:
            return gettext("Not applied: the game has moved on since the position you saw.")
        return gettext("Not applied: %(message)s") % {"message": message}


# --- creating and joining -----------------------------------------------------------------


def create_match(
    *,
    creator: AbstractBaseUser | None,
    game_slug: str,
    players: int,
    options: dict[str, Any] | None = None,
    bots: int = 0,
    invite_emails: list[str] | None = None,
    time_control: str = TimeControl.PER_MOVE,
    days_per_move: int = 3,
    bank_days: int = 0,
    increment_days: int = 0,
    weekends_off: bool = False,
    timeout_policy: str = TimeoutPolicy.DEFAULT_MOVE,
    forfeit_after: int = 3,
    vacation_cap: int | None = None,
    seed: str | None = None,
    rated: bool = False,
    watchable: bool = False,
    takebacks: bool = False,
) -> Match:
    """A new match with the creator in the first seat, invited and bot seats, the rest open.
    It starts at once when no seat is left open. `vacation_cap`: the most days the clock may
    spend from one player's vacation bank in this match (None: the site's default)."""
    try:
        game = get_game(game_slug)
    except KeyError:
        raise ServiceError(f"There is no game called {game_slug!r}.") from None
    try:
        options = game.validate_options(players, options or {})
    except IllegalMove as error:
        raise ServiceError(error.message) from None
    invite_emails = [e.strip().lower() for e in (invite_emails or []) if e.strip()]
    taken = (1 if creator else 0) + bots + len(invite_emails)
    if taken > players:
        raise ServiceError(f"{taken} seats asked for, but the match has only {players}.")
    if days_per_move < 1 or days_per_move > 30:
        raise ServiceError(gettext_noop("Days per move must be between 1 and 30."))
    if timeout_policy not in TimeoutPolicy.values:
        raise ServiceError(gettext_noop("Unknown timeout policy."))
    if time_control not in TimeControl.values:
        raise ServiceError(gettext_noop("Unknown time control."))
    if vacation_cap is None:
        vacation_cap = vacation_bank.default_cap()
    if not 0 <= vacation_cap <= MAX_VACATION_CAP:
        raise ServiceError(gettext_noop("The vacation cap must be between 0 and 60 days."))
    seed = seed or new_seed()  # a given seed is for simulations and tests
    with transaction.atomic():
        match = Match.objects.create(
            game_slug=game.slug,
            rules_version=game.version,
            options=options,
            player_count=players,
            seed=seed,
            seed_commitment=seed_commitment(seed),
            created_by=creator,
            time_control=time_control,
            days_per_move=days_per_move,
            bank_days=bank_days,
            increment_days=increment_days,
            weekends_off=weekends_off,
            timeout_policy=timeout_policy,
            forfeit_after=max(1, forfeit_after),
            vacation_cap=vacation_cap,
            rated=rated and bots == 0,
            watchable=watchable,
            takebacks=takebacks,
        )
        number = 0
        if creator:
            Seat.objects.create(
                match=match, number=number, user=creator, display_name=bot_seat_name(creator)
            )
            number += 1
        for email in invite_emails:
            Seat.objects.create(match=match, number=number, invited_email=email)
            number += 1
        for bot in range(bots):
            Seat.objects.create(
                match=match, number=number, is_bot=True, display_name=f"Bot {bot + 1}"
            )
            number += 1
        while number < players:
            Seat.objects.create(match=match, number=number)
            number += 1
        if invite_emails:
            inviter = creator.get_full_name() or creator.email if creator else "A player"
            events.players_invited.send(
                sender=Match, match=match, emails=invite_emails, inviter=inviter
            )
        _start_if_full(match)
    return match


@retried_on_lock_conflict
def join_match(*, match_id: int, user: AbstractBaseUser) -> Seat:
    """Take the seat this user was invited to, or else an open seat."""
    with transaction.atomic():
        match, seats = _lock(match_id)  # the lock every writer takes, in the same order
        if match.status != MatchStatus.OPEN:
            raise ServiceError(gettext_noop("This match has already started."))
        if any(s.user_id == user.pk for s in seats):
            raise ServiceError(gettext_noop("You already have a seat in this match."))
        # A seat reserved for an address goes only to an account that has proved it owns it.
        email = (user.email or "").lower() if accounts.is_verified(user) else None
        seat = next((s for s in seats if s.is_open and s.invited_email == email), None)
        seat = seat or next((s for s in seats if s.is_open and not s.invited_email), None)
        if seat is None:
            raise ServiceError(gettext_noop("There is no open seat for you in this match."))
        seat.user = user
        seat.display_name = bot_seat_name(user)
        seat.save(update_fields=["user", "display_name"])
        _start_if_full(match)
        return seat


def bot_seat_name(user: AbstractBaseUser) -> str:
    """A bot account's seat says so on every page and email; a person's seat keeps the
    name of its account (empty: the name is read from the account)."""
    if not accounts.is_bot_account(user):
        return ""
    return f"{public_name(user)} (bot)"


def _start_if_full(match: Match) -> None:
    seats = list(match.seats.select_related("user").order_by("number"))
    if any(s.is_open for s in seats):
        return
    _start(match, seats)


def _start(match: Match, seats: list[Seat]) -> None:
    """Draw the seating order from the seed, freeze names, set up and play forced moves."""
    game = match.game
    order = list(seats)
    event_rng(match.seed, -1).shuffle(order)  # seq -1: the seating draw, before setup
    for seat in seats:  # two passes keep numbers unique at every step
        seat.number += 100
        seat.save(update_fields=["number"])
    for number, seat in enumerate(order):
        seat.number = number
        if seat.is_bot and seat.user_id is None and seat.display_name.startswith("Bot "):
            seat.display_name = f"Bot {number + 1}"  # named after the seat it drew
        seat.display_name = seat.name
        seat.save(update_fields=["number", "display_name"])
    state = initial_state(game, [s.display_name for s in order], match.options, match.seed)
    match.status = MatchStatus.ACTIVE
    match.started_at = timezone.now()
    match.head_seq = 0
    match.head_digest = initial_digest(state)
    match.save()
    turn = _Turn(match, game, state, order)
    turn.tell(events.match_started)
    turn.advance()
    turn.finish_projections(previous_to_act=[])


# --- moves --------------------------------------------------------------------------------


class _Turn:
    """The work of one transaction on a locked match: append entries, advance, project."""

    def __init__(self, match: Match, game, state: State, seats: list[Seat]):
        self.match = match
        self.game = game
        self.state = state
        self.seats = seats
        self.calendars = Calendars(seats)  # the players' calendars, read once for the turn
        self.appended: list[Move] = []
        self.moved_seats: set[int] = set()
        self.changed_seats: dict[int, Seat] = {}  # written once, by save_seats()
        self.changed_fields: set[str] = set()
        self.restored: dict[int, Move] = {}  # seat: the decision a takeback cancelled
        self.asked: list[int] = []  # who is awaited at the head, as `advance` left it
        # With `defer_inserts`, appended moves are inserted by finish_projections, with the
        # turn's other writes in one round trip; the unique indexes still refuse a repeat.
        self.defer_inserts = False
        self.unsaved: list[Move] = []

    def tell(self, event, **data) -> None:
        """Send a games.events event with the turn's seats, their players' calendars and the
        position the turn has reached (`state`, so a receiver replays nothing)."""
        event.send(
            sender=Match,
            match=self.match,
            seats=self.seats,
            calendars=self.calendars,
            state=self.state,
            **data,
        )

    def seat_changed(self, seat: Seat, *fields: str) -> None:
        self.changed_seats[seat.number] = seat
        self.changed_fields.update(fields)

    def save_seats(self) -> None:
        """Every seat this turn changed, in one statement."""
        _save_seats(self.changed_seats.values(), sorted(self.changed_fields))
        self.changed_seats, self.changed_fields = {}, set()

    def clear_deadlines(self, seats: Iterable[Seat]) -> None:
        for seat in seats:
            if _clear_deadline(seat):
                self.seat_changed(seat, *DEADLINE_FIELDS)

    def append(
        self,
        *,
        seat: int | None,
        kind: str,
        payload: dict,
        source: str,
        idempotency_key: str | None = None,
        note: str = "",
        before: State | None = None,
    ) -> Move:
        seq = self.match.head_seq + 1
        entry = LoggedMove(seq=seq, seat=seat, kind=kind, payload=payload)
        self.state = apply_logged(self.game, self.state, entry, self.match.seed, before=before)
        digest = chain_digest(self.match.head_digest or GENESIS, self.state)
        clock = self.seats[seat] if seat is not None and seat < len(self.seats) else None
        row = Move(
            match=self.match,
            seq=seq,
            seat=seat,
            kind=kind,
            payload=payload,
            source=source,
            idempotency_key=idempotency_key,
            digest=digest,
            note=note[:500],
            asked_at=clock.waiting_since if clock else None,
            deadline_at=clock.deadline_at if clock else None,
        )
        if self.defer_inserts:
            self.unsaved.append(row)
        else:
            row.save(force_insert=True)
        self.match.head_seq = seq
        self.match.head_digest = digest
        if seq % settings.SNAPSHOT_EVERY == 0:
            Snapshot.objects.create(match=self.match, seq=seq, state=self.state, digest=digest)
        self.appended.append(row)
        if seat is not None:
            self.moved_seats.add(seat)
        return row

    def save_moves(self) -> None:
        """The moves `append` kept back (`defer_inserts`), in one statement."""
        if self.unsaved:
            Move.objects.bulk_create(self.unsaved)
        self.unsaved = []

    def advance(self) -> None:
        """Play every decision that needs no person: forced moves, standing orders, bots."""
        orders = {s.number: frozenset(s.standing_orders) for s in self.seats if s.standing_orders}
        for _ in range(MAX_AUTOMATIC_MOVES):
            if self.game.result(self.state) is not None:
                return
            automatic, self.asked = next_step(self.game, self.state, orders)
            if automatic is not None:
                self.append(
                    seat=automatic.seat,
                    kind=MoveKind.MOVE,
                    payload=automatic.move,
                    source=automatic.source,
                )
                continue
            bots = [s for s in self.asked if self.seats[s].played_by_bot]
            if not bots:
                return
            seat = bots[0]
            if self.seats[seat].skipped:  # voted out: the rules' default move, at once
                move = self.game.default_move(self.state, seat)
                self.append(seat=seat, kind=MoveKind.MOVE, payload=move, source=MoveSource.DEADLINE)
                continue
            bot_rng = event_rng(self.match.seed + ":bot", self.match.head_seq + 1)
            move = self.game.bot_move(self.state, seat, bot_rng)
            self.append(seat=seat, kind=MoveKind.MOVE, payload=move, source=MoveSource.BOT)
        raise RuntimeError(f"match {self.match.pk}: no end after {MAX_AUTOMATIC_MOVES} moves")

    def finish_projections(self, previous_to_act: list[int]) -> None:
        match, game = self.match, self.game
        now = timezone.now()
        result = game.result(self.state)
        if result is not None:
            self.save_moves()
            match.to_act = []
            match.prompt = ""
            match.result = _with_resignations(result.as_json(), self.seats)
            match.status = MatchStatus.FINISHED
            match.finished_at = now
            self.clear_deadlines(self.seats)
            self.save_seats()
            _save_match(match, PROJECTION_FIELDS + FINISH_FIELDS)
            record_finished(match, self.seats)
            self.tell(events.moves_appended, moves=self.appended, newly_to_act=[])
            self.tell(events.match_finished)
            return
        to_act = game.to_act(self.state)
        match.to_act = to_act
        match.prompt = game.prompt(self.state, to_act[0]) if to_act else ""
        remember_position(match, self.state)
        if clock.reads_log(match):
            self.save_moves()  # a time bank reads the answer's time from its row
        newly = self._set_deadlines(previous_to_act, now)  # reads and writes clocks: first
        self.save_moves()
        _save_match(match, PROJECTION_FIELDS)
        self.save_seats()
        self.tell(events.moves_appended, moves=self.appended, newly_to_act=newly)

    def _set_deadlines(self, previous_to_act: list[int], now) -> list[int]:
        """Start, keep or clear each seat's deadline (in memory, saved by `save_seats`);
        the seats newly asked to decide."""
        match = self.match
        asked = set(self.asked)  # a forced seat waits unasked: see the driver's next_step
        newly = []
        for seat in self.seats:
            waiting = seat.number in asked and not seat.played_by_bot
            asked_again = seat.number not in previous_to_act or seat.number in self.moved_seats
            cancelled = self.restored.get(seat.number)
            if waiting and cancelled is not None and cancelled.deadline_at is not None:
                # A takeback gives no time back: the clock the seat had runs on.
                calendar = self.calendars.of(seat.user)
                seat.deadline_at = clock.deadline_restored(match, seat, cancelled, calendar)
                seat.deadline_seq = match.head_seq
                seat.waiting_since = cancelled.asked_at
                self.seat_changed(seat, *DEADLINE_FIELDS)
                newly.append(seat.number)
            elif waiting and (asked_again or seat.deadline_at is None):
                seat.deadline_at = clock.deadline_for(
                    match, seat, now, self.calendars.of(seat.user)
                )
                seat.deadline_seq = match.head_seq
                seat.waiting_since = now
                self.seat_changed(seat, *DEADLINE_FIELDS)
                newly.append(seat.number)
            elif not waiting:
                self.clear_deadlines([seat])
        return newly


# What a move changes on the match row: saved by name, never the whole row.
PROJECTION_FIELDS = ["head_seq", "head_digest", "to_act", "prompt"]
FINISH_FIELDS = ["result", "status", "finished_at"]
DEADLINE_FIELDS = ("deadline_at", "deadline_seq", "waiting_since")


def _save_seats(seats: Iterable[Seat], fields: list[str]) -> None:
    """The seats' `fields` in one UPDATE: a field every seat gets the same value of is set
    plainly, another by a CASE over the values (a seat asked, a seat done). The ORM builds
    it in a fraction of the time of `bulk_update`'s CASE for every field and seat."""
    seats = list(seats)
    if not seats or not fields:
        return
    values = {}
    for name in fields:
        field = Seat._meta.get_field(name)
        groups: list[tuple[object, list[int]]] = []  # (value, seats' keys): JSON is unhashable
        for seat in seats:
            value = getattr(seat, field.attname)
            found = next((pks for v, pks in groups if v == value), None)
            if found is None:
                groups.append((value, [seat.pk]))
            else:
                found.append(seat.pk)
        *cases, (last, _) = groups
        values[field.attname] = last
        if cases:
            whens = [When(pk__in=pks, then=Value(v, output_field=field)) for v, pks in cases]
            case = Case(*whens, default=Value(last, output_field=field), output_field=field)
            # As bulk_update: PostgreSQL reads a CASE of parameters as text without a cast.
            casts = connection.features.requires_casted_case_in_updates
            values[field.attname] = Cast(case, field) if casts else case
    Seat.objects.filter(pk__in=[seat.pk for seat in seats]).update(**values)


def _save_match(match: Match, fields: list[str]) -> None:
    """The match's projections, by name: one UPDATE without reading the row back. The
    prompt goes with its words (a Text's message and parameters, for the reader's language)."""
    if "prompt" in fields:
        prompt = match.prompt
        match.prompt_words = prompt.as_json() if isinstance(prompt, Text) else {}
        fields = [*fields, "prompt_words"]
    Match.objects.filter(pk=match.pk).update(**{name: getattr(match, name) for name in fields})


def _clear_deadline(seat: Seat) -> bool:
    """Forget the seat's deadline (in memory); whether there was one to forget."""
    if seat.deadline_at is None and seat.deadline_seq is None:
        return False
    seat.deadline_at = None
    seat.deadline_seq = None
    seat.waiting_since = None
    return True


def _clear_deadlines(seats: Iterable[Seat]) -> None:
    _save_seats([s for s in seats if _clear_deadline(s)], list(DEADLINE_FIELDS))


def _with_resignations(result: dict, seats: list[Seat]) -> dict:
    """Resigned seats rank last, in the order the rules ranked them."""
    resigned = [s.number for s in seats if s.resigned]
    if resigned:
        result["ranking"] = [s for s in result["ranking"] if s not in resigned] + [
            s for s in result["ranking"] if s in resigned
        ]
        result["notes"] = list(result.get("notes", [])) + [
            f"{seats[s].name} resigned and ranks last." for s in resigned
        ]
        kept = [[s for s in group if s not in resigned] for group in result.get("shared", [])]
        result["shared"] = [group for group in kept if len(group) > 1]
    return result


def _lock(match_id: int) -> tuple[Match, list[Seat]]:
    """The match and its seats, every row locked, with the seats' players, the players'
    notification preferences and whether each booked a vacation (the move's hooks need them
    all), in one statement.

    Both the match and the seat rows are locked (FOR UPDATE OF both): under READ COMMITTED,
    PostgreSQL hands a locking read the newest committed version of every row it locks, so
    a request that waited for another decides on the seats and the match that one wrote,
    never on the versions its snapshot began with. Each seat row is locked before the match
    row; every path that writes a match in play locks through here, so the order is the
    same for all and two requests cannot deadlock. `Match.DoesNotExist` if there is none."""
    if not 0 < match_id <= MAX_ID:  # a URL's number no key can hold is no match, not an error
        raise Match.DoesNotExist(f"No match {match_id}.")
    seats = list(
        Seat.objects.select_for_update(of=("self", "match"))
        .filter(match_id=match_id)
        .select_related(
            "match",
            "user",
            "user__notification_prefs",
            "user__bot_account",
            "user__event_stream",  # who gets API stream events (api/account_events.py)
        )
        .annotate(vacation_booked=vacation_booked())  # a calendar's vacation days: if any
        .order_by("number")
    )
    if not seats:
        raise Match.DoesNotExist(f"No match {match_id}.")
    match = seats[0].match
    for seat in seats[1:]:
        seat.match = match  # one instance: what a hook writes on it, every seat sees
    return match, seats


lock_match = _lock  # for a match's other writers (games.chat): the same rows, the same order


ALREADY_APPLIED = gettext_noop("This was already received and applied.")
KEY_USED = (
    "This idempotency key was already used for another request (log entry {seq}); nothing "
    "was applied. Send a new key with a new request."
)
NOT_YOUR_TURN = gettext_noop("It is not your turn.")
NOT_STARTED = gettext_noop("The match has not started yet.")
OVER = gettext_noop("The match is over.")
MOVED_ON = gettext_noop("The game has moved on since that position; look at it again.")
NOT_A_PLAYER = gettext_noop("You do not play in this match.")
RESIGNED = gettext_noop("You have resigned from this match.")


@dataclass(frozen=True)
class Request:
    """What a player asked for, kept to tell a retry (the same request under its idempotency
    key) from a reused key (another request under it)."""

    kind: str  # MoveKind
    move: dict | None = None
    command: str | None = None


def _repeat(match: Match, mine: Seat, key: str | None, request: Request) -> MoveResult | None:
    """The answer to a request whose idempotency key is in the log already: REPEAT if it is
    the same request (a move in any spelling that means the same move), KEY_REUSED if not;
    None if the key is new."""
    if not key:
        return None
    first = Move.objects.filter(match_id=match.pk, idempotency_key=key).first()
    if first is None:
        return None
    if _same_request(match, first, mine.number, request):
        return MoveResult(Outcome.REPEAT, ALREADY_APPLIED, [first], match, mine)
    return MoveResult(Outcome.KEY_REUSED, KEY_USED.format(seq=first.seq), [], match, mine)


def _same_request(match: Match, first: Move, seat: int, request: Request) -> bool:
    if first.seat != seat or first.kind != request.kind:
        return False
    if request.kind != MoveKind.MOVE:
        return True
    if request.move is not None:
        return first.payload == request.move
    # A typed command is read against the position the first one was applied to.
    state = position_after(match, first.seq - 1)
    try:
        return interpret(match.game, state, seat, request.command or "") == first.payload
    except (IllegalMove, ValueError, KeyError, IndexError, TypeError):
        return False


def _refused(
    match: Match, mine: Seat, key: str | None, request: Request, outcome: Outcome, message: str
) -> MoveResult:
    """A refusal, unless the request was received before (a retry after the match moved
    on): a request does not look its key up before it is applied; only a refused one does."""
    return _repeat(match, mine, key, request) or MoveResult(outcome, message, [], match, mine)


def language_of(seat: Seat) -> str | None:
    """The seat's player's own language (None: they follow their browser's)."""
    chosen = Preferences.objects.filter(user_id=seat.user_id).values_list("language", flat=True)
    return chosen.first() or None


def _find_seat(seats: list[Seat], player: AbstractBaseUser | None, seat: int | None) -> Seat | None:
    """The player's seat among the seats read under the lock (the operator names the seat
    they act for instead)."""
    if player is not None:
        return next((s for s in seats if s.user_id == player.pk), None)
    if seat is not None and 0 <= seat < len(seats):
        return seats[seat]
    return None


def _not_in_play(match: Match) -> str:
    if match.status == MatchStatus.OPEN:
        return NOT_STARTED
    if match.is_over:
        return OVER
    return ""


@retried_on_lock_conflict
def submit_move(
    *,
    match_id: int,
    player: AbstractBaseUser | None = None,
    seat: int | None = None,
    move: dict | None = None,
    command: str | None = None,
    source: str,
    idempotency_key: str | None = None,
    seen_seq: int | None = None,
    note: str = "",
) -> MoveResult:
    """The one entry for a decision, whatever the path (web, API, email, operator): play
    `move`, or the move the typed `command` means, for `player`'s seat. `seat` instead of a
    player is for the operator, who acts for a seat (and for tests).

    In one transaction: lock the match and its seats, find the player's seat among them,
    read the command against the position the move is applied to, apply, append, project.
    `seen_seq` is the position the player saw: a seat asked again since then is told the
    game moved on. A repeated `idempotency_key` is answered with the first result and
    appends nothing (the unique index refuses it, so a move costs no look-up of its key);
    the same key with another request is refused. `Match.DoesNotExist` is raised for a
    match that does not exist."""
    request = Request(MoveKind.MOVE, move=move, command=command)
    try:
        with transaction.atomic():
            match, seats = _lock(match_id)
            mine = _find_seat(seats, player, seat)
            if mine is None:
                return MoveResult(Outcome.NOT_A_PLAYER, NOT_A_PLAYER, [], match)
            number = mine.number

            def refused(outcome: Outcome, message: str) -> MoveResult:
                return _refused(match, mine, idempotency_key, request, outcome, message)

            if _not_in_play(match):
                return refused(Outcome.NOT_IN_PLAY, _not_in_play(match))
            if mine.resigned:
                return refused(Outcome.NOT_IN_PLAY, RESIGNED)
            if seen_seq is not None and _moved_on(match, mine, seen_seq):
                return refused(Outcome.MOVED_ON, MOVED_ON)
            if number not in match.to_act:  # the projection of the head: no position needed
                return refused(Outcome.NOT_YOUR_TURN, NOT_YOUR_TURN)
            game = match.game
            state = load_state(match, seats=seats)
            if number not in game.to_act(state):
                return refused(Outcome.NOT_YOUR_TURN, NOT_YOUR_TURN)
            worded = ""

            def illegal(message):
                # A move read against a position others have changed since the player looked
                # (their question still open): it was answered to another position.
                if seen_seq is not None and seen_seq < match.head_seq:
                    return refused(Outcome.MOVED_ON, MOVED_ON)
                return refused(Outcome.ILLEGAL, message)

            if command is not None:
                try:
                    move = interpret(
                        game, state, number, command, language=lambda: language_of(mine)
                    )
                    worded = game.format_move(state, number, move)
                except IllegalMove as error:
                    return illegal(error.message)
                except (ValueError, KeyError, IndexError, TypeError):
                    # A rules parser tripped over odd input (its bug): still a clear answer.
                    log.exception("match %s: command %r could not be parsed", match.pk, command)
                    unread = Text(gettext_noop("That command could not be read."))
                    help_text = game.help_text()
                    message = joined([unread, help_text]) if str(help_text).strip() else unread
                    return refused(Outcome.ILLEGAL, message)
            turn = _Turn(match, game, state, seats)
            turn.defer_inserts = True  # finish_projections writes them (below)
            previous_to_act = list(match.to_act)
            try:
                turn.append(
                    seat=number,
                    kind=MoveKind.MOVE,
                    payload=move,
                    source=source,
                    idempotency_key=idempotency_key,
                    note=note,
                )
            except IllegalMove as error:
                return illegal(error.message)
            if mine.timeouts and source != MoveSource.DEADLINE:
                mine.timeouts = 0
                turn.seat_changed(mine, "timeouts")
            turn.advance()
            turn.finish_projections(previous_to_act)
            return MoveResult(Outcome.APPLIED, "", turn.appended, match, mine, worded)
    except IntegrityError:
        # The unique index on (match, idempotency_key) refused the insert: a retry that
        # raced the first request past the lock's checks. Answer as the first was answered.
        return _after_conflict(match_id, player, seat, idempotency_key, request)


def _after_conflict(
    match_id: int,
    player: AbstractBaseUser | None,
    seat: int | None,
    key: str | None,
    request: Request,
) -> MoveResult:
    match = Match.objects.get(pk=match_id)
    mine = _find_seat(list(match.seats.order_by("number")), player, seat)
    found = _repeat(match, mine, key, request) if mine is not None else None
    if found is None:
        raise IntegrityError(f"match {match_id}: a write was refused, not by its key")
    return found


def _moved_on(match: Match, seat: Seat, seen_seq: int) -> bool:
    """Whether the position a player saw (`seen_seq`) is older than the question the seat is
    being asked now. Other seats answering a simultaneous question (sealed bids) do not make
    an answer outdated: the seat's question started at its `deadline_seq`."""
    if seat.deadline_seq is None:
        return seen_seq != match.head_seq
    return not seat.deadline_seq <= seen_seq <= match.head_seq


# --- takebacks ----------------------------------------------------------------------------

OWN_DECISION_SOURCES = (MoveSource.WEB, MoveSource.EMAIL, MoveSource.API)


@retried_on_lock_conflict
def take_back(
    *,
    match_id: int,
    player: AbstractBaseUser | None = None,
    seat: int | None = None,
    source: str,
    idempotency_key: str | None = None,
) -> MoveResult:
    """Cancel the player's last decision, where the match allows takebacks, under the policy
    of docs/takebacks.md: it is the last entry of the log (nobody has acted on it since), it
    drew no randomness, and it revealed nothing hidden to anyone. The takeback is a new
    entry; replay skips the decision it cancels."""
    request = Request(MoveKind.TAKEBACK)
    try:
        with transaction.atomic():
            match, seats = _lock(match_id)
            mine = _find_seat(seats, player, seat)
            if mine is None:
                return MoveResult(Outcome.NOT_A_PLAYER, NOT_A_PLAYER, [], match)
            number = mine.number
            repeat = _repeat(match, mine, idempotency_key, request)
            if repeat is not None:
                return repeat
            cancelled = match.moves.filter(seq=match.head_seq).first()
            refusal = takeback_refusal(match, number, cancelled)
            if refusal:
                outcome = Outcome.NOT_IN_PLAY if _not_in_play(match) else Outcome.REFUSED
                return MoveResult(outcome, refusal, [], match, mine)
            game = match.game
            before = load_state(match, upto=match.head_seq - 1, seats=seats)
            turn = _Turn(match, game, load_state(match, seats=seats), seats)
            turn.restored[number] = cancelled
            previous_to_act = list(match.to_act)
            turn.append(
                seat=number,
                kind=MoveKind.TAKEBACK,
                payload={"cancels": match.head_seq},
                source=source,
                idempotency_key=idempotency_key,
                before=before,
            )
            turn.advance()
            turn.finish_projections(previous_to_act)
            return MoveResult(Outcome.APPLIED, TAKEN_BACK, turn.appended, match, mine)
    except IntegrityError:
        return _after_conflict(match_id, player, seat, idempotency_key, request)


TAKEN_BACK = gettext_noop("Your last move is taken back.")


def takeback_refusal(match: Match, seat: int, last: Move | None) -> str:
    """Why `seat` may not take back `last`, the log's last entry, now ("" if it may)."""
    if not match.takebacks:
        return gettext_noop("This match does not allow takebacks.")
    if match.status != MatchStatus.ACTIVE:
        return gettext_noop("The match is not in play.")
    if last is None:
        return NO_DECISION_TO_TAKE_BACK
    cancelled = LoggedMove(last.seq, last.seat, last.kind, last.payload)
    refusal = _not_own_decision(cancelled, last.source, seat)
    if refusal:
        return refusal
    if last.deadline_at is not None and last.deadline_at <= timezone.now():
        # A takeback gives the clock back as it was, and that clock has run out.
        return gettext_noop("Your deadline for that decision has passed; it stands.")
    return _policy_refusal(match.game, match.seed, cancelled, load_state(match, upto=last.seq - 1))


NO_DECISION_TO_TAKE_BACK = gettext_noop(
    "There is no decision of yours to take back: the last entry is not one."
)


def _not_own_decision(last: LoggedMove, source: str, seat: int) -> str:
    """Why the log's last entry is not a decision `seat` made itself ("" if it is)."""
    if last.kind != MoveKind.MOVE or source not in OWN_DECISION_SOURCES:
        return NO_DECISION_TO_TAKE_BACK
    if last.seat != seat:
        return gettext_noop("Another player has acted since your last decision; it stands.")
    return ""


def _policy_refusal(game, seed: str, last: LoggedMove, before: State) -> str:
    """Why the decision `last`, played from `before`, stands: it drew by chance or revealed
    something hidden ("" if it may be taken back)."""
    rng = event_rng(seed, last.seq)
    after = game.apply(copy_state(before), last.seat, last.payload, rng)
    if rng.drawn:
        return gettext_noop(
            "Your move drew something by chance (a shuffle, a draw, a die); it stands."
        )
    if reveals_hidden(game, before, after, last.seat):
        return gettext_noop("Your move revealed hidden information; it stands.")
    return ""


@retried_on_lock_conflict
def resign(
    *,
    match_id: int,
    player: AbstractBaseUser | None = None,
    seat: int | None = None,
    source: str,
    idempotency_key: str | None = None,
    note: str = "",
) -> MoveResult:
    """The player leaves the match. A bot plays the seat on and it ranks last; when no
    person is left playing (or one is left alone against nobody), the match ends now."""
    request = Request(MoveKind.RESIGN)
    try:
        with transaction.atomic():
            match, seats = _lock(match_id)
            mine = _find_seat(seats, player, seat)
            if mine is None:
                return MoveResult(Outcome.NOT_A_PLAYER, NOT_A_PLAYER, [], match)
            number = mine.number
            if _not_in_play(match) or mine.resigned:
                message = _not_in_play(match) or RESIGNED
                return _refused(match, mine, idempotency_key, request, Outcome.NOT_IN_PLAY, message)
            game = match.game
            turn = _Turn(match, game, load_state(match, seats=seats), seats)
            previous_to_act = list(match.to_act)
            turn.append(
                seat=number,
                kind=MoveKind.RESIGN,
                payload={},
                source=source,
                idempotency_key=idempotency_key,
                note=note,
            )
            mine.resigned = True
            turn.seat_changed(mine, "resigned")
            turn.clear_deadlines([mine])
            people = [s for s in seats if not s.is_bot and not s.resigned]
            if len(people) <= 1:
                _finish_by_resignation(turn, people)
            else:
                turn.advance()
                turn.finish_projections(previous_to_act)
            return MoveResult(
                Outcome.APPLIED, gettext_noop("You have resigned."), turn.appended, match, mine
            )
    except IntegrityError:
        return _after_conflict(match_id, player, seat, idempotency_key, request)


def _finish_by_resignation(turn: _Turn, people: list[Seat]) -> None:
    match, seats = turn.match, turn.seats
    winners = [s.number for s in people]
    bots = [s.number for s in seats if s.is_bot and not s.resigned]
    resigned = [s.number for s in seats if s.resigned]
    notes = [f"{seats[s].name} resigned." for s in resigned]
    if winners:
        notes.append(f"{seats[winners[0]].name} wins: every other player resigned.")
    match.result = {
        "scores": None,
        "ranking": winners + bots + resigned,
        "notes": notes,
        "details": {"ended_by": "resignation"},
    }
    match.status = MatchStatus.FINISHED
    match.finished_at = timezone.now()
    match.to_act = []
    match.prompt = ""
    turn.clear_deadlines(seats)
    turn.save_seats()
    _save_match(match, PROJECTION_FIELDS + FINISH_FIELDS)
    record_finished(match, seats)
    turn.tell(events.moves_appended, moves=turn.appended, newly_to_act=[])
    turn.tell(events.match_finished)


@retried_on_lock_conflict
def enforce_timeout(*, match_id: int, seat: int, deadline_seq: int) -> MoveResult:
    """Apply the match's timeout policy to `seat`, if its deadline for the position it was
    asked at (`deadline_seq`) has really passed. Safe to call twice: the second finds nothing."""
    with transaction.atomic():
        match, seats = _lock(match_id)
        if match.status != MatchStatus.ACTIVE:
            return MoveResult(
                Outcome.NOT_IN_PLAY, gettext_noop("The match is not in play."), [], match
            )
        row = seats[seat]
        now = timezone.now()
        if (
            row.deadline_at is None
            or row.deadline_at > now
            or row.deadline_seq != deadline_seq
            or seat not in match.to_act
        ):
            return MoveResult(Outcome.MOVED_ON, gettext_noop("No deadline has passed."), [], match)
        if clock_stopped(prefs_for(row.user)):  # mail stopped reaching them after the sweep looked
            return MoveResult(
                Outcome.REFUSED, gettext_noop("The player's clock is stopped."), [], match
            )
        held = clock.reprieve(match, row, Calendars(seats).of(row.user), now)
        if held is not None:  # a vacation day spent, or a forfeit warned of first
            row.deadline_at = held.deadline
            row.forfeit_warned_seq = deadline_seq if held.warned else row.forfeit_warned_seq
            _save_seats([row], ["deadline_at", "forfeit_warned_seq"])
            events.timeout_held.send(sender=Match, match=match, seat=row, reprieve=held)
            return MoveResult(Outcome.REFUSED, held.reason, [], match)
        game = match.game
        state = load_state(match, seats=seats)
        turn = _Turn(match, game, state, seats)
        previous_to_act = list(match.to_act)
        key = f"timeout:{seat}:{deadline_seq}"
        row.timeouts += 1
        if match.timeout_policy == TimeoutPolicy.BOT:
            move = game.bot_move(state, seat, event_rng(match.seed + ":bot", match.head_seq + 1))
            row.is_bot = True
            note = "Deadline passed; a bot takes the seat."
        else:
            move = game.default_move(state, seat)
            note = "Deadline passed; the default move was played."
        turn.append(
            seat=seat,
            kind=MoveKind.TIMEOUT,
            payload=move,
            source=MoveSource.DEADLINE,
            idempotency_key=key,
            note=note,
        )
        turn.seat_changed(row, "timeouts", "is_bot")
        forfeit = (
            match.timeout_policy == TimeoutPolicy.FORFEIT and row.timeouts >= match.forfeit_after
        )
        if forfeit:
            turn.append(
                seat=seat,
                kind=MoveKind.RESIGN,
                payload={},
                source=MoveSource.DEADLINE,
                note=f"Forfeit after {row.timeouts} timeouts.",
            )
            row.resigned = True
            turn.seat_changed(row, "resigned")
            people = [s for s in seats if not s.is_bot and not s.resigned]
            if len(people) <= 1:
                _finish_by_resignation(turn, people)
                return MoveResult(Outcome.APPLIED, note, turn.appended, match)
        turn.advance()
        turn.finish_projections(previous_to_act)
        return MoveResult(Outcome.APPLIED, note, turn.appended, match)


# --- seats that never stall: a substitute takes a seat over, or the others skip it -------

SKIP_AFTER_TIMEOUTS = 2  # a seat may be voted out once it has timed out this often


def _other_player(seats: list[Seat], user, seat: int) -> Seat | None:
    """`user`'s own seat in the match, if it is a person's still playing and not `seat`."""
    mine = _find_seat(seats, user, None)
    if mine is None or mine.number == seat or mine.resigned or mine.played_by_bot:
        return None
    return mine


@retried_on_lock_conflict
def offer_seat(
    *, match_id: int, seat: int, by: AbstractBaseUser | None, organiser: bool = False
) -> Seat:
    """Another player offers a seat that timed out to a substitute: the lobby lists it.
    `organiser`: the offer is an organiser's (the tournaments app checked who), by any."""
    with transaction.atomic():
        match, seats = _lock(match_id)
        row = seats[seat] if 0 <= seat < len(seats) else None
        if match.status != MatchStatus.ACTIVE or row is None or row.resigned:
            raise ServiceError(gettext_noop("That seat is not in play."))
        if not organiser and _other_player(seats, by, seat) is None:
            raise ServiceError(gettext_noop("Only another player of the match may offer a seat."))
        if row.timeouts < 1:
            raise ServiceError(gettext_noop("A seat can be offered once it has timed out."))
        if row.takeover_offered_at is None:
            row.takeover_offered_at = timezone.now()
            _save_seats([row], ["takeover_offered_at"])
        return row


@retried_on_lock_conflict
def take_seat(*, match_id: int, seat: int, user: AbstractBaseUser) -> Seat:
    """A substitute takes over an offered seat from now on: they see what the seat sees, play
    its decisions, and the seat's holders are recorded for the ratings."""
    with transaction.atomic():
        match, seats = _lock(match_id)
        row = seats[seat] if 0 <= seat < len(seats) else None
        if match.status != MatchStatus.ACTIVE or row is None or row.takeover_offered_at is None:
            raise ServiceError(gettext_noop("That seat is not offered to a substitute."))
        if any(s.user_id == user.pk for s in seats):
            raise ServiceError(gettext_noop("You already have a seat in this match."))
        holders = SeatHolder.objects.filter(match=match, seat=seat)
        if row.user_id and not holders.exists():
            SeatHolder.objects.create(match=match, seat=seat, user_id=row.user_id, from_seq=0)
        holders.filter(until_seq=None).update(until_seq=match.head_seq)
        SeatHolder.objects.create(match=match, seat=seat, user=user, from_seq=match.head_seq)
        # The seat keeps its name: the setup replayed from the log was dealt with it.
        row.user = user
        row.is_bot = row.skipped = False
        row.timeouts = 0
        row.takeover_offered_at = None
        fields = ["user", "is_bot", "skipped", "timeouts", "takeover_offered_at"]
        if seat in match.to_act:  # their decision now, with a full deadline of their own
            now = timezone.now()
            row.deadline_at = clock.deadline_for(match, row, now, Calendars(seats).of(user))
            row.waiting_since = now
            fields += ["deadline_at", "waiting_since"]
        _save_seats([row], fields)
        return row


@retried_on_lock_conflict
def vote_to_skip(*, match_id: int, seat: int, voter: AbstractBaseUser) -> bool:
    """A vote to skip a seat that keeps timing out; with the votes of more than half of the
    other players still playing, the seat is skipped: the rules' default move plays its
    decisions at once, now and from then on. Whether the seat is skipped now."""
    with transaction.atomic():
        match, seats = _lock(match_id)
        row = seats[seat] if 0 <= seat < len(seats) else None
        if match.status != MatchStatus.ACTIVE or row is None or row.resigned or row.skipped:
            raise ServiceError(gettext_noop("That seat is not in play."))
        if _other_player(seats, voter, seat) is None:
            raise ServiceError(gettext_noop("Only another player of the match may vote."))
        if row.timeouts < SKIP_AFTER_TIMEOUTS:
            raise ServiceError(
                f"A seat can be voted out once it has timed out {SKIP_AFTER_TIMEOUTS} times."
            )
        SkipVote.objects.get_or_create(match=match, seat=seat, voter=voter)
        voters = [s.user_id for s in seats if _other_player(seats, s.user, seat) is not None]
        votes = SkipVote.objects.filter(match=match, seat=seat, voter_id__in=voters).count()
        if votes * 2 <= len(voters):
            return False
        row.skipped = True
        _save_seats([row], ["skipped"])
        if seat in match.to_act:
            game = match.game
            turn = _Turn(match, game, load_state(match, seats=seats), seats)
            previous_to_act = list(match.to_act)
            turn.advance()
            turn.finish_projections(previous_to_act)
        return True


def operator_move(
    *,
    match_id: int,
    seat: int,
    move: dict | None = None,
    command: str | None = None,
    reason: str,
    operator: str = "",
) -> MoveResult:
    """An operator's correction: a new log entry on a seat's behalf, with who and why. A typed
    `command` is read under the lock, as a player's is (see submit_move)."""
    if not reason.strip():
        return MoveResult(Outcome.REFUSED, gettext_noop("An operator's move needs a reason."))
    note = f"{reason.strip()} (by {operator})" if operator else reason.strip()
    return submit_move(
        match_id=match_id,
        seat=seat,
        move=move,
        command=command,
        source=MoveSource.ADMIN,
        note=note[:500],
    )


@retried_on_lock_conflict
def set_standing_orders(
    *,
    match_id: int,
    player: AbstractBaseUser | None = None,
    seat: int | None = None,
    orders: list[str],
) -> MoveResult:
    """Replace the player's standing orders and play any decision they now answer."""
    with transaction.atomic():
        match, seats = _lock(match_id)
        mine = _find_seat(seats, player, seat)
        if mine is None:
            return MoveResult(Outcome.NOT_A_PLAYER, NOT_A_PLAYER, [], match)
        if _not_in_play(match):
            return MoveResult(Outcome.NOT_IN_PLAY, _not_in_play(match), [], match)
        if mine.resigned:
            return MoveResult(Outcome.NOT_IN_PLAY, RESIGNED, [], match)
        game = match.game
        known = {o.key for o in game.standing_orders}
        unknown = [o for o in orders if o not in known]
        if unknown:
            message = f"{game.title} has no standing order {unknown[0]!r}."
            return MoveResult(Outcome.REFUSED, message, [], match)
        mine.standing_orders = sorted(set(orders))
        mine.save(update_fields=["standing_orders"])
        turn = _Turn(match, game, load_state(match, seats=seats), seats)
        previous_to_act = list(match.to_act)
        turn.advance()
        if turn.appended:
            turn.finish_projections(previous_to_act)
        return MoveResult(
            Outcome.APPLIED, gettext_noop("Standing orders saved."), turn.appended, match
        )


@retried_on_lock_conflict
def abandon_match(*, match_id: int, reason: str) -> Match:
    with transaction.atomic():
        match, seats = _lock(match_id)
        if match.is_over:
            raise ServiceError(gettext_noop("The match is already over."))
        if match.status == MatchStatus.ACTIVE:
            turn = _Turn(match, match.game, load_state(match, seats=seats), seats)
            turn.append(
                seat=None,
                kind=MoveKind.SYSTEM,
                payload={"event": "abandoned"},
                source=MoveSource.ADMIN,
                note=reason or "Abandoned.",
            )
        match.status = MatchStatus.ABANDONED
        match.finished_at = timezone.now()
        match.to_act = []
        match.prompt = ""
        _save_match(match, PROJECTION_FIELDS + FINISH_FIELDS)
        _clear_deadlines(seats)
        events.match_finished.send(
            sender=Match, match=match, seats=seats, calendars=Calendars(seats)
        )
        return match


def abort_match(*, match_id: int, user: AbstractBaseUser) -> Match:
    """A seated player calls the match off before anyone has played a move of their own
    (on the web, by mail or by the API; what the server played for a seat does not count):
    it is abandoned, unrated, and nobody loses."""
    with transaction.atomic():
        match, seats = _lock(match_id)
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise ServiceError(gettext_noop("You have no seat in this match."))
        if match.is_over:
            raise ServiceError(gettext_noop("The match is already over."))
        played = match.moves.filter(
            kind=MoveKind.MOVE, source__in=(MoveSource.WEB, MoveSource.EMAIL, MoveSource.API)
        )
        if played.exists():
            raise ServiceError(
                gettext_noop("A move has been played: resign instead, or ask for a takeback.")
            )
        return abandon_match(match_id=match_id, reason=f"Aborted by {mine.name} before a move.")


def decline_invitation(*, match_id: int, user: AbstractBaseUser) -> Match:
    """The player a seat was kept for says no: the match, still waiting for its players, is
    called off (abandoned, unrated) and its players are told, as a declined challenge."""
    with transaction.atomic():
        match, seats = _lock(match_id)
        email = (user.email or "").strip().lower()
        kept = next((s for s in seats if s.is_open and email and s.invited_email == email), None)
        if match.status != MatchStatus.OPEN or kept is None:
            raise ServiceError(gettext_noop("No seat of this match is kept for you."))
        return abandon_match(
            match_id=match_id, reason=f"{bot_seat_name(user) or public_name(user)} declined."
        )


def import_match(*, data: dict[str, Any], imported_by: AbstractBaseUser | None = None) -> Match:
    """Recreate a finished match from an export; its log must replay to the same digests."""
    from games.selectors import EXPORT_FORMAT

    if data.get("format") != EXPORT_FORMAT:
        raise ServiceError(gettext_noop("This is not a match export this server can read."))
    if not data.get("seed"):
        raise ServiceError(
            gettext_noop("Only a finished match (its export carries the seed) can be imported.")
        )
    try:
        game = get_game(data["game"], data["rules_version"])
    except KeyError:
        raise ServiceError(f"Unknown game or rules version: {data.get('game')!r}.") from None
    seed = data["seed"]
    if seed_commitment(seed) != data.get("seed_commitment"):
        raise ServiceError(gettext_noop("The seed does not match its commitment."))
    names = list(data["players"])
    state = initial_state(game, names, data["options"], seed)
    with transaction.atomic():
        match = Match.objects.create(
            game_slug=game.slug,
            rules_version=game.version,
            options=data["options"],
            player_count=len(names),
            seed=seed,
            seed_commitment=data["seed_commitment"],
            created_by=imported_by,
            status=MatchStatus.ACTIVE,
            started_at=timezone.now(),
            head_digest=initial_digest(state),
        )
        seats = [
            Seat.objects.create(match=match, number=n, is_bot=True, display_name=name)
            for n, name in enumerate(names)
        ]
        turn = _Turn(match, game, state, seats)
        entries = data["moves"]
        before = None  # the position before the previous entry, kept when a takeback follows
        for index, entry in enumerate(entries, start=1):
            if entry["seq"] != index:
                raise ServiceError(f"The log has a gap before seq {entry['seq']}.")
            if entry["kind"] == MoveKind.TAKEBACK:
                _check_imported_takeback(game, seed, entries, index, before)
            kept = None
            if index < len(entries) and entries[index]["kind"] == MoveKind.TAKEBACK:
                kept = copy_state(turn.state)
            try:
                row = turn.append(
                    seat=entry["seat"],
                    kind=entry["kind"],
                    payload=entry["payload"],
                    source=MoveSource.IMPORT,
                    note=entry.get("note", ""),
                    before=before,
                )
            except IllegalMove as error:
                raise ServiceError(f"Move {index} does not replay: {error.message}") from None
            if row.digest != entry["digest"]:
                raise ServiceError(f"Move {index} replays to a different position.")
            before = kept
        match.takebacks = any(e["kind"] == MoveKind.TAKEBACK for e in entries)
        result = game.result(turn.state)
        match.result = data.get("result") or (result.as_json() if result else None)
        match.status = MatchStatus.FINISHED
        match.finished_at = timezone.now()
        match.to_act = []
        match.save()
        return match


def _check_imported_takeback(
    game, seed: str, entries: list[dict], index: int, before: State | None
) -> None:
    """An imported takeback (entry `index`, counted from 1) must be one the policy allowed
    when it was made: it cancels the entry just before it, a decision of the same seat that
    drew nothing by chance and revealed nothing hidden (docs/takebacks.md)."""
    entry = entries[index - 1]
    if entry["payload"] != {"cancels": index - 1} or before is None:
        raise ServiceError(f"Entry {index} takes back something other than the entry before it.")
    previous = entries[index - 2]
    last = LoggedMove(previous["seq"], previous["seat"], previous["kind"], previous["payload"])
    refusal = _not_own_decision(last, previous.get("source", ""), entry["seat"])
    refusal = refusal or _policy_refusal(game, seed, last, before)
    if refusal:
        raise ServiceError(f"Entry {index} is a takeback the policy refuses: {refusal}")
