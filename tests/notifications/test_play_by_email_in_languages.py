"""A whole match of each game played by email in Dutch and in German (issue 31): the players
chose the language, each move is the bot's command written in their words (as their turn
email's menu writes it, games.language), sent as a reply the way a client in that language
writes one (its attribution line, quoting and a sign-off in the language), through the
inbound path; every reply plays exactly the bot's move."""

import random

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from django.utils.translation import gettext

from games.engine import available_games, seats_to_ask
from games.language import in_language
from games.selectors import load_state
from players.models import Preferences
from replies import inbound
from replies.models import InboundStatus
from replies.tokens import reply_address

from .conftest import start_match

MAX_REPLIES = 5000
HOSTED = [g.slug for g in available_games() if not g.__module__.startswith("tests.")]
SIGN_OFFS = {
    "nl": [["", "Met vriendelijke groet,", "Anna"], ["", "Groetjes"], []],
    "de": [["", "Viele Grüße", "Bernd"], ["", "Mit freundlichen Grüßen"], ["LG"]],
}


def client_reply(rng: random.Random, lang: str, command: str) -> tuple[str, bytes]:
    from tests.replies.corpus import make_corpus as client

    reply = [command, *rng.choice(SIGN_OFFS[lang])]
    builders = {
        "Gmail": lambda: client.gmail(lang, reply),
        "Outlook": lambda: client.outlook(lang, reply),
        "iPhone": lambda: client.apple(lang, reply, iphone=True),
        "Thunderbird bottom": lambda: client.thunderbird(lang, reply, layout="bottom"),
        "Thunderbird inline": lambda: client.thunderbird(lang, reply, layout="inline"),
    }
    if lang == "de":
        builders["web.de"] = lambda: client.webde(reply)
    if lang == "nl":
        builders["Roundcube"] = lambda: client.roundcube(lang, reply, layout="bottom")
    name = rng.choice(sorted(builders))
    return f"{name} ({lang})", builders[name]()


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["nl", "de"])
@pytest.mark.parametrize("slug", HOSTED)
def test_a_whole_match_by_email_in_the_players_language(slug, lang):
    game = next(g for g in available_games() if g.slug == slug)
    users = [
        User.objects.create_user(f"p{n}", f"p{n}@example.com", "pw")
        for n in range(game.min_players)
    ]
    for user in users:
        Preferences.objects.update_or_create(user=user, defaults={"language": lang})
    match = start_match(users[0], *users[1:], game_slug=slug, seed=f"by-email-{slug}-{lang}")
    rng = random.Random(5)
    with translation.override(lang):
        applied = gettext("Applied: %(what)s.").split(":")[0]  # "Verwerkt", "Ausgeführt"
    replies = translated = 0
    while match.status == "active":
        assert replies < MAX_REPLIES, "the match did not end"
        state = load_state(match)
        seat = seats_to_ask(game, state)[0]
        row = match.seats.select_related("user").get(number=seat)
        move = game.bot_move(state, seat, rng)
        english = game.format_move(state, seat, move)
        command = in_language(game, english, lang)
        translated += command != english
        address = reply_address(match.pk, seat, row.deadline_seq)
        layout, raw = client_reply(rng, lang, command)
        raw = raw.replace(b"REPLY_ADDRESS", address.encode())
        raw = raw.replace(b"SENDER", row.user.email.encode())
        handled = inbound.receive_raw(raw, recipient=address, sender=row.user.email)
        assert handled.status == InboundStatus.DONE, (layout, command, handled.outcome)
        # The outcome is recorded as the answer told it, in the player's language.
        assert applied in handled.outcome, (layout, command, handled.outcome)
        played = match.moves.filter(source="email").order_by("-seq").first()
        assert played.payload == move, (layout, command)
        replies += 1
        match.refresh_from_db()
    assert match.status == "finished" and match.result
    assert translated > replies // 2, "most commands should have been written in the language"
