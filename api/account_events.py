"""What an account's event stream says, written from the games app's signals
(games/events.py), which are sent inside the transaction that appends to the log: an event
row commits or rolls back with the move that caused it, so a stream never tells of a move
that did not happen and never misses one that did.

Only accounts that opened the stream once (an `EventStream` row) get events: a person who
never uses the API costs a move nothing, and the lock's read of the seats' players already
says who has a stream (`user__event_stream`), so a move that tells nobody sends no statement.

Each account's events are numbered 1, 2, 3... under a lock of its `EventStream` row, taken
in account order, so two matches appending for the same bot at once wait for each other
instead of giving out one number twice (or deadlocking).

Nothing hidden leaves here: a `turn` goes only to the seat asked, with the legal moves of
that seat alone; other seats learn of no move but a takeback and the end.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.dispatch import receiver

from api.models import AccountEvent, EventStream
from games import events
from games.commands import menu
from games.models import Match, MoveKind, Seat
from games.selectors import load_state


@dataclass
class Event:
    user_id: int
    kind: str
    match_id: int | None
    data: dict[str, Any]


def legal_moves(game, state, seat: int) -> list[dict[str, Any]]:
    """Every legal move of `seat`: its text command, its number in the email's menu (when the
    menu is short) and the move as JSON. The API's /legal answers the same."""
    numbered = {e.command: e.number for e in menu(game, state, seat)}
    out = []
    for move in game.legal_moves(state, seat):
        command = game.format_move(state, seat, move)
        out.append({"number": numbered.get(command), "command": command, "move": move})
    return out


def _has_stream(user) -> bool:
    """Whether `user` may have a stream: no when the lock read that it has none."""
    cached = user._state.fields_cache
    return "event_stream" not in cached or cached["event_stream"] is not None


def append(found: list[Event], users: Iterable) -> None:
    """Append `found` to the streams of those accounts that have one. `users` are the
    accounts concerned; where the lock read their streams with them, none that has no stream
    costs a statement."""
    candidates = {user.pk for user in users if _has_stream(user)}
    wanted = [e for e in found if e.user_id in candidates]
    if not wanted:
        return
    streams = {
        s.user_id: s
        for s in EventStream.objects.select_for_update()
        .filter(user_id__in=sorted({e.user_id for e in wanted}))
        .order_by("user_id")
    }
    rows = []
    for event in wanted:
        stream = streams.get(event.user_id)
        if stream is None:
            continue
        stream.last_id += 1
        rows.append(
            AccountEvent(
                user_id=event.user_id,
                number=stream.last_id,
                kind=event.kind,
                match_id=event.match_id,
                data=event.data,
            )
        )
    if rows:
        EventStream.objects.bulk_update(streams.values(), ["last_id"])
        AccountEvent.objects.bulk_create(rows)


def _people(seats: list[Seat]) -> list:
    return [s.user for s in seats if s.user_id is not None]


def _players(seats: list[Seat]) -> list[dict[str, Any]]:
    return [
        {"seat": s.number + 1, "name": s.display_name or s.name}
        for s in sorted(seats, key=lambda s: s.number)
    ]


@receiver(events.match_started, dispatch_uid="api-stream-match-started")
def on_match_started(sender, match: Match, seats: list[Seat], **kwargs) -> None:
    found = [
        Event(
            s.user_id,
            "match_started",
            match.pk,
            {
                "game": match.game_slug,
                "seat": s.number + 1,
                "players": _players(seats),
                "to_act": [n + 1 for n in match.to_act],  # whose turn it is (a `turn` follows)
                "days_per_move": match.days_per_move,
                "rated": match.rated,
            },
        )
        for s in seats
        if s.user_id is not None
    ]
    append(found, _people(seats))


@receiver(events.moves_appended, dispatch_uid="api-stream-moves-appended")
def on_moves_appended(
    sender, match: Match, seats: list[Seat], moves: list, newly_to_act: list[int], **kwargs
) -> None:
    found = []
    for move in moves:
        if move.kind == MoveKind.TAKEBACK:
            taken = {"seat": move.seat + 1, "seq": move.seq, "cancels": move.payload["cancels"]}
            found += [Event(s.user_id, "takeback", match.pk, taken) for s in seats if s.user_id]
    asked = [seats[n] for n in newly_to_act if seats[n].user_id and _has_stream(seats[n].user)]
    if asked:
        game = match.game
        state = kwargs.get("state") or load_state(match, seats=seats)
        for seat in asked:
            found.append(
                Event(
                    seat.user_id,
                    "turn",
                    match.pk,
                    {
                        "game": match.game_slug,
                        "seq": match.head_seq,
                        "seat": seat.number + 1,
                        "prompt": game.prompt(state, seat.number),
                        "deadline_at": seat.deadline_at,
                        "legal": legal_moves(game, state, seat.number),
                    },
                )
            )
    if found:
        append(found, _people(seats))


@receiver(events.match_finished, dispatch_uid="api-stream-match-finished")
def on_match_finished(sender, match: Match, seats: list[Seat], **kwargs) -> None:
    over = {
        "game": match.game_slug,
        "status": match.status,
        "result": match.result,
        "players": _players(seats),
    }
    found = [Event(s.user_id, "match_over", match.pk, over) for s in seats if s.user_id]
    append(found, _people(seats))


@receiver(events.chat_posted, dispatch_uid="api-stream-chat")
def on_chat_posted(sender, match: Match, message, seats: list[Seat], **kwargs) -> None:
    author = next((s for s in seats if s.number == message.seat), None)
    said = {
        "seat": message.seat + 1,
        "author": (author.display_name or author.name) if author else "",
        "text": message.text,
        "at": message.created_at,
    }
    found = [
        Event(s.user_id, "chat", match.pk, said)
        for s in seats
        if s.user_id is not None and s.number != message.seat
    ]
    append(found, _people(seats))


@receiver(events.players_invited, dispatch_uid="api-stream-invited")
def on_players_invited(sender, match: Match, emails: list[str], inviter: str, **kwargs) -> None:
    invited = list(get_user_model().objects.filter(email__in=emails, event_stream__isnull=False))
    found = [
        Event(
            u.pk,
            "invitation",
            match.pk,
            {"game": match.game_slug, "inviter": inviter, "players": match.player_count},
        )
        for u in invited
    ]
    append(found, invited)


def challenge_out(challenge) -> dict[str, Any]:
    """A challenge as the API shows it (its events, GET /challenges)."""
    from community.names import public_name

    return {
        "challenge": challenge.pk,
        "challenger": {"id": challenge.challenger_id, "name": public_name(challenge.challenger)},
        "challenged": {"id": challenge.challenged_id, "name": public_name(challenge.challenged)},
        "game": challenge.game_slug,
        "players": challenge.players,
        "options": challenge.options,
        "days_per_move": challenge.days_per_move,
        "rated": challenge.rated,
        "status": challenge.status,
        "reason": challenge.reason,
        "match": challenge.match_id,
    }


# Who hears of each change of a challenge, and as what.
CHALLENGE_EVENTS = {
    "made": ("challenged", "challenge"),
    "accepted": ("challenger", "challenge_accepted"),
    "declined": ("challenger", "challenge_declined"),
    "cancelled": ("challenged", "challenge_cancelled"),
}


@receiver(events.challenge_changed, dispatch_uid="api-stream-challenge")
def on_challenge_changed(sender, challenge, what: str, **kwargs) -> None:
    side, kind = CHALLENGE_EVENTS[what]
    user = getattr(challenge, side)
    append([Event(user.pk, kind, challenge.match_id, challenge_out(challenge))], [user])
