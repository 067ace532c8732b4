"""Reading matches: positions from the log, what a viewer may see, verification, export."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from django.core.cache import BaseCache, caches
from django.utils.translation import gettext

from games.engine import State, chain_digest, copy_state, places
from games.language import localize
from games.models import Match, MatchStatus, Move, Seat, Snapshot
from games.replay import (
    TAKEBACK,
    LoggedMove,
    apply_logged,
    initial_digest,
    initial_state,
    positions,
    replay_rows,
)

log = logging.getLogger(__name__)

EXPORT_FORMAT = 1


class PositionCache:
    """Head positions shared by every process, in Django's cache (Redis in production, local
    memory on the embedded defaults), keyed by match, sequence number and chained digest.

    The digest names a position exactly, so an entry can never be stale: a later move, or
    another position at the same seq, has another key, and an entry is checked against its
    key when read. A cache that is down or empty only costs the fallback to a snapshot and
    the log's tail; nothing a move needs depends on it. Every read unpickles its own copy,
    since `apply` changes states in place."""

    PREFIX = "pbm:position"
    SECONDS = 7 * 24 * 3600  # a correspondence move (or its deadline) may come days later

    def __init__(self, alias: str = "default", cache: BaseCache | None = None):
        self.alias = alias
        self.cache = cache  # a client of its own (tests); else this thread's `caches[alias]`
        self.enabled = True  # benchmarks compare with the cache off

    def _client(self) -> BaseCache:
        return self.cache if self.cache is not None else caches[self.alias]

    def key(self, match_id: int, seq: int, digest: str) -> str:
        return f"{self.PREFIX}:{match_id}:{seq}:{digest}"

    def get(self, match_id: int, seq: int, digest: str) -> State | None:
        if not self.enabled or not digest:
            return None
        try:
            entry = self._client().get(self.key(match_id, seq, digest))
        except Exception as error:  # the cache server is down: use the snapshots
            log.warning("position cache unavailable, reading snapshots: %s", error)
            return None
        if not isinstance(entry, tuple) or entry[0] != (match_id, seq, digest):
            return None
        return entry[1]

    def put(self, match_id: int, seq: int, digest: str, state: State) -> None:
        if not self.enabled or not digest:
            return
        try:
            self._client().set(
                self.key(match_id, seq, digest), ((match_id, seq, digest), state), self.SECONDS
            )
        except Exception as error:
            log.warning("position cache unavailable, position not kept: %s", error)


# A move reads its head position from here (every web and worker process shares it) and
# keeps the position it leaves for the next move, whichever process serves that one.
POSITIONS = PositionCache()


def seat_names(match: Match) -> list[str]:
    return [s.display_name or s.name for s in match.seats.order_by("number")]


@dataclass(frozen=True)
class Standing:
    """One line of a finished match's result: place 1 is the best; `shared` when the rules
    could not separate this seat from a neighbour (1, 1, 3)."""

    place: int
    seat: int
    name: str
    score: int | None
    shared: bool


def standings(match: Match, names: list[str] | None = None) -> list[Standing]:
    """The result as places, best first. Every page, email and admin view of a result reads
    it here, so a shared place is shown as shared everywhere."""
    result = match.result or {}
    names = names if names is not None else seat_names(match)
    scores = result.get("scores")
    return [
        Standing(
            place=place,
            seat=seat,
            name=names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}",
            score=scores[seat] if scores else None,
            shared=shared,
        )
        for place, seat, shared in places(result)
    ]


def setup_state(match: Match, seats: list[Seat] | None = None) -> State:
    names = seat_names(match) if seats is None else [s.display_name or s.name for s in seats]
    return initial_state(match.game, names, match.options, match.seed)


def remember_position(match: Match, state: State) -> None:
    """Keep `state` as the position at the match's head (as the match row says it is now)."""
    POSITIONS.put(match.pk, match.head_seq, match.head_digest, state)


def load_state(match: Match, upto: int | None = None, seats: list[Seat] | None = None) -> State:
    """The position after move `upto` (default: the head): from the shared cache of head
    positions, else the latest snapshot and the tail of the log. `seats` (in seat order)
    spare a query when the setup must be replayed. A snapshot is used only if its state
    chains to the digests logged before and at its seq; otherwise (a changed row) it is
    reported and the position is replayed from the setup."""
    upto = match.head_seq if upto is None else upto
    at_head = upto == match.head_seq
    if at_head:
        cached = POSITIONS.get(match.pk, upto, match.head_digest)
        if cached is not None:
            return cached
    # Plain rows, not model instances: building ~50 Move objects cost more than the replay.
    # A snapshot before `upto`, never at it: what the last move told (a state's `news`) is
    # stored as its English, and replaying that move gives it back in words the reader's
    # language can say (games.engine.words.Text).
    snapshot = (
        Snapshot.objects.filter(match=match, seq__lt=upto)
        .order_by("-seq")
        .values_list("seq", "state", "digest")
        .first()
    )
    start = snapshot[0] if snapshot is not None else 0
    # The tail, and the two digests that vouch for the snapshot, in one query.
    rows = list(
        Move.objects.filter(match=match, seq__gte=max(start - 1, 1), seq__lte=upto)
        .order_by("seq")
        .values_list("seq", "seat", "kind", "payload", "digest")
    )
    if snapshot is not None and snapshot_matches_log(match, snapshot, rows, seats):
        state = snapshot[1]
    else:
        if snapshot is not None:
            log.error(
                "match %s: the snapshot at seq %s does not match the log's digests; "
                "replaying from the setup",
                match.pk,
                start,
            )
            rows = list(
                Move.objects.filter(match=match, seq__lte=upto)
                .order_by("seq")
                .values_list("seq", "seat", "kind", "payload", "digest")
            )
        state, start = setup_state(match, seats), 0
    game = match.game
    if any(row[2] == TAKEBACK and row[0] == start + 1 for row in rows) and start:
        # The move a takeback cancels is behind the snapshot: replay from the setup.
        rows = list(
            Move.objects.filter(match=match, seq__lte=upto)
            .order_by("seq")
            .values_list("seq", "seat", "kind", "payload", "digest")
        )
        state, start = setup_state(match, seats), 0
    state = replay_rows(game, state, [row for row in rows if row[0] > start], match.seed)
    if at_head:
        remember_position(match, state)
    return state


def snapshot_matches_log(
    match: Match, snapshot: tuple, rows: list[tuple], seats: list[Seat] | None = None
) -> bool:
    """The snapshot's digest is the log's at its seq, and its state chained onto the digest
    before it gives that digest (so neither the state nor the digest column was changed)."""
    seq, state, digest = snapshot
    logged = {row[0]: row[-1] for row in rows}
    previous = logged.get(seq - 1) if seq > 1 else initial_digest(setup_state(match, seats))
    return (
        previous is not None
        and logged.get(seq) == digest
        and chain_digest(previous, state) == digest
    )


@dataclass
class Verification:
    ok: bool
    checked: int
    message: str
    first_bad_seq: int | None = None


def verify_match(match: Match) -> Verification:
    """Replay the whole log from the setup and compare every stored digest."""
    game = match.game
    state = setup_state(match)
    previous = initial_digest(state)
    digests = {0: previous}
    checked = 0
    prior = None
    for row in match.moves.order_by("seq"):
        expected_seq = checked + 1
        if row.seq != expected_seq:
            return Verification(False, checked, f"gap in the log before seq {row.seq}", row.seq)
        try:
            before = copy_state(state)
            state = apply_logged(
                game,
                state,
                LoggedMove(row.seq, row.seat, row.kind, row.payload),
                match.seed,
                before=prior,
            )
            prior = before
        except Exception as error:  # a stored move the rules now refuse
            return Verification(False, checked, f"seq {row.seq} does not replay: {error}", row.seq)
        previous = chain_digest(previous, state)
        digests[row.seq] = previous
        if previous != row.digest:
            return Verification(False, checked, f"digest differs at seq {row.seq}", row.seq)
        checked += 1
    if checked != match.head_seq:
        return Verification(False, checked, f"log ends at {checked}, match says {match.head_seq}")
    for seq, snapshot_state, digest in match.snapshots.order_by("seq").values_list(
        "seq", "state", "digest"
    ):
        if (
            digest != digests.get(seq)
            or chain_digest(digests.get(seq - 1, ""), snapshot_state) != digest
        ):
            return Verification(False, checked, f"the snapshot at seq {seq} differs from the log")
    if match.head_seq and previous != match.head_digest:
        return Verification(False, checked, "head digest differs from the last move's")
    return Verification(True, checked, f"{checked} moves replayed; every digest matches.")


def export_match(match: Match) -> dict[str, Any]:
    """Setup and log as JSON. The seed is included only once the match is over."""
    seats = list(match.seats.order_by("number"))
    return {
        "format": EXPORT_FORMAT,
        "game": match.game_slug,
        "rules_version": match.rules_version,
        "options": match.options,
        "players": [s.display_name or s.name for s in seats],
        "status": match.status,
        "seed_commitment": match.seed_commitment,
        "seed": match.seed if match.is_over else None,
        "result": match.result,
        "moves": [
            {
                "seq": m.seq,
                "seat": m.seat,
                "kind": m.kind,
                "payload": m.payload,
                "source": m.source,
                "created_at": m.created_at.isoformat(),
                "digest": m.digest,
                "note": m.note,
            }
            for m in match.moves.order_by("seq")
        ],
    }


# --- what a viewer sees --------------------------------------------------------------------


def viewer_seat(match: Match, user) -> Seat | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return next((s for s in match.seats.all() if s.user_id == user.pk), None)


class HistoryRow(NamedTuple):
    """What the history reads of a log entry (no model instance: a window is many rows)."""

    seq: int
    seat: int | None
    kind: str
    payload: dict[str, Any]
    source: str
    created_at: datetime
    note: str


HISTORY_WINDOW = 40  # entries a page shows; the replay page steps through the rest


def history(
    match: Match, viewer: int | None, upto: int | None = None, since: int = 0
) -> list[dict[str, Any]]:
    """The log after move `since` up to `upto`, narrated for `viewer` (None: a spectator).

    Narration needs the position before each move, so it starts from the position after
    `since` (a snapshot and a short tail): a window of recent moves costs the window, not
    the whole match."""
    game = match.game
    seats = list(match.seats.order_by("number"))
    names = [s.display_name or s.name for s in seats]
    # Narrate from one entry before the window (not returned): a takeback needs the position
    # before the move it cancels, and a simultaneous decision's times need the entry before.
    start = max(0, since - 1)
    rows = match.moves.filter(seq__gt=start).order_by("seq")
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    rows = [HistoryRow(*row) for row in rows.values_list(*HistoryRow._fields)]
    if start and rows and rows[0].kind == TAKEBACK:
        start -= 1  # and the position before the move it cancels
        rows = [HistoryRow(*match.moves.values_list(*HistoryRow._fields).get(seq=start + 1)), *rows]
    cancelled = {row.payload.get("cancels") for row in rows if row.kind == TAKEBACK}
    out = []
    decisions = []  # (seq, seat, time, seats deciding before, seats deciding after)
    state = load_state(match, upto=start) if start else setup_state(match)
    for (_entry, before, after), row in zip(
        positions(game, state, rows, match.seed), rows, strict=True
    ):
        if row.kind in ("move", "timeout") and not match.is_over:
            decisions.append(
                (row.seq, row.seat, row.created_at, game.to_act(before), game.to_act(after))
            )
        if row.seq <= since:
            continue
        # In the reader's language: the game's line (a Text, games.language) and the
        # platform's own words around it.
        if row.kind == TAKEBACK:
            text = gettext("%(name)s took back their last move.") % {"name": names[row.seat]}
        elif row.kind in ("move", "timeout"):
            text = localize(game.describe(before, after, row.seat, row.payload, viewer))
            if row.kind == "timeout":
                text = gettext("Deadline passed. %(line)s") % {"line": text}
            if row.seq in cancelled:
                text = gettext("%(line)s (taken back)") % {"line": text}
        elif row.kind == "resign":
            text = gettext("%(name)s resigned.") % {"name": names[row.seat]}
            text += f" ({row.note})" if row.note else ""
        else:
            event = row.note or row.payload.get("event") or gettext("system event")
            text = gettext("Operator: %(event)s") % {"event": event}
        if viewer is not None and 0 <= viewer < len(names):
            text = mark_viewer(text, names[viewer])
        out.append(
            {
                "seq": row.seq,
                "seat": row.seat,
                "text": text,
                "source": shown_source(row.source, row.seat, viewer, seats),
                "created_at": row.created_at,
            }
        )
    shown_at = simultaneous_times(decisions, viewer)
    for entry in out:
        entry["created_at"] = shown_at.get(entry["seq"], entry["created_at"])
    return out


def mark_viewer(text: str, name: str) -> str:
    """The history names every seat by its display name (the games narrate in the third
    person, for the mover too); the viewer's own name is marked "(you)" wherever it stands,
    so one player is never "You" in one line and "alice" in the next."""
    if not name:
        return text
    you = gettext("(you)")
    return re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", lambda m: f"{m.group(0)} {you}", text)


def simultaneous_times(decisions: list[tuple], viewer: int | None) -> dict[int, Any]:
    """The time another viewer is shown for each answer to a simultaneous decision (sealed
    bids, cards played face down), by seq: the moment the decision closed, or None while it
    is open. A forced answer waits for the others and is logged with the last of them
    (games.engine.driver), so its own time would tell that the seat had no choice; shown at
    the close, it looks like any answer. A viewer's own answers keep their times.

    `decisions` are (seq, seat, time, seats deciding before, seats deciding after) of the
    applied entries in log order, from one entry before the window: an answer belongs to a
    simultaneous decision if other seats were deciding with it, or if the decision the
    entry before it answered is still open. A decision closes when nobody is left deciding
    or someone is asked anew."""
    shown: dict[int, Any] = {}
    open_round: list[tuple[int, int]] = []  # (seq, seat) answered in the open decision
    for seq, seat, at, deciding, remaining in decisions:
        if not (open_round or (seat in deciding and len(deciding) > 1)):
            continue
        open_round.append((seq, seat))
        if remaining and set(remaining) < set(deciding):
            continue
        shown.update({s: at for s, answerer in open_round if answerer != viewer})
        open_round = []
    shown.update({s: None for s, answerer in open_round if answerer != viewer})
    return shown


# How a seat's decision reached the log is its own business: "forced" (one legal move) or
# "standing" (a standing order such as "pass whenever I cannot act") would tell the others
# what it holds, and web/email/api must not stand out beside them. Others see "player" for
# a person's seat and "bot" for a bot's; timeouts, bots and operators are public anyway.
PUBLIC_SOURCES = frozenset({"deadline", "admin"})


def shown_source(source: str, seat: int | None, viewer: int | None, seats: list[Seat]) -> str:
    if seat is None or seat == viewer or source in PUBLIC_SOURCES:
        return source
    if 0 <= seat < len(seats) and seats[seat].is_bot:
        return "bot"
    return "player"


def recent_history(match: Match, viewer: int | None, upto: int | None = None) -> list[dict]:
    """The last HISTORY_WINDOW entries up to `upto` (default: the head)."""
    upto = match.head_seq if upto is None else upto
    return history(match, viewer, upto=upto, since=max(0, upto - HISTORY_WINDOW))


def position_after(match: Match, seq: int) -> State:
    """A copy of the position after move `seq` (0: the setup)."""
    return copy_state(load_state(match, upto=max(0, min(seq, match.head_seq))))


def matches_waiting_on(user) -> list[Match]:
    seats = Seat.objects.filter(user=user, match__status=MatchStatus.ACTIVE).select_related("match")
    return [s.match for s in seats if s.number in s.match.to_act]


def takeover_seats(user, limit: int = 20) -> list[Seat]:
    """Seats of matches in play offered to a substitute, in matches `user` does not play."""
    return list(
        Seat.objects.filter(takeover_offered_at__isnull=False, match__status=MatchStatus.ACTIVE)
        .exclude(match__seats__user=user)
        .select_related("match", "user")
        .order_by("takeover_offered_at")[:limit]
    )


def result_notes(match: Match) -> list[str]:
    """What the result says beyond the ranking (each seat's final score as a sum, how ties
    were broken), in the reader's language: the game's notes said again from the final
    position (the stored result keeps their English), then what the platform added."""
    stored = [str(n) for n in (match.result or {}).get("notes", [])]
    if not stored or match.status != MatchStatus.FINISHED:
        return stored
    try:
        result = match.game.result(load_state(match))
    except Exception:  # an unknown game or rules version: the stored English
        log.exception("match %s: the result could not be read again", match.pk)
        return stored
    english = [str(n) for n in result.notes] if result is not None else []
    if not english or stored[: len(english)] != english:
        return stored  # a result the rules did not give (abandoned, everyone resigned)
    return [localize(n) for n in result.notes] + stored[len(english) :]
