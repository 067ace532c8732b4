"""Every mail a Dutch, German or French player gets, in their language (issue 31): a match's
start and turns of each game, every turn to the end of one (a game a language), chat,
reminders, a timeout, the end of a match, an invitation to an address with no account (in
the inviter's language), a tournament's round and a sign-in link. Each is read as a
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
from notifications import outbox, reminders
from players import accounts
from tournaments.services import create_tournament, join, start

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


def everything_mailed(language: str) -> list:
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
        reminders.send_reminders(now=now + timedelta(days=days) - timedelta(hours=2))
        clock.sweep_deadlines(now=now + timedelta(days=days), enforce=clock.enforce)
        outbox.send_due()
    outbox.send_due()
    return list(mail.outbox)


@pytest.mark.parametrize("language", ["nl", "de", "fr"])
def test_every_mail_a_player_gets_is_in_their_language(language):
    sent = everything_mailed(language)
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
    assert len(sent) > 100 and len(kinds) > 8, sorted(kinds)
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
