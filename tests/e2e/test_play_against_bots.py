"""A person signs up, starts a match against bots and plays by clicking."""

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.accounts import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_sign_up_play_now_and_move_by_clicking(page: Page, live_server, screenshots):
    page.set_viewport_size({"width": 1200, "height": 900})
    sign_up(page, live_server.url, "player@example.com")

    play_now = page.locator("form.play-now:has(input[value='sealed-cards'])")
    play_now.get_by_role("button", name="Play now against bots").click()
    expect(page.locator("h1")).to_contain_text("Sealed Cards")
    expect(page.locator("#turn-banner")).to_contain_text("Your turn")
    expect(page.locator("#text-board")).to_contain_text("Trick 1 of 3")
    history = page.locator("#history li")
    before = history.count()
    page.screenshot(path=str(screenshots / "match-before.png"), full_page=True)

    page.locator("#builder a[data-target]").first.click()
    command = page.locator("#preview").inner_text()
    page.locator("#confirm").click()
    expect(page.locator(".message.success")).to_contain_text(f"Applied: {command}")
    expect(page.locator("#text-board")).to_contain_text("Trick 2 of 3")
    assert history.count() > before
    expect(page.locator("#history")).to_contain_text(f"played {command.split()[-1]}")
    page.screenshot(path=str(screenshots / "match-after.png"), full_page=True)

    page.get_by_role("link", name="Lobby").click()
    expect(page.locator("#my-matches")).to_contain_text("Sealed Cards")
    page.screenshot(path=str(screenshots / "lobby.png"), full_page=True)
