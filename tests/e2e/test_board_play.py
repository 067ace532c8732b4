"""The board on a desktop and New England's parcels on a phone. A whole match of each game played
by tapping is tests/e2e/test_phone_play.py."""

import pytest
from playwright.sync_api import Page, expect

from games.models import Match

from .helpers import (
    DESKTOP,
    PHONE,
    axe_violations,
    play_now,
    sideways_scroll,
    sign_up,
    watch_console,
    with_axe,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The player counts that play fastest.
GAMES = [("nieuwstad", 2), ("new-england", 3), ("blankenburg", 2)]


@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_on_a_desktop_the_whole_board_is_in_its_box(page: Page, live_server, slug, players):
    """At 1280 px nothing of a board is cut off in its box (on a phone it pans)."""
    page.set_viewport_size(DESKTOP)
    sign_up(page, live_server, f"{slug}-whole@example.com")
    play_now(page, slug, players)
    boxes = page.locator("#board .board-scroll")
    assert boxes.count() > 0
    widths = "e => [e.scrollWidth, e.clientWidth]"
    for box in boxes.all():
        content, shown = box.evaluate(widths)
        assert content <= shown, f"{slug}: {content} px of board in a {shown} px box"


def test_new_england_parcels_toggle_by_clicking_and_the_move_is_previewed(
    page: Page, live_server, screenshots
):
    """On a phone: a picked parcel tapped again is taken out; once the move is complete the
    board shows its result before Confirm, with no serious accessibility violation."""
    import random

    from games import builder, selectors, services

    errors = watch_console(page)
    with_axe(page)
    page.set_viewport_size(PHONE)
    sign_up(page, live_server, "parcels@example.com")
    develop = []
    for attempt in range(3):  # a match may end before such a development comes up: another
        if attempt:
            page.goto(f"{live_server.url}/lobby/")
        play_now(page, "new-england", 3)
        match = Match.objects.filter(game_slug="new-england").latest("pk")
        seat = match.seats.get(user__isnull=False).number
        game, rng = match.game, random.Random(5 + attempt)
        for _ in range(300):  # the seat's bot plays on until a development of 2+ parcels is legal
            match.refresh_from_db()
            if match.status != "active":
                break
            state = selectors.load_state(match)
            develop = [  # a card whose parcels are still to be chosen once it is clicked
                m
                for m in game.legal_moves(state, seat)
                if m["type"] == "buy_card"
                and len(m.get("cells", ())) >= 2
                and builder.build(game, state, seat, [f"slot:{m['slot']}"]).move is None
            ]
            if develop:
                break
            move = game.bot_move(state, seat, rng)
            services.submit_move(match_id=match.pk, seat=seat, move=move, source="web")
        if develop:
            break
    move = develop[0]
    page.reload()

    def tap(selector: str) -> None:
        """Tap and wait for htmx to swap the board (its old targets are gone)."""
        builder = page.locator("#builder").element_handle()
        page.locator(selector).first.click()
        page.wait_for_function("el => !el.isConnected", arg=builder)

    tap(f'#board a[data-target="slot:{move["slot"]}"]')
    parcel = f"cell:{move['cells'][-1]}"
    tap(f'#board a[data-target="{parcel}"]')
    tap(f'#board a.deselect[data-deselect="{parcel}"]')  # tapped again: taken out
    expect(page.locator(f'#board a.deselect[data-deselect="{parcel}"]')).to_have_count(0)
    tap(f'#board a[data-target="{parcel}"]')  # and picked once more
    for cell in move["cells"]:
        if page.locator("#confirm").count():
            break
        if page.locator(f'#board a[data-target="cell:{cell}"]').count():
            tap(f'#board a[data-target="cell:{cell}"]')
    expect(page.locator("#confirm")).to_be_visible()
    expect(page.locator("#preview-board")).to_be_visible()
    page.screenshot(path=str(screenshots / "new-england-390-preview.png"), full_page=True)
    assert sideways_scroll(page) == 0
    assert not axe_violations(page)
    assert not errors, errors
