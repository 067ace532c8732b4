"""Every mail a Dutch, German or French player gets, in their language (issue 31): a match's
start and turns of each game, every turn to the end of one (a game a language), chat,
reminders, a timeout, the end of a match, an invitation to an address with no account (in
the inviter's language), a tournament's round, its end, its organiser's mail (a stalled
seat, the answer to their commands) and a sign-in link. Each is read as a
plain-text mail client shows it (subject and text) and as its HTML part reads; no word of
our English the language's translations never use may be left (tests.i18n.reading; names
and quoted code aside)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone, translation

from games import chat, clock, services
from games.language import written_as
from games.models import Match
from games.rules.mail_words import ORGANISER_COMMANDS
from notifications import outbox, reminders
from notifications.models import Notification
from players import accounts
from replies import inbound
from replies.tokens import organiser_address
from tournaments.services import create_tournament, join, round_over, start

from .reading import Reading, english_in, where
from .test_every_page_in_language import person, played

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _site(settings, tmp_path):
    settings.REPLY_DOMAIN = "reply.example.org"
    settings.SITE_URL = "https://boards.example.org"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.LOCAL_MAILBOX_DIR = tmp_path / "mailbox"
    settings.CELERY_BROKER_URL = "memory://"


def everything_mailed(language: str, time_machine) -> list:
    """A world whose players read `language`, and what it mailed them."""
    dora, bram, cees, eva = (person(n, language) for n in ("Dora", "Bram", "Cees", "Eva"))
    rng = random.Random(11)
    for slug in ("nieuwstad", "blankenburg", "new-england"):
        match = services.create_match(
            creator=dora, game_slug=slug, players=3, invite_emails=[bram.email, cees.email],
            seed=f"4711{slug}",
        )  # fmt: skip
        for user in (bram, cees):
            services.join_match(match_id=match.pk, user=user)
        played(match, 6, rng)
        chat.post_message(match=match, user=bram, text="Goedemorgen!")
    # A match played to its end with every turn's mail read: one game a language (to keep
    # the run short), the others as the first 6 moves above.
    slug, players = {"nl": ("nieuwstad", 2), "de": ("blankenburg", 2), "fr": ("new-england", 3)}[
        language
    ]
    finished = services.create_match(
        creator=dora, game_slug=slug, players=players,
        invite_emails=[bram.email, cees.email][: players - 1], seed="4711",
    )  # fmt: skip
    for user in (bram, cees)[: players - 1]:
        services.join_match(match_id=finished.pk, user=user)
    while finished.status != "finished":  # each turn's mail sent before the next move
        played(finished, 1, rng)
        outbox.send_due()
        finished.refresh_from_db()
    with translation.override(language):  # from the page Dora invites from, in her language
        services.create_match(
            creator=dora, game_slug="blankenburg", players=2, invite_emails=["newcomer@example.org"]
        )
    tournament = create_tournament(
        organiser=eva, name="Winter Cup", game_slug="new-england", format="tables", rounds=1,
        table_size=3, max_players=8,
    )  # fmt: skip
    for user in (dora, bram, cees):
        join(tournament, user)
    start(tournament.pk)
    accounts.send_sign_in_link(user=dora)
    now = timezone.now()
    for days in (1, 2, 3, 5, 8, 12):  # reminders before the deadlines, then timeouts
        time_machine.move_to(now + timedelta(days=days) - timedelta(hours=2))
        reminders.send_reminders()
        outbox.send_due()  # before the deadline passes, which makes a reminder moot
        time_machine.move_to(now + timedelta(days=days))
        clock.sweep_deadlines(enforce=clock.enforce)
        outbox.send_due()
    # The tournament to its end (everyone's mail with the standings), and its organiser's
    # mail: the stalled seat's above, and the answer to what Eva writes to her address.
    table = Match.objects.get(tournament_table__round__tournament=tournament)
    while table.status == "active":
        played(table, 1, rng)
        table.refresh_from_db()
    round_over(tournament.pk, 1)  # what the match's end runs on commit (never, in this test)
    with translation.override(language):
        said = {english: written_as(ORGANISER_COMMANDS, english) for english in ORGANISER_COMMANDS}
    inbound.receive_raw(
        (
            f"From: Eva <{eva.email}>\r\nTo: {organiser_address(tournament.pk, eva.pk)}\r\n"
            "Subject: Winter Cup\r\nMessage-ID: <eva-1@example.org>\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n\r\n"
            f"{said['help']}\r\n{said['draw']}\r\n{said['extend']} 2 x\r\n"
            f"{said['offer']} 99999 Dora\r\n{said['withdraw']} Zora x\r\n"
        ).encode()
    )
    outbox.send_due()
    return list(mail.outbox)


@pytest.mark.parametrize("language", ["nl", "de", "fr"])
def test_every_mail_a_player_gets_is_in_their_language(language, no_vacation_bank, time_machine):
    sent = everything_mailed(language, time_machine)
    found, kinds = {}, set()
    for message in sent:
        html = next((body for body, kind in message.alternatives if kind == "text/html"), "")
        reading = Reading()
        reading.feed(html)
        text = " ".join([message.subject, message.body, *reading.words])
        english = english_in(text, language)
        kinds.add(message.subject.split(":")[0])
        if english:
            found[f"{message.to[0]}: {message.subject}"] = where(text, english)
    assert len(sent) > 100 and len(kinds) > 5, sorted(kinds)
    mailed = set(
        Notification.objects.filter(status="sent", channel="email").values_list(
            "kind", "context__event"
        )
    )
    for kind in ("turn", "chat", "reminder", "timeout", "end", "invite"):
        assert any(k == kind for k, _ in mailed), (kind, mailed)
    for event in (None, "stalled", "organiser", "end"):  # a tournament's round, ...
        assert ("round", event) in mailed, (event, mailed)
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
