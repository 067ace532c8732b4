"""The fitted board is read on a phone (issue 41, item 5): at 390 px wide, every text the
board shows without zooming is at least 11 CSS px tall on screen (its font size times the
scale its SVG is drawn at), and the board still says what matters there: its labels are not
all hidden away for the zoom."""

from statistics import median

import pytest
from playwright.sync_api import Page, expect

from .helpers import PHONE, play_now, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

GAMES = [("nieuwstad", 2), ("new-england", 3), ("blankenburg", 2)]
LEAST = 11


def board_text(page: Page) -> list[dict]:
    """Each text of the fitted board: its words, its height on screen (the glyphs' box, and
    the font size times the SVG's scale), and whether it shows."""
    return page.evaluate(
        """() => {
          const out = [];
          for (const svg of document.querySelectorAll('#board .board-scroll.fit svg.board-svg')) {
            const m = svg.getScreenCTM();
            const scale = m ? Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) : 1;
            for (const t of svg.querySelectorAll('text')) {
              const words = t.textContent.trim();
              if (!words) continue;
              const style = getComputedStyle(t);
              const shown = style.display !== 'none' && style.visibility !== 'hidden'
                && t.getClientRects().length > 0;
              out.push({
                words: words.slice(0, 30),
                size: parseFloat(style.fontSize) * scale,
                height: t.getBoundingClientRect().height,
                shown,
              });
            }
          }
          return out;
        }"""
    )


@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_the_fitted_boards_text_is_readable_on_a_phone(
    page: Page, live_server, screenshots, slug, players
):
    page.set_viewport_size(PHONE)
    sign_up(page, live_server, f"read-{slug}@example.com")
    play_now(page, slug, players)
    expect(page.locator("#board svg.board-svg").first).to_be_visible()
    page.wait_for_function("() => document.querySelector('#board .board-scroll.fit')")
    texts = board_text(page)
    shown = [t for t in texts if t["shown"]]
    page.locator("#board .board-scroll.fit").first.screenshot(
        path=str(screenshots / f"phone-text-{slug}.png")
    )
    print(
        slug,
        f"{len(shown)} of {len(texts)} texts shown;",
        f"median {median(t['size'] for t in shown):.1f} px," if shown else "",
        f"smallest {min(t['size'] for t in shown):.1f} px" if shown else "",
        f"(all, hidden included: median {median(t['size'] for t in texts):.1f} px)",
    )
    assert shown, f"{slug}: the fitted board shows no text at all"
    small = [f"{t['words']}: {t['size']:.1f} px" for t in shown if t["size"] < LEAST - 0.05]
    assert small == [], f"{slug}: {small[:10]}"
    # Most of what the board names is said on it, not only behind the zoom.
    assert len(shown) >= len(texts) / 2, f"{slug}: {len(shown)} of {len(texts)} texts shown"
