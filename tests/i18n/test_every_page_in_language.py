"""Every page a Dutch, German or French player reaches, in their language (issue 31: "without
meeting a word of English they did not choose"). A player in running matches of each game, a
finished one, one open to join, a tournament and a league follows every link the site shows
them, from the home page and the lobby on, and reads each page as a person does: its text,
its buttons and the labels a screen reader says. No common English word of the interface or
the games may be left; names (games, players, the site) and commands quoted as code aside.
"""

from __future__ import annotations

import random
import re
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth.models import User
from django.test import Client

from api.tokens import make_token
from games import services
from games.selectors import load_state
from players.models import Preferences
from tournaments.leagues import create_league, join_league
from tournaments.services import create_tournament, join

from .reading import Reading, english_in, where

pytestmark = pytest.mark.django_db


def person(name: str, language: str) -> User:
    user = User.objects.create_user(
        f"{name.lower()}@example.com", f"{name.lower()}@example.com", "pw", first_name=name
    )
    Preferences.objects.update_or_create(user=user, defaults={"language": language})
    return user


def played(match, moves: int, rng: random.Random) -> None:
    """`moves` bot moves, or to the end."""
    for _ in range(moves):
        match.refresh_from_db()
        if not match.to_act:
            return
        seat = match.to_act[0]
        move = match.game.bot_move(load_state(match), seat, rng)
        assert services.submit_move(match_id=match.pk, seat=seat, move=move, source="web").ok


def world() -> tuple[User, list[str]]:
    """Dora in the site's places; the pages to start reading from."""
    dora, bram, cees, eva = (person(n, "en") for n in ("Dora", "Bram", "Cees", "Eva"))
    rng = random.Random(7)
    starts = ["/", "/lobby/", "/matches/new/", "/account/", "/account/tokens/"]
    starts += ["/n/preferences/", "/ratings/", "/archive/", "/tournaments/"]
    for slug in ("nieuwstad", "blankenburg", "new-england"):
        match = services.create_match(
            creator=dora, game_slug=slug, players=3, invite_emails=[bram.email, cees.email],
            seed=f"4712-{slug}",
        )  # fmt: skip
        for user in (bram, cees):
            services.join_match(match_id=match.pk, user=user)
        played(match, 10, rng)
        starts.append(f"/matches/{match.pk}/")
    finished = []  # a match of each game played to its end
    for slug, players in (("nieuwstad", 2), ("blankenburg", 2), ("new-england", 3)):
        match = services.create_match(
            creator=dora, game_slug=slug, players=players,
            invite_emails=[bram.email, cees.email][: players - 1], seed=f"4712-end-{slug}",
        )  # fmt: skip
        for user in (bram, cees)[: players - 1]:
            services.join_match(match_id=match.pk, user=user)
        played(match, 1000, rng)
        match.refresh_from_db()
        assert match.status == "finished"
        finished.append(f"/matches/{match.pk}/")
    waiting = services.create_match(
        creator=eva, game_slug="nieuwstad", players=2, invite_emails=[dora.email]
    )
    tournament = create_tournament(
        organiser=dora, name="Winter Cup", game_slug="nieuwstad", format="round_robin",
        table_size=2, max_players=8,
    )  # fmt: skip
    join(tournament, bram)
    league = create_league(organiser=eva, name="Eva", game_slug="blankenburg")
    join_league(league, dora)
    make_token(user=dora, name="Robot", scope="play")
    starts += [*finished, f"/matches/{waiting.pk}/"]
    starts += [f"/tournaments/{tournament.pk}/", f"/leagues/{league.pk}/", f"/players/{bram.pk}/"]
    return dora, starts


# A replay's frames are one page each: its first and some through the match are read.
EVERY_FRAME = re.compile(r"(^|&)n=(?!(0|1|2|30|60|90|120|150)$)\d+|play=1")
# Not pages to read: leaving, switching language, the admin (tests/i18n/test_admin_language.py),
# the API (JSON for programs), feeds (tests of their own), files.
NOT_READ = re.compile(
    r"^/(logout|language|admin|api|static|media|n/unsubscribe|n/mailbox)|\.(ics|atom|json|svg)$"
)


def read_all(browser: Client, starts: list[str], language: str) -> tuple[set, dict, dict]:
    """Every page reachable from `starts` (up to 250): the pages read, the English found on
    each (with where), the pages that did not answer 200."""
    queue, seen, found, broken = list(starts), set(), {}, {}
    while queue and len(seen) < 250:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        response = browser.get(url, follow=True)
        if response.status_code != 200:
            broken[url] = response.status_code
            continue
        if "text/html" not in response.get("Content-Type", ""):
            continue
        page = response.content.decode()
        assert f'lang="{language}"' in page[:400], url
        reading = Reading()
        reading.feed(page)
        text = " ".join(" ".join(reading.words).split())
        english = english_in(text, language)
        if english:
            found[url] = where(text, english)
        for href in reading.links:
            parts = urlsplit(urljoin(url, href))
            if (
                parts.netloc in ("", "testserver")
                and not NOT_READ.search(parts.path)
                and not (EVERY_FRAME.search(parts.query))
            ):
                queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return seen, found, broken


def test_every_page_a_player_reaches_is_in_their_language():
    dora, starts = world()
    for language in ("nl", "de", "fr"):
        Preferences.objects.filter(user=dora).update(language=language)
        browser = Client(HTTP_ACCEPT_LANGUAGE="en")  # her choice wins over the browser's
        browser.force_login(User.objects.get(pk=dora.pk))
        seen, found, broken = read_all(browser, starts, language)
        assert len(seen) > 40, sorted(seen)
        assert any(re.match(r"/tournaments/\d+/hooks/", url) for url in seen)
        for reached in ("/n/matches/", "/leagues/", "/account/tokens/"):
            assert any(url.startswith(reached) for url in seen), reached
        assert broken == {}
        assert found == {}, f"{language}:\n" + "\n".join(f"{u}: {w}" for u, w in found.items())


def test_every_page_a_visitor_reaches_is_in_the_browser_s_language():
    """Before signing in: the home page, sign-up, sign-in and its link by mail, the public
    pages of matches, players, ratings and tournaments, in the browser's language, with
    their buttons, titles and alt texts (issue 41)."""
    _dora, starts = world()
    starts += ["/signup/", "/login/", "/login/email/"]
    for language in ("nl", "de", "fr"):
        browser = Client(HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
        seen, found, broken = read_all(browser, starts, language)
        assert len(seen) > 20, sorted(seen)
        assert any(url.startswith("/signup") for url in seen)
        assert set(broken.values()) <= {404}, broken  # a match in play is its players'
        assert found == {}, f"{language}:\n" + "\n".join(f"{u}: {w}" for u, w in found.items())
