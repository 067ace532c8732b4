"""Shared steps of the browser tests: sign up, start a match against bots, click the board,
and the page checks (console errors, sideways scroll, axe-core)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def with_axe(page: Page) -> None:
    """Load axe-core into every page this tab opens from now on. An init script runs through
    the browser's debugging protocol, so the site's CSP (no inline script) does not stop it."""
    page.add_init_script(path=str(AXE))


def watch_console(page: Page) -> list[str]:
    """Console errors and uncaught exceptions of the page, as they happen."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def sign_up(page: Page, live_server, email: str) -> None:
    """Sign up and follow the mailed confirmation (tests/e2e/accounts.py); ends in the lobby."""
    from .accounts import sign_up as confirmed_sign_up

    confirmed_sign_up(page, live_server.url, email)


def play_now(page: Page, slug: str, players: int) -> None:
    form = page.locator(f"form.play-now:has(input[value='{slug}'])")
    if form.locator("select[name=players]").count():
        form.locator("select[name=players]").select_option(str(players))
    form.get_by_role("button", name="Play now against bots").click()
    expect(page.locator("h1")).to_be_visible()


def sideways_scroll(page: Page) -> int:
    """How many pixels the page is wider than the window (0: no sideways scroll)."""
    return page.evaluate(
        "() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth)"
    )


def wide_tables(page: Page) -> list[str]:
    """Tables wider than the box they sit in (so they scroll sideways inside it), with every
    <details> opened first so folded tables count too. Each entry names the table's first
    header or cell, its width and its box's."""
    return page.evaluate(
        """() => {
          document.querySelectorAll('details').forEach(d => { d.open = true; });
          const found = [];
          for (const table of document.querySelectorAll('table')) {
            const box = table.parentElement;
            if (!table.getClientRects().length) continue;
            if (table.scrollWidth > box.clientWidth + 1) {
              const first = table.querySelector('th, td');
              const name = (first ? first.textContent : '').trim().slice(0, 30);
              const widths = `${table.scrollWidth} > ${box.clientWidth} px`;
              found.push(`${table.className || 'table'} (${name}): ${widths}`);
            }
          }
          return found;
        }"""
    )


def small_text(page: Page, least: float = 12) -> list[str]:
    """Visible text drawn smaller than `least` CSS pixels on screen, SVG labels included: an
    SVG scaled to fit its box shrinks its labels, so a label's size is its font size times the
    scale of its SVG on screen. Each entry names the text, its size and its element."""
    return page.evaluate(
        """(least) => {
          const found = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) {
            const node = walker.currentNode;
            const text = node.textContent.trim();
            const el = node.parentElement;
            if (!text || !el || el.closest('title, desc, script, style, noscript')) continue;
            if (!el.getClientRects().length) continue;
            const style = getComputedStyle(el);
            if (style.visibility === 'hidden' || style.display === 'none') continue;
            let size = parseFloat(style.fontSize);
            if (el instanceof SVGElement) {
              const m = el.getScreenCTM();
              if (m) size *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
            }
            if (size < least - 0.05) {
              const tag = el.tagName.toLowerCase();
              found.push(`${text.slice(0, 30)} at ${size.toFixed(1)} px in <${tag}>`);
            }
          }
          return found;
        }""",
        least,
    )


def axe_violations(page: Page, impacts=("serious", "critical")) -> list[str]:
    """axe-core's violations of the given impacts on the page as it is now (axe is loaded
    into every page by `with_axe`, outside the page's Content-Security-Policy)."""
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in impacts
    ]


# What a player taps to decide (issue 28): a place drawn on the board, a game piece beside it
# (a card, a character, the market, the bid's amount: `data-component`), or the Confirm.
GAME_TARGETS = (
    "#board svg a.target, #board [data-component] a[data-target], "
    "#board form[data-component], #confirm"
)


IN_VIEW = """(selector) => {
  const bar = document.getElementById('action-bar');
  const bottom = innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
  return Array.from(document.querySelectorAll(selector)).some(t => {
    const r = t.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.bottom <= bottom + 1 && r.left >= 0
      && r.right <= innerWidth;
  });
}"""


def targets_in_view(page: Page, selector: str = GAME_TARGETS) -> bool:
    """Whether a target of the current decision is inside the viewport (above the action bar
    that stays at the bottom of a phone's screen)."""
    return page.evaluate(IN_VIEW, selector)


def wait_in_view(page: Page, selector: str = GAME_TARGETS, timeout: float = 3000) -> None:
    """Wait (for the page's own scrolling after a swap) until a target is in view."""
    try:
        page.wait_for_function(IN_VIEW, arg=selector, timeout=timeout)
    except Exception as error:
        raise AssertionError(f"not in view: {selector} at {page.url}") from error


def boards_in_their_box(page: Page) -> list[str]:
    """Drawn boards wider than their box (empty: every board is whole in its box)."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('#board svg.board-svg')).flatMap(svg => {
          const box = svg.parentElement.getBoundingClientRect();
          const r = svg.getBoundingClientRect();
          const inside = r.left >= box.left - 1 && r.right <= box.right + 1;
          return inside ? [] : [`${Math.round(r.width)} px in a ${Math.round(box.width)} px box`];
        })"""
    )
