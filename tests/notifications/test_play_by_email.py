"""A whole match of each game played by email alone: every move is a reply, written by a bot
as text (game.format_move of game.bot_move), through the inbound path."""

import random
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from django.contrib.auth.models import User

from games.engine import available_games, seats_to_ask
from games.selectors import load_state
from notifications import inbound
from notifications.models import InboundStatus
from notifications.tokens import reply_address

from .conftest import send_all, start_match

MAX_REPLIES = 5000


def _slugs() -> list[str]:
    return [game.slug for game in available_games()]


def reply(user, address: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"] = user.email
    message["To"] = address
    message["Subject"] = "Re: your turn"
    message["Message-ID"] = make_msgid(domain="player.example")
    message.set_content(f"{body}\n\nOn Monday, Postal Boards wrote:\n> It is your turn.\n")
    return message.as_bytes()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", _slugs())
def test_a_whole_match_by_email(slug):
    game = next(g for g in available_games() if g.slug == slug)
    users = [
        User.objects.create_user(f"p{n}", f"p{n}@example.com", "pw")
        for n in range(game.min_players)
    ]
    match = start_match(users[0], *users[1:], game_slug=slug)
    rng = random.Random(7)
    # The first reply answers a real turn email, Reply-To and all.
    first = next(m for m in send_all() if "Your turn" in m.subject)
    replies = 0
    while match.status == "active":
        assert replies < MAX_REPLIES, "the match did not end"
        state = load_state(match)
        seat = seats_to_ask(game, state)[0]  # a seat whose one move waits is not asked
        row = match.seats.select_related("user").get(number=seat)
        command = game.format_move(state, seat, game.bot_move(state, seat, rng))
        address = reply_address(match.pk, seat, row.deadline_seq)
        if replies == 0 and first.to[0] == row.user.email:
            assert first.reply_to[0] == address
        handled = inbound.receive_raw(reply(row.user, address, command), recipient=address)
        assert handled.status == InboundStatus.DONE, handled.outcome
        assert "Applied" in handled.outcome, (command, handled.outcome)
        replies += 1
        match.refresh_from_db()
    assert match.status == "finished" and match.result
    email_moves = match.moves.filter(source="email").count()
    assert email_moves == replies
