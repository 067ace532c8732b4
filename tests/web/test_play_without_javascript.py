"""A whole match of each game built link by link without JavaScript (issue 28): each step is a
plain link (a place on the board, a piece beside it) or, for an amount or a trade at the
market, a GET form; the move is posted with the Confirm form; the page answers with a redirect
(post/redirect/get). The player's moves are the ones a bot would choose, so a match lasts as
long as a bot's."""

import html
import random
import re

import pytest
from django.urls import reverse

from games import selectors, services
from tests.web.conftest import logged_in, seat_of

pytestmark = pytest.mark.django_db

GAMES = [("nieuwstad", 2), ("new-england", 3), ("blankenburg", 2)]


def step_links(page: str) -> dict[str, str]:
    """data-target -> href of the game's targets (the board's places and the pieces)."""
    found = {}
    for tag in re.findall(r"<a [^>]*>", page):
        target = re.search(r'data-target="([^"]+)"', tag)
        href = re.search(r'href="([^"#]+)', tag)
        if target and href and 'class="button choice"' not in tag:
            found[html.unescape(target.group(1))] = html.unescape(href.group(1))
    return found


def amount_forms(page: str) -> dict[str, list[tuple[str, str]]]:
    """target -> the GET query of the amount form (data-component) that takes it."""
    found = {}
    for form in re.findall(r"<form [^>]*class=\"amount\".*?</form>", page, re.S):
        hidden = [
            html.unescape(v) for v in re.findall(r'type="hidden" name="s" value="([^"]+)"', form)
        ]
        for value in re.findall(r'type="radio" name="s" value="([^"]+)"', form):
            value = html.unescape(value)
            found[value] = [("s", v) for v in (*hidden, value)]
    return found


def trade_query(page: str, wanted: list[str]) -> list[tuple[str, str]] | None:
    """The GET query of the trade form at the market (data-component="market") whose action
    begins the wanted move: its action, then a chip of each choice (s1, s2...)."""
    for form in re.findall(r'<form [^>]*class="trade".*?</form>', page, re.S):
        hidden = [
            html.unescape(v) for v in re.findall(r'type="hidden" name="s" value="([^"]+)"', form)
        ]
        if not wanted or wanted[0] not in hidden:
            continue
        chips: dict[str, str] = {}
        for name, value in re.findall(r'type="radio" name="(s\d)" value="([^"]+)"', form):
            if html.unescape(value) in wanted:
                chips[name] = html.unescape(value)
        return [("s", v) for v in hidden] + sorted(chips.items())
    return None


@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_a_whole_match_link_by_link(anna, slug, players):
    match = services.create_match(
        creator=anna, game_slug=slug, players=players, bots=players - 1, seed=f"no-js-{slug}"
    )
    client = logged_in(anna)
    url = reverse("match_detail", args=[match.pk])
    seat = seat_of(match, anna)
    game, rng = match.game, random.Random(3)
    page = client.get(url).content.decode()
    planned: tuple[int, list[str]] = (-1, [])
    for _ in range(3000):
        match.refresh_from_db()
        if match.is_over:
            break
        if 'id="confirm-form"' in page:
            command = html.unescape(re.search(r'name="command" value="([^"]+)"', page).group(1))
            token = f"no-js-move-{match.head_seq}"
            answer = client.post(
                reverse("match_move", args=[match.pk]),
                {"command": command, "seq": match.head_seq, "token": token},
            )
            assert answer.status_code == 302 and answer["Location"] == url
            page = client.get(url).content.decode()
            assert "Applied" in page, page
            continue
        assert 'id="builder"' in page, "the player is to act but nothing can be chosen"
        if planned[0] != match.head_seq:  # the move a bot would choose, once per decision
            state = selectors.load_state(match)
            move = game.bot_move(state, seat, rng)
            planned = (match.head_seq, [s.target for s in game.move_steps(state, seat, move)])
        wanted = planned[1]
        trade = trade_query(page, wanted)
        if trade is not None:
            page = client.get(url, trade).content.decode()
            assert "no longer open" not in page
            continue
        links, forms = step_links(page), amount_forms(page)
        target = next((t for t in wanted if t in links or t in forms), "end:as-is")
        if target in forms:
            page = client.get(url, forms[target]).content.decode()
        else:
            assert target in links, (target, sorted(links))
            page = client.get(links[target]).content.decode()
        assert "no longer open" not in page
    match.refresh_from_db()
    assert match.status == "finished"
    page = client.get(url).content.decode()
    assert 'id="result-banner"' in page
