"""The site in Dutch, German and French, in Chromium at 390 px: the main pages (home, sign-up,
sign-in, lobby, settings, a match as a player, its replay and channels, new match,
tournaments, account, tokens, ratings, archive, profile, and the local mailbox's view of a
turn mail), and a match page of each game, show no word of our English that the language's
translations never use (tests.i18n.reading: every word of both catalogues' message ids), and
nothing makes the page scroll sideways (German words are long). Left out: names (the games'
titles, the site's, players'), commands quoted as code (English always reads), the chat, and
a select's options on the main pages (the time zones' IANA names)."""

import random

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from games import services
from games.selectors import load_state
from notifications import outbox
from players.models import Preferences
from tests.i18n.reading import english_in, where
from tournaments.services import create_tournament, join

from .helpers import PHONE, sideways_scroll

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long enough password"
# Not read on the main pages: code and scripts (and a noscript's markup, raw text when
# scripts run), the players' chat, another document, the time zones.
NOT_READ = "code, script, style, template, noscript, .chat-card, iframe, select option"


def visible_words(page: Page, language: str) -> list[str]:
    """The English words a reader sees (tests.i18n.reading: a word of our English no
    translation into `language` uses), names, code and the chat left out."""
    text = page.evaluate(
        """(skip) => {
          document.querySelectorAll('details').forEach(d => { d.open = true; });
          const body = document.body.cloneNode(true);
          body.querySelectorAll(skip).forEach(e => e.remove());
          const labels = [...document.querySelectorAll('[aria-label], [title], [placeholder]')]
            .filter(e => !e.closest(skip))
            .map(e => [e.getAttribute('aria-label'), e.getAttribute('title'),
                       e.getAttribute('placeholder')].filter(Boolean).join(' '));
          document.body.appendChild(body); body.hidden = true;
          const shown = body.innerText + ' ' + body.textContent;
          body.remove();
          return shown + ' ' + labels.join(' ') + ' ' + document.title;
        }""",
        NOT_READ,
    )
    return english_in(text, language)


@pytest.fixture
def world(settings, tmp_path):
    """Dora and Bram in a match of Nieuwstad with a turn mail in the local mailbox, and a
    tournament open for sign-up."""
    settings.DEBUG = True
    settings.LOCAL_MAILBOX_OPEN = True
    settings.LOCAL_MAILBOX_DIR = tmp_path / "mailbox"
    settings.EMAIL_BACKEND = "notifications.mailbox.LocalMailboxBackend"
    users = get_user_model()
    dora = users.objects.create_user("dora@example.com", "dora@example.com", PASSWORD)
    dora.first_name = "Dora"
    dora.save()
    bram = users.objects.create_user("bram@example.com", "bram@example.com", PASSWORD)
    bram.first_name = "Bram"
    bram.save()
    match = services.create_match(
        creator=dora, game_slug="nieuwstad", players=2, invite_emails=[bram.email]
    )
    services.join_match(match_id=match.pk, user=bram)
    # A match has no start mail: Dora's first mail is her first turn notice, so she is asked.
    rng = random.Random(4)
    match.refresh_from_db()
    while match.seats.get(user=dora).number not in match.to_act:
        seat = match.to_act[0]
        move = match.game.bot_move(load_state(match), seat, rng)
        assert services.submit_move(match_id=match.pk, seat=seat, move=move, source="web").ok
        match.refresh_from_db()
    tournament = create_tournament(
        organiser=dora, name="Winter Cup", game_slug="nieuwstad", format="round_robin",
        table_size=2, max_players=8,
    )  # fmt: skip
    join(tournament, bram)
    return {"dora": dora, "match": match, "tournament": tournament}


def pages(live_server, world) -> dict[str, str]:
    match, tournament = world["match"], world["tournament"]
    return {
        "lobby": "/lobby/",
        "settings": "/n/preferences/",
        "match": f"/matches/{match.pk}/",
        "replay": f"/matches/{match.pk}/replay/",
        "hooks": f"/n/matches/{match.pk}/hooks/",
        "new match": "/matches/new/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{tournament.pk}/",
        "account": "/account/",
        "tokens": "/account/tokens/",
        "ratings": "/ratings/",
        "archive": "/archive/",
        "profile": f"/players/{world['dora'].pk}/",
        "mailbox": "/n/mailbox/?to=dora%40example.com",
    }


@pytest.mark.parametrize("language", ["nl", "de", "fr"])
def test_the_main_pages_speak_the_language_and_fit_a_phone(
    browser: Browser, live_server, world, language
):
    Preferences.objects.update_or_create(user=world["dora"], defaults={"language": language})
    outbox.send_due()  # the start and turn mails, in Dora's language, to the local mailbox
    context = browser.new_context(locale=language, viewport=PHONE)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    wide: dict[str, int] = {}

    def look(name: str, url: str) -> None:
        page.goto(live_server.url + url)
        expect(page.locator("html")).to_have_attribute("lang", language)
        found[name] = visible_words(page, language)
        wide[name] = sideways_scroll(page)

    # A visitor: the browser's language (Accept-Language from the context's locale).
    for name, url in {"home": "/", "sign-up": "/signup/", "sign-in": "/login/"}.items():
        look(name, url)
    # Dora signs in; from then on her own choice (the same language here).
    page.fill("input[name=username]", "dora@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").click()
    expect(page).to_have_url(live_server.url + "/lobby/")
    for name, url in pages(live_server, world).items():
        look(name, url)
    page.goto(live_server.url + "/n/mailbox/?to=dora%40example.com")
    page.locator("table a").first.click()
    expect(page.locator("pre.mail-text")).to_be_visible()
    found["turn mail"] = visible_words(page, language)
    wide["turn mail"] = sideways_scroll(page)
    mail_text = page.locator("pre.mail-text").inner_text()
    context.close()
    assert not any(found.values()), str(found)
    assert {k: v for k, v in wide.items() if v} == {}
    greeting = {"nl": "Hallo Dora,", "de": "Hallo Dora,", "fr": "Bonjour Dora,"}[language]
    assert greeting in mail_text


@pytest.mark.parametrize("language", ["nl", "de", "fr"])
@pytest.mark.parametrize("slug", ["new-england", "nieuwstad", "blankenburg"])
def test_a_match_page_speaks_the_language_game_words_included(
    browser: Browser, live_server, settings, language, slug
):
    """Everything on the match page, the game's board, history, text board, reference and
    choices included (only commands quoted as code, which English always reads, left out)."""
    import random

    from games.selectors import load_state

    users = get_user_model()
    players = [users.objects.create_user(f"{n}@example.com", f"{n}@example.com", PASSWORD)
               for n in ("dora", "bram", "cees")]  # fmt: skip
    for user, name in zip(players, ("Dora", "Bram", "Cees"), strict=True):
        user.first_name = name
        user.save()
        Preferences.objects.update_or_create(user=user, defaults={"language": language})
    match = services.create_match(
        creator=players[0], game_slug=slug, players=3,
        invite_emails=[u.email for u in players[1:]], seed=f"languages-{slug}",
    )  # fmt: skip
    for user in players[1:]:
        services.join_match(match_id=match.pk, user=user)
    rng = random.Random(3)
    for _ in range(12):  # a history, and into the game (New England's buying, with a price)
        match.refresh_from_db()
        seat = match.to_act[0]
        move = match.game.bot_move(load_state(match), seat, rng)
        assert services.submit_move(match_id=match.pk, seat=seat, move=move, source="web").ok
    match.refresh_from_db()
    me = match.seats.get(number=match.to_act[0]).user
    context = browser.new_context(locale=language, viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", me.email)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").click()
    expect(page).to_have_url(live_server.url + "/lobby/")
    page.goto(live_server.url + f"/matches/{match.pk}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    text = page.evaluate(
        """() => {
          document.querySelectorAll('details').forEach(d => { d.open = true; });
          const body = document.body.cloneNode(true);
          body.querySelectorAll('code, script, style, .chat-card').forEach(e => e.remove());
          return body.innerText + ' ' + body.textContent + ' ' + [...document.querySelectorAll(
            '[aria-label], [title]')].map(e => (e.getAttribute('aria-label') || '') + ' '
            + (e.getAttribute('title') || '')).join(' ');
        }"""
    )
    english = english_in(text, language)
    wide = sideways_scroll(page)
    context.close()
    assert english == [], where(text, english)
    assert wide == 0
