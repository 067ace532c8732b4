"""The mail's own commands in the player's language (issue 31, item 3): a Dutch player
writes `zeg`, `stand` and `geef op`, a German one `sag` and `Hilfe`, beside the English
words, which always work."""

import pytest
from django.core import mail

from games.models import ChatMessage, Seat
from players.models import Preferences
from replies import inbound

from .conftest import reply_to, send_all, start_match, turn_email


def answer_to(user) -> str:
    send_all()
    return next(m for m in reversed(mail.outbox) if user.email in m.to).body


def speaks(user, lang):
    Preferences.objects.update_or_create(user=user, defaults={"language": lang})


@pytest.mark.parametrize(
    ("lang", "say", "status"), [("nl", "zeg", "stand"), ("de", "sag", "Stand")]
)
def test_say_and_status_in_the_players_words(anna, ben, lang, say, status):
    speaks(anna, lang)
    match = start_match(anna, ben)
    inbound.receive_raw(reply_to(turn_email(match, anna), f"{say} Hallo allemaal"))
    assert ChatMessage.objects.get(match=match).text == "Hallo allemaal"
    before = len(mail.outbox)
    inbound.receive_raw(reply_to(turn_email(match, anna), status))
    send_all()
    assert len(mail.outbox) > before  # the position, as an answer
    assert match.moves.count() == 0


def test_resign_in_dutch_and_help_in_german(anna, ben):
    speaks(anna, "nl")
    speaks(ben, "de")
    match = start_match(anna, ben)
    inbound.receive_raw(reply_to(turn_email(match, ben), "Hilfe"))
    first_help_line = match.game.help_text().strip().splitlines()[0].strip()
    assert first_help_line in answer_to(ben)  # the game's commands, as "help" answers
    assert not Seat.objects.get(match=match, user=ben).resigned
    inbound.receive_raw(reply_to(turn_email(match, anna), "geef op"))
    answer_to(anna)
    assert Seat.objects.get(match=match, user=anna).resigned


@pytest.mark.parametrize("lang", ["nl", "de", "fr"])
def test_the_mails_list_of_commands_is_written_in_the_readers_words(lang):
    """Every command the turn mail lists under "Other commands" is written in the reader's
    words, and reads back as the command it explains."""
    import re

    from django.template.loader import render_to_string
    from django.utils import translation

    from games.language import mail_command

    with translation.override(lang):
        listed = render_to_string("email/_commands.txt")
    commands = [
        re.split(r" <| {2,}", line.strip())[0]
        for line in listed.splitlines()
        if re.match(r" {4}\S", line)
    ]
    english = [mail_command(c, lang) for c in commands]
    assert [e[0] if e else None for e in english] == [
        "status", "help", "say", "undo", "resign", "substitute", "expel", "withdraw",
        "tournament join", "takeover",
    ]  # fmt: skip
    assert not {"status", "help", "say", "undo", "resign", "withdraw"} & set(commands)
