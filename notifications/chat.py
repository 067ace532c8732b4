"""A match's message board: players give advice and propose deals. Not part of the game
log: a chat message changes nothing in the match and is never replayed."""

from __future__ import annotations

from django.db import transaction

from games.models import ChatMessage, Match, MatchStatus

from . import outbox
from .models import Kind

MAX_LENGTH = 2000


class ChatError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def post_message(*, match: Match, user, text: str, source: str = "web") -> ChatMessage:
    """Post `text` as `user`'s seat and email it to the other players who want chat."""
    text = (text or "").strip()
    if not text:
        raise ChatError("Write something to post: say <your message>.")
    if len(text) > MAX_LENGTH:
        raise ChatError(f"A message has at most {MAX_LENGTH} characters; yours has {len(text)}.")
    seats = list(match.seats.select_related("user").order_by("number"))
    author = next((s for s in seats if user is not None and s.user_id == user.pk), None)
    if author is None:
        raise ChatError("Only the players of this match can write on its board.")
    if match.status == MatchStatus.ABANDONED:
        raise ChatError("This match was abandoned; its board is closed.")
    with transaction.atomic():
        message = ChatMessage.objects.create(
            match=match, seat=author.number, author=user, text=text, source=source
        )
        for seat in seats:
            if seat is author or seat.user_id is None or seat.is_bot:
                continue
            seq = outbox.reply_seq(match, seat)
            outbox.write(
                outbox.row_for(
                    kind=Kind.CHAT,
                    user=seat.user,
                    dedupe_key=f"chat:{message.pk}:{seat.number}",
                    match=match,
                    seat=seat.number,
                    seq=seq,
                    context={"chat_id": message.pk},
                )
            )
    return message
