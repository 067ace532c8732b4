"""Screenshots of each game's board in the middle of a match, on a desktop and on a phone,
with the first step of a move taken so its targets are highlighted. With DOCS_SCREENSHOTS=1
they are written to docs/screenshots/ (the README shows one):

    DOCS_SCREENSHOTS=1 uv run pytest -m e2e tests/e2e/test_screenshots.py
"""

import os
import random
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games import selectors, services
from games.models import Match

from .helpers import DESKTOP, PHONE, play_now, sideways_scroll, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
GAMES = [("nieuwstad", 3, 30), ("new-england", 3, 12), ("blankenburg", 3, 25)]


def advance(match: Match, seat: int, moves: int) -> None:
    """Play `moves` of the player's own decisions as a bot would (the bots answer at once)."""
    rng = random.Random(5)
    game = match.game
    for _ in range(moves):
        match.refresh_from_db()
        state = selectors.load_state(match)
        if match.is_over or seat not in game.to_act(state):
            return
        move = game.bot_move(state, seat, rng)
        services.submit_move(match_id=match.pk, seat=seat, move=move, source="web")


@pytest.mark.parametrize(("slug", "players", "moves"), GAMES)
def test_board_screenshots(page: Page, live_server, screenshots, slug, players, moves):
    folder = DOCS if os.environ.get("DOCS_SCREENSHOTS") == "1" else screenshots
    folder.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(DESKTOP)
    sign_up(page, live_server, f"shots-{slug}@example.com")
    play_now(page, slug, players)
    match = Match.objects.get(game_slug=slug)
    advance(match, match.seats.get(user__isnull=False).number, moves)
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        # A place on the board first (a button such as "pass" would only preview passing).
        on_board = page.locator("#board svg a[data-target]")
        targets = on_board if on_board.count() else page.locator("#board a[data-target]")
        if targets.count():
            builder = page.locator("#builder").element_handle()
            targets.first.click()
            page.wait_for_function("el => !el.isConnected", arg=builder)
        expect(page.locator("#board svg").first).to_be_visible()
        assert sideways_scroll(page) == 0
        if name == "desktop":
            page.locator("#board").screenshot(path=str(folder / f"{slug}-{name}.png"))
            continue
        # A phone: the screen as the player sees it, the board's card at its top and the action
        # bar at its bottom (a taller capture would draw the fixed bar over the middle of it).
        page.locator("#board").evaluate("e => e.scrollIntoView()")
        page.wait_for_timeout(200)
        assert not page.evaluate(UNDER_THE_BAR), "a target of the board is under the action bar"
        page.screenshot(path=str(folder / f"{slug}-{name}.png"))
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_timeout(200)
        assert page.evaluate(LAST_LINE_CLEAR), "the action bar hides the page's last lines"


# The board's targets (places, pieces, the Confirm) that the action bar covers now.
UNDER_THE_BAR = """() => {
  const bar = document.getElementById('action-bar').getBoundingClientRect();
  const targets = document.querySelectorAll(
    '#board svg a.target, #board [data-component] a[data-target], #board form[data-component]');
  return Array.from(targets).map(t => t.getBoundingClientRect())
    .filter(r => r.width && r.bottom > bar.top && r.top < bar.bottom).length;
}"""
# Scrolled to the end, the page's last line (the footer) ends above the action bar.
LAST_LINE_CLEAR = """() => {
  const bar = document.getElementById('action-bar').getBoundingClientRect();
  return document.querySelector('footer').getBoundingClientRect().bottom <= bar.top + 1;
}"""
