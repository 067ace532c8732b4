"""A match's message board: players give advice and propose deals. Not part of the game
log: a chat message changes nothing in the match and is never replayed."""

from __future__ import annotations

from django.db import transaction

from . import events
from .conflicts import retried_on_lock_conflict
from .models import ChatMessage, Match, MatchStatus
from .services import lock_match

MAX_LENGTH = 2000


class ChatError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@retried_on_lock_conflict
def post_message(*, match: Match, user, text: str, source: str = "web") -> ChatMessage:
    """Post `text` as `user`'s seat; the other players who want chat are told of it
    (games.events.chat_posted)."""
    text = (text or "").strip()
    if not text:
        raise ChatError("Write something to post: say <your message>.")
    if len(text) > MAX_LENGTH:
        raise ChatError(f"A message has at most {MAX_LENGTH} characters; yours has {len(text)}.")
    with transaction.atomic():
        # The seats and the match first, as every writer locks them (games.services.lock_match):
        # the stream rows and notices the message writes come after, so a chat and a move on
        # the same match cannot each hold what the other waits for.
        match, seats = lock_match(match.pk)
        author = next((s for s in seats if user is not None and s.user_id == user.pk), None)
        if author is None:
            raise ChatError("Only the players of this match can write on its board.")
        if match.status == MatchStatus.ABANDONED:
            raise ChatError("This match was abandoned; its board is closed.")
        message = ChatMessage.objects.create(
            match=match, seat=author.number, author=user, text=text, source=source
        )
        events.chat_posted.send(sender=Match, match=match, message=message, seats=seats)
    return message


def chat_for(match: Match, limit: int = 200) -> list[dict]:
    """The match's board, oldest first: author's seat name, text, time."""
    names = {s.number: s.display_name or s.name for s in match.seats.all()}
    messages = list(ChatMessage.objects.filter(match=match).order_by("-created_at", "-pk")[:limit])
    return [
        {
            "author": names.get(m.seat, "?"),
            "seat": m.seat,
            "text": m.text,
            "created_at": m.created_at,
            "source": m.source,
        }
        for m in reversed(messages)
    ]
