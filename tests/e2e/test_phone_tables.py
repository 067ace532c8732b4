"""On a phone (390 px), and in any window narrow enough for one column (up to 800 px),
tables reflow into one card per row, each cell led by its column's name, instead of
scrolling sideways inside their box (issue #11): a match page's players and reference
tables in each game, and the local mailbox's list. On a desktop they stay tables."""

import pytest
from django.core.mail import EmailMessage
from playwright.sync_api import Page, expect

from notifications.mailbox import LocalMailboxBackend

from .helpers import (
    DESKTOP,
    PHONE,
    axe_violations,
    play_now,
    sideways_scroll,
    sign_up,
    small_text,
    wide_tables,
    with_axe,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

GAMES = [("nieuwstad", 4), ("new-england", 4), ("blankenburg", 4)]
NARROW = {"width": 700, "height": 900}  # a tablet or a half-screen window: one column


def first_label(page: Page, table: str) -> list[str]:
    """The first labelled cell of the table: its data-label and what is drawn before it."""
    cell = page.locator(f"{table} td[data-label]").first
    return cell.evaluate("td => [td.dataset.label, getComputedStyle(td, '::before').content]")


@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_a_match_pages_tables_fit_a_phone(page: Page, live_server, slug, players):
    with_axe(page)
    page.set_viewport_size(PHONE)
    sign_up(page, live_server, f"{slug}-tables@example.com")
    play_now(page, slug, players)
    expect(page.locator("#builder")).to_be_visible()
    assert page.locator("#board table").count() >= 2  # the players and the reference
    assert not wide_tables(page)  # the reference's <details> opened too
    assert sideways_scroll(page) == 0
    assert not small_text(page)
    assert not axe_violations(page)
    label, before = first_label(page, "#board table.reflow")
    assert label and label in before, (label, before)
    # A narrow window is one column too: its tables reflow as on a phone.
    page.set_viewport_size(NARROW)
    assert not wide_tables(page)
    assert sideways_scroll(page) == 0
    # A desktop keeps the header row and draws no labels.
    page.set_viewport_size(DESKTOP)
    expect(page.locator("#board table.reflow thead").first).to_be_visible()
    assert first_label(page, "#board table.reflow")[1] == "none"


def test_the_local_mailbox_list_fits_a_phone(page: Page, live_server, settings, tmp_path):
    settings.DEBUG = True
    settings.LOCAL_MAILBOX_OPEN = True
    settings.LOCAL_MAILBOX_DIR = tmp_path / "mailbox"
    LocalMailboxBackend().send_messages(
        [
            EmailMessage(
                f"Nieuwstad #{n}: your turn (round 3, choose a character)",
                "Your turn in Nieuwstad: reply with your move above the quoted text.",
                "PBM <noreply@example.com>",
                [f"a-rather-long-address-{n}@players.example.com"],
            )
            for n in range(3)
        ]
    )
    with_axe(page)
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + "/n/mailbox/")
    expect(page.locator("table.reflow tbody tr")).to_have_count(3)
    assert not wide_tables(page)
    assert sideways_scroll(page) == 0
    assert not small_text(page)
    assert not axe_violations(page)
    assert first_label(page, "table.reflow") == ["Date", '"Date: "']


def test_the_tokens_page_fits_a_phone(page: Page, live_server):
    """Its scope menu's long options once widened the page to 621 px."""
    page.set_viewport_size(PHONE)
    sign_up(page, live_server, "tokens@example.com")
    page.goto(live_server.url + "/account/tokens/")
    expect(page.locator("select[name=scope]")).to_be_visible()
    assert sideways_scroll(page) == 0
    assert not wide_tables(page)


@pytest.mark.parametrize(
    ("slug", "players"), [("nieuwstad", 4), ("blankenburg", 6), ("new-england", 4)]
)
def test_on_a_desktop_a_match_pages_tables_fit_their_box(page: Page, live_server, slug, players):
    """At 1280 px every table of a match page is whole in its box, at the game's largest
    table: Nieuwstad's fifteen holdings per player once scrolled 1,031 px in a 714 px box."""
    page.set_viewport_size(DESKTOP)
    sign_up(page, live_server, f"{slug}-{players}-desktop@example.com")
    play_now(page, slug, players)
    expect(page.locator("#builder")).to_be_visible()
    assert not wide_tables(page)
    assert sideways_scroll(page) == 0
