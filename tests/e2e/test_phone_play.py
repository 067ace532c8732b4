"""A whole match of each game played by tapping only the game (issue 28), in Chromium at
390 x 844 and 1280 x 800: the places drawn on the board, the pieces beside it (`data-component`:
a character, a card, the bid's coins, the market drawn on the board and the trade's form it
opens) and the Confirm; never a
button of the step panel (#builder). The other seats are bots that move through the service
layer as the player confirms. At every decision: the same document as when the page opened
(no reload: a marker set on `window` stays), a target of the decision in the viewport, nothing
drawn under 12 px, no sideways scroll; axe-core without serious or critical findings at the
start and the end."""

import random

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games import selectors
from games.models import Match
from tests.web.test_trade_form import to_a_trade

from .helpers import (
    PHONE,
    axe_violations,
    play_now,
    sideways_scroll,
    sign_up,
    small_text,
    wait_in_view,
    watch_console,
    with_axe,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
# Two players where the game allows it (New England needs three): the shortest matches.
GAMES = [("nieuwstad", 2), ("new-england", 3), ("blankenburg", 2)]
MARKER = "window.__marker"


def on_the_game(target: str) -> str:
    """The element that takes `target` on the game: a place on the board or a piece beside it."""
    return (
        f'#board svg a[data-target="{target}"], '
        f'#board [data-component] a[data-target="{target}"], '
        f'#board form[data-component] label:has(input[value="{target}"])'
    )


def swapped(page: Page, selector: str, tap) -> None:
    """Tap, then wait until htmx has replaced `selector` (the step panel or the whole match)."""
    old = page.locator(selector).element_handle()
    tap()
    page.wait_for_function("el => !el.isConnected", arg=old)


def tapped(locator) -> None:
    """Tap a piece of the game. Once in a CI run (every core busy) Chromium's check that the
    piece was visible and still did not answer for 30 s: after 15 s the page is shown in the
    log (to tell a stalled browser from a hidden piece) and the tap tried once more, which
    fails as before if the piece cannot be tapped."""
    try:
        locator.click(timeout=15000)
    except PlaywrightTimeoutError:
        page = locator.page
        try:
            box = locator.bounding_box(timeout=5000)
            page.screenshot(path=f"/tmp/tap-waited-{page.url.split('/')[-2]}.png", timeout=5000)
        except PlaywrightError as error:
            box = f"no answer ({error.message.splitlines()[0]})"
        print(f"a tap waited 15 s at {page.url}: the piece at {box}")
        locator.click(timeout=30000)


def overlaps(a: dict, b: dict) -> bool:
    """Whether two boxes on screen (Playwright's bounding boxes) share some area."""
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def tap_until_over(page: Page, match: Match, seat: int, seed: int, limit: int = 2000) -> int:
    """Play the player's every decision by tapping the game: the steps of the move a bot would
    choose (so a match lasts as long as a bot's). Returns the number of taps."""
    game, rng = match.game, random.Random(seed)
    taps = 0
    planned: tuple[int, list[str]] | None = None
    while taps < limit:
        assert page.evaluate(MARKER) == "kept", "the page was reloaded"
        if page.locator("#result-banner").count():
            return taps
        if page.locator("#confirm").count():
            # The Confirm plays the move at once; left alone, the countdown plays it a few
            # seconds later (tested below), which this test has no time to wait for.
            old = page.locator("#match-page").element_handle()
            try:
                page.locator("#confirm").click(timeout=3000)
            except PlaywrightError:
                pass  # the countdown played it first
            page.wait_for_function("el => !el.isConnected", arg=old)
            taps += 1
            planned = None
            continue
        if not page.locator("#builder").count():
            # Nothing to decide now: what the poll would fetch, in place.
            page.wait_for_timeout(100)
            swapped(
                page,
                "#match-page",
                lambda: page.evaluate(
                    "() => htmx.ajax('GET', location.pathname, {target: '#match-page', "
                    "select: '#match-page', swap: 'outerHTML'})"
                ),
            )
            continue
        match.refresh_from_db()
        if planned is None or planned[0] != match.head_seq:
            state = selectors.load_state(match)
            move = game.bot_move(state, seat, rng)
            planned = (match.head_seq, [s.target for s in game.move_steps(state, seat, move)])
        offered = set(
            page.eval_on_selector_all(
                "#board a[data-target], #board form[data-component] input[type=radio]",
                "els => els.map(e => e.dataset.target || e.value)",
            )
        )
        trade = page.locator("#board form.trade").filter(
            has=page.locator(f"input[type=hidden][value='{planned[1][0]}']")
        )
        if trade.count():
            # A trade at the market: the market drawn on the board opens its form over it,
            # then a chip for each of its choices; the last one sends it.
            market = page.locator("#board svg a.market-open")
            market.click()
            expect(trade).to_be_visible()
            # the trades open over the market (where buying and selling are both open, the
            # second form sits under the first)
            trades = page.locator("#market-trades").bounding_box()
            assert overlaps(trades, market.bounding_box()), page.url
            taps += 1
            chips = [trade.locator(f'label:has(input[value="{t}"])') for t in planned[1][1:]]
            chips = [chip for chip in chips if chip.count()]
            for chip in chips[:-1]:
                chip.click()
            swapped(page, "#builder", chips[-1].click)
            taps += len(chips)
            continue
        target = next((t for t in planned[1] if t in offered), "end:as-is")
        wait_in_view(page)  # the decision is in view; the chosen piece may be below
        element = page.locator(on_the_game(target)).first
        assert element.count(), f"{target} is not on the game (offered: {sorted(offered)})"
        # A coin of an amount is a step as a place is: tapped, it is taken.
        swapped(page, "#builder", lambda element=element: tapped(element))
        taps += 1
        if taps % 10 == 0:
            assert not small_text(page), page.url
            assert sideways_scroll(page) == 0, page.url
    raise AssertionError(f"the match did not end within {limit} taps")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_a_whole_match_by_tapping_the_game(
    page: Page, live_server, screenshots, slug, players, size, monkeypatch
):
    # A fixed deal: which decisions come up (a trade, both trades at once) depends on it.
    monkeypatch.setattr("games.services.new_seed", lambda: f"tapping-{slug}-{size['width']}")
    errors = watch_console(page)
    with_axe(page)
    page.set_viewport_size(size)
    sign_up(page, live_server, f"tap-{slug}-{size['width']}@example.com")
    play_now(page, slug, players)
    expect(page.locator("#builder")).to_be_visible()
    page.evaluate(f"{MARKER} = 'kept'")
    assert not small_text(page)
    assert not axe_violations(page)
    match = Match.objects.get(game_slug=slug)
    seat = match.seats.get(user__isnull=False).number
    taps = tap_until_over(page, match, seat, seed=size["width"])
    match.refresh_from_db()
    assert match.status == "finished"
    assert match.moves.filter(source="web").count() > 0
    expect(page.locator("#result-banner")).to_be_visible()
    assert page.evaluate(MARKER) == "kept"
    assert sideways_scroll(page) == 0
    assert not small_text(page)
    assert not axe_violations(page)
    page.screenshot(path=str(screenshots / f"tap-{slug}-{size['width']}-end.png"))
    # The banner's link to the replay: every position, the arrow keys, the score chart.
    page.locator("#result-banner a", has_text="Replay").click()
    expect(page.locator("#replay-position")).to_contain_text("Setup")
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/?n=1")
    expect(page.locator("#replay-board-1 svg").first).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-position")).to_contain_text("After move 2")
    expect(page.locator("#score-chart svg[role=img]")).to_be_visible()
    # The whole chart, the end included, is in its box without panning, labels apart.
    inside = "e => e.scrollWidth <= e.clientWidth"
    assert page.eval_on_selector("#score-chart .board-scroll", inside)
    boxes = [t.bounding_box() for t in page.locator("#score-chart svg[role=img] text").all()]
    ticks = sorted((b for b in boxes if b["y"] == max(b["y"] for b in boxes)), key=lambda b: b["x"])
    assert all(a["x"] + a["width"] < b["x"] for a, b in zip(ticks, ticks[1:], strict=False))
    expect(page.locator("#final-scores")).to_contain_text(" = ")
    assert sideways_scroll(page) == 0
    assert not small_text(page)
    assert not axe_violations(page)  # the replay
    assert not errors, errors
    print(f"{slug} at {size['width']} px: {taps} taps")


def first_move(page: Page, monkeypatch):
    """A New England match against two bots, of a fixed deal, and the steps of a bot's first
    move for the player."""
    monkeypatch.setattr("games.services.new_seed", lambda: "first-move")
    play_now(page, "new-england", 3)
    page.evaluate(f"{MARKER} = 'kept'")
    match = Match.objects.get(game_slug="new-england")
    seat = match.seats.get(user__isnull=False).number
    state = selectors.load_state(match)
    move = match.game.bot_move(state, seat, random.Random(1))
    return match, list(match.game.move_steps(state, seat, move))


def test_a_player_who_skips_the_confirm_plays_a_move_by_its_last_tap(
    page: Page, live_server, monkeypatch
):
    """With the preference set, the tap that completes a move plays it, in place."""
    from django.contrib.auth import get_user_model

    from players.preferences import saved_prefs_for

    page.set_viewport_size(PHONE)
    sign_up(page, live_server, "skip-confirm@example.com")
    prefs = saved_prefs_for(get_user_model().objects.get(email="skip-confirm@example.com"))
    prefs.skip_confirm = True
    prefs.save()
    match, steps = first_move(page, monkeypatch)
    for step in steps:
        if match.moves.filter(source="web").exists():
            break
        target = page.locator(on_the_game(step.target)).first
        if target.count():
            target.click()
        page.wait_for_timeout(300)
    page.wait_for_function("() => !document.querySelector('#confirm-form')")
    assert match.moves.filter(source="web").count() == 1
    assert page.evaluate(MARKER) == "kept"


def test_the_tap_that_completes_a_move_plays_it_after_a_few_seconds_unless_undone(
    page: Page, live_server, monkeypatch
):
    """Without the preference, the completing tap is the last one too: the move is drawn on the
    board and played after the countdown, with no Confirm; Undo in the meantime takes the tap
    back and nothing is played; Wait holds the move for the Confirm."""
    page.set_viewport_size(PHONE)
    sign_up(page, live_server, "undo-window@example.com")
    match, steps = first_move(page, monkeypatch)
    last = None
    for step in steps:
        if page.locator("#confirm-form").count():
            break
        target = page.locator(on_the_game(step.target)).first
        if target.count():
            swapped(page, "#builder", target.click)
            last = step.target
    assert last is not None and page.locator("#confirm-form").count()
    played = match.moves.filter(source="web")

    # Wait: the countdown stops and the move waits for its Confirm.
    expect(page.locator("#action-bar [data-countdown]")).to_contain_text("Played in")
    page.locator("#action-bar [data-wait]").click()
    expect(page.locator("#action-bar [data-countdown]")).to_be_hidden()
    page.wait_for_timeout(6500)
    assert not played.exists() and page.locator("#confirm-form").count()

    # Undo within the countdown: the tap is taken back, nothing is played.
    swapped(page, "#builder", page.locator("#bar-undo").click)
    swapped(page, "#builder", page.locator(on_the_game(last)).first.click)
    expect(page.locator("#builder [data-countdown]")).to_contain_text("Played in")
    swapped(page, "#builder", page.locator("#bar-undo").click)
    page.wait_for_timeout(6500)
    assert not played.exists()

    # Left alone, the completing tap plays the move, in place.
    swapped(page, "#builder", page.locator(on_the_game(last)).first.click)
    page.wait_for_function("() => !document.querySelector('#confirm-form')", timeout=15000)
    assert played.count() == 1
    assert page.evaluate(MARKER) == "kept"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("slug", ["nieuwstad", "blankenburg"])
def test_a_trade_opens_over_the_market_on_the_board(
    page: Page, live_server, screenshots, monkeypatch, slug, size
):
    """On a fixed deal, at the first trade: the trade's form waits out of sight until the
    market drawn on the board is tapped, then opens over it, within the screen's width;
    Escape closes it and gives the focus back to the market, Enter opens it again at its
    first chip; its chips build the move to its Confirm, in place."""
    with_axe(page)
    page.set_viewport_size(size)
    sign_up(page, live_server, f"market-{slug}-{size['width']}@example.com")
    monkeypatch.setattr("games.services.new_seed", lambda: f"market-{slug}")
    play_now(page, slug, 2)
    match = Match.objects.get(game_slug=slug)
    seat = match.seats.get(user__isnull=False).number
    state = to_a_trade(match, seat)
    page.reload()
    page.evaluate(f"{MARKER} = 'kept'")
    trades = page.locator("#market-trades")
    market = page.locator("#board svg a.market-open")
    expect(trades).to_be_hidden()
    wait_in_view(page, "#board svg a.market-open")
    market.click()
    expect(trades).to_be_visible()
    for form in trades.locator("form.trade[data-component=market]").all()[:1]:
        assert overlaps(form.bounding_box(), market.bounding_box())
    box = trades.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
    assert sideways_scroll(page) == 0
    assert not small_text(page)
    assert not axe_violations(page)
    page.screenshot(path=str(screenshots / f"market-{slug}-{size['width']}.png"))
    page.keyboard.press("Escape")
    expect(trades).to_be_hidden()
    assert page.evaluate("() => document.activeElement.matches('a.market-open')")
    page.keyboard.press("Enter")
    expect(trades).to_be_visible()
    assert page.evaluate("() => !!document.activeElement.closest('#market-trades')")
    page.locator("#market-trades [data-trade-close]").click()
    expect(trades).to_be_hidden()
    # The chips of a legal trade, tapped: the move, drawn, waits for its Confirm.
    action = trades.locator("form.trade input[name=s]").first.get_attribute("value")
    game = match.game
    steps = next(
        targets
        for move in game.legal_moves(state, seat)
        if action in (targets := [s.target for s in game.move_steps(state, seat, move)])
    )
    market.click()
    form = trades.locator("form.trade").filter(
        has=page.locator(f"input[type=hidden][value='{action}']")
    )
    chips = [form.locator(f'label:has(input[value="{t}"])') for t in steps]
    chips = [chip for chip in chips if chip.count()]
    for chip in chips[:-1]:
        chip.click()
    swapped(page, "#builder", chips[-1].click)
    assert page.locator("#confirm-form").count()
    assert page.evaluate(MARKER) == "kept"
