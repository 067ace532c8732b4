"""Each hosted game in a real browser: start against bots, build a few moves on the board,
see the board (SVG) and the history change; then play a match out by typed commands."""

import pytest
from playwright.sync_api import Page, expect

from games.models import Match
from tests.e2e.accounts import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HOSTED = [("nieuwstad", 2), ("new-england", 3), ("blankenburg", 2)]


@pytest.mark.parametrize(("slug", "players"), HOSTED)
def test_a_hosted_game_is_played_by_clicking(page: Page, live_server, screenshots, slug, players):
    page.set_viewport_size({"width": 1280, "height": 1000})
    sign_up(page, live_server.url, f"{slug}@example.com")
    play_now = page.locator(f"form.play-now:has(input[value='{slug}'])")
    if play_now.locator("select[name=players]").count():
        play_now.locator("select[name=players]").select_option(str(players))
    play_now.get_by_role("button", name="Play now against bots").click()
    expect(page.locator("#turn-banner")).to_contain_text("Your turn")
    expect(page.locator("svg").first).to_be_visible()
    page.screenshot(path=str(screenshots / f"{slug}-start.png"), full_page=True)
    match = Match.objects.get(game_slug=slug)
    for _ in range(3):
        before = match.head_seq
        if not page.locator("#builder").count():
            break
        while not page.locator("#confirm").count():
            builder = page.locator("#builder").element_handle()
            page.locator("#board a[data-target]").first.click()
            page.wait_for_function("el => !el.isConnected", arg=builder)
        command = page.locator("#preview").inner_text()
        page.locator("#confirm").click()
        expect(page.locator(".message.success")).to_contain_text(f"Applied: {command}")
        match.refresh_from_db()
        assert match.head_seq > before
        if match.is_over:
            break
    expect(page.locator("#history li").first).to_be_visible()
    page.screenshot(path=str(screenshots / f"{slug}-after.png"), full_page=True)
