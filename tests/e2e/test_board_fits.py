"""The board fits the screen (issue 28, item 1): on a 390 x 844 phone and a 1280 x 800 desktop
the whole board is in its box when the page opens, the current decision's targets are in the
viewport, nothing is drawn under 12 px, and a double tap zooms the board to its own size, where
it pans with a visible cue."""

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import (
    PHONE,
    boards_in_their_box,
    play_now,
    sideways_scroll,
    sign_up,
    small_text,
    targets_in_view,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
GAMES = [("nieuwstad", 2), ("new-england", 3), ("blankenburg", 2)]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_the_whole_board_fits_and_its_targets_are_in_view(
    page: Page, live_server, screenshots, slug, players, size
):
    page.set_viewport_size(size)
    sign_up(page, live_server, f"fit-{slug}-{size['width']}@example.com")
    play_now(page, slug, players)
    expect(page.locator("#board svg.board-svg").first).to_be_visible()
    page.wait_for_function("() => document.querySelector('#board .board-scroll.fit')")
    assert not boards_in_their_box(page), slug
    assert targets_in_view(page), f"{slug}: no target of the decision in view"
    assert not small_text(page)
    assert sideways_scroll(page) == 0
    page.screenshot(path=str(screenshots / f"fit-{slug}-{size['width']}.png"))
    if size is PHONE:
        # A compact header (the links behind Menu) and the action bar at the bottom.
        assert page.locator(".site-header").bounding_box()["height"] < 80
        expect(page.locator("#site-nav")).to_be_hidden()
        page.locator(".menu-button").click()
        expect(page.locator("#site-nav a", has_text="Lobby")).to_be_visible()
        page.locator(".menu-button").click()
        bar = page.locator("#action-bar")
        expect(bar).to_contain_text("Your turn")
        box = bar.bounding_box()
        assert abs(box["y"] + box["height"] - PHONE["height"]) < 2
        # A double tap draws the board at its own size: its labels show, and it pans.
        board = page.locator("#board .board-scroll.fit").first
        board.locator("svg.board-svg").dblclick(position={"x": 5, "y": 5})
        expect(board).to_have_class(re.compile(r"\bzoomed\b"))
        expect(page.locator("#board .pan-cue").first).to_be_visible()
        assert not small_text(page)
        assert sideways_scroll(page) == 0
    else:
        expect(page.locator("#action-bar")).to_be_hidden()
