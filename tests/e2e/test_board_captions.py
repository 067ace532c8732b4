"""Every caption of a board inside its box (issue 28, item 6), in Chromium at 390 x 844 and
1280 x 800: for each game, at several positions of a match of a fixed deal, each `<text>` of the
drawn board lies inside the topmost shape drawn under its middle (a space, a building, a card,
a track's box...), or inside the board when none is. The board is zoomed to its own size first,
where its labels are shown (fitted smaller than that, they wait for the zoom)."""

import pytest
from playwright.sync_api import Page, expect

from games.models import Match

from .helpers import PHONE, play_now, sign_up
from .test_screenshots import advance

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
GAMES = [("nieuwstad", 3), ("new-england", 3), ("blankenburg", 3)]

# Each text's box: the topmost shape drawn under the middle of the text (the last in the
# document; one much smaller than the text, a seal or a dot, is not a box), else the board.
# Returns the captions that leave their box, by more than half a pixel.
OUTSIDE = """(svg) => {
  const shapes = Array.from(svg.querySelectorAll('rect, ellipse, circle, polygon'))
    .map(s => s.getBoundingClientRect()).filter(r => r.width > 0 && r.height > 0);
  const board = svg.getBoundingClientRect();
  const out = [];
  for (const text of svg.querySelectorAll('text')) {
    const t = text.getBoundingClientRect();
    if (!t.width || !text.textContent.trim()) continue;
    const mx = t.left + t.width / 2, my = t.top + t.height / 2;
    const under = shapes.filter(r => r.left <= mx && mx <= r.right && r.top <= my && my <= r.bottom
      && r.width * r.height > t.width * t.height / 4);
    const box = under.length ? under[under.length - 1] : board;
    if (t.left < box.left - .5 || t.right > box.right + .5 || t.top < box.top - .5
        || t.bottom > box.bottom + .5) {
      out.push(`"${text.textContent.trim()}" [${Math.round(t.left)}-${Math.round(t.right)} x `
        + `${Math.round(t.top)}-${Math.round(t.bottom)}] outside [${Math.round(box.left)}-`
        + `${Math.round(box.right)} x ${Math.round(box.top)}-${Math.round(box.bottom)}]`);
    }
  }
  return out;
}"""


def captions_outside(page: Page) -> list[str]:
    found = []
    for svg in page.locator("#board svg.board-svg").all():
        found += svg.evaluate(OUTSIDE)
    return found


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_every_caption_is_inside_its_box(page: Page, live_server, monkeypatch, slug, players, size):
    monkeypatch.setattr("games.services.new_seed", lambda: f"captions-{slug}")
    page.set_viewport_size(size)
    sign_up(page, live_server, f"captions-{slug}-{size['width']}@example.com")
    play_now(page, slug, players)
    match = Match.objects.get(game_slug=slug)
    seat = match.seats.get(user__isnull=False).number
    outside: dict[int, list[str]] = {}
    for _position in range(6):
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        expect(page.locator("#board svg.board-svg").first).to_be_visible()
        # Zoomed to its own size, where the labels show (a double tap).
        for scroll in page.locator("#board .board-scroll.small-labels").all():
            scroll.locator("svg.board-svg").dblclick()
        found = captions_outside(page)
        if found:
            outside[match.head_seq] = found
        advance(match, seat, 8)
        match.refresh_from_db()
        if match.is_over:
            break
    assert not outside, outside


MARKS = """(svg) => Array.from(svg.querySelectorAll('text.mark')).map(text => {
  const t = text.getBoundingClientRect();
  const size = parseFloat(getComputedStyle(text).fontSize) * svg.getScreenCTM().a;
  const mx = t.left + t.width / 2, my = t.top + t.height / 2;
  const box = Array.from(svg.querySelectorAll('rect')).map(r => r.getBoundingClientRect())
    .filter(r => r.width > 20 && r.left <= mx && mx <= r.right && r.top <= my && my <= r.bottom)
    .pop();
  const inside = !!box && t.left >= box.left - .5 && t.right <= box.right + .5
    && t.top >= box.top - .5 && t.bottom <= box.bottom + .5;
  return {text: text.textContent.trim(), shown: t.width > 0, size, inside};
})"""


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("slug", ["nieuwstad", "blankenburg"])
def test_buildings_are_marked_on_the_fitted_board(
    page: Page, live_server, screenshots, monkeypatch, slug, size
):
    """Fitted under its own size (a phone), the board marks each building with a code of
    three letters at most, at 12 px or more, inside the building, and the legend under the
    board names every mark; zoomed, the full names show and the marks and the legend go."""
    monkeypatch.setattr("games.services.new_seed", lambda: f"captions-{slug}")
    page.set_viewport_size(size)
    sign_up(page, live_server, f"marks-{slug}-{size['width']}@example.com")
    play_now(page, slug, 3)
    match = Match.objects.get(game_slug=slug)
    advance(match, match.seats.get(user__isnull=False).number, 8)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    svg = page.locator("#board svg.board-svg").first
    expect(svg).to_be_visible()
    legend = page.locator("#board .mark-legend").first
    marks = svg.evaluate(MARKS)
    assert marks, "no building on the board"
    fitted = page.locator("#board .board-scroll.small-labels").count() > 0
    assert fitted == (size == PHONE)
    if fitted:
        assert all(m["shown"] and m["size"] >= 11.95 and m["inside"] for m in marks), marks
        assert all(1 <= len(m["text"]) <= 3 for m in marks)
        expect(legend).to_be_visible()
        assert all(m["text"] in legend.inner_text() for m in marks)
        svg.screenshot(path=str(screenshots / f"marks-{slug}-390.png"))
        svg.dblclick()
    assert not any(m["shown"] for m in svg.evaluate(MARKS))
    expect(legend).to_be_hidden()
    expect(svg.locator("text:not(.mark)").first).to_be_visible()
