"""A whole match of each game played by email alone: every move is a reply, written by a bot
as text (game.format_move of game.bot_move), through the inbound path."""

import random
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from django.contrib.auth.models import User

from games.engine import available_games, seats_to_ask
from games.selectors import load_state
from replies import inbound
from replies.models import InboundStatus
from replies.tokens import reply_address

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
    first = next(m for m in send_all() if m.body.startswith("Your turn"))
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


# --- the same, each reply written the way a real client writes it -----------------------

REAL_LAYOUT_REPLIES = 25


def real_client_reply(rng: random.Random, command: str) -> tuple[str, bytes]:
    """`command` as one of the corpus's clients would send it, in one of the twelve
    languages, with that language's sign-off or device footer."""
    from tests.replies.corpus import make_corpus as client

    lang = rng.choice(["en", "de", "fr", "nl", "es", "it", "pt", "sv", "da", "no", "pl", "cs"])
    sign_off = rng.choice([[], ["", "Cheers,", "Anna"], ["", "Mit freundlichen Grüßen"], ["lg"]])
    reply = [command, *sign_off]
    builders = {
        "Gmail": lambda: client.gmail(lang, reply),
        "Outlook": lambda: client.outlook(lang, reply),
        "Outlook (HTML only)": lambda: client.outlook(lang, reply, html_only=True),
        "OWA": lambda: client.outlook(lang, reply, kind="owa"),
        "iPhone": lambda: client.apple(lang, reply, iphone=True),
        "Apple Mail (HTML)": lambda: client.apple(lang, reply, html=True),
        "Thunderbird bottom": lambda: client.thunderbird(lang, reply, layout="bottom"),
        "Thunderbird inline": lambda: client.thunderbird(lang, reply, layout="inline"),
        "web.de": lambda: client.webde(reply),
        "Yahoo": lambda: client.yahoo(reply),
    }
    name = rng.choice(sorted(builders))
    return f"{name} ({lang})", builders[name]()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", _slugs())
def test_replies_in_real_client_layouts_play_their_move(slug):
    """The first moves of a match of each game, every one a reply in a real client's layout
    (quoted turn email, attribution, sign-off): each plays exactly the bot's command, and a
    sign-off is passed over, never refused."""
    game = next(g for g in available_games() if g.slug == slug)
    users = [
        User.objects.create_user(f"p{n}", f"p{n}@example.com", "pw")
        for n in range(game.min_players)
    ]
    match = start_match(users[0], *users[1:], game_slug=slug)
    rng = random.Random(11)
    for _ in range(REAL_LAYOUT_REPLIES):
        if match.status != "active":
            break
        state = load_state(match)
        seat = seats_to_ask(game, state)[0]
        row = match.seats.select_related("user").get(number=seat)
        command = game.format_move(state, seat, game.bot_move(state, seat, rng))
        address = reply_address(match.pk, seat, row.deadline_seq)
        layout, raw = real_client_reply(rng, command)
        raw = raw.replace(b"REPLY_ADDRESS", address.encode())
        raw = raw.replace(b"SENDER", row.user.email.encode())
        head = match.head_seq
        handled = inbound.receive_raw(raw, recipient=address, sender=row.user.email)
        assert handled.status == InboundStatus.DONE, (layout, command, handled.outcome)
        assert handled.outcome.split(": ", 1)[1].startswith("Applied"), (
            layout,
            command,
            handled.outcome,
        )
        assert "not applied" not in handled.outcome.lower(), (layout, command, handled.outcome)
        match.refresh_from_db()
        assert match.head_seq > head
