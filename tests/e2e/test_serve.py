"""The README's first command, as a newcomer runs it: `manage.py serve` on the embedded
defaults (SQLite, worker and beat in the process, local mailbox). Sign up, play against
bots, read the turn email in the local mailbox and answer it there: the reply is a move."""

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.accounts import confirm, fill_signup
from tests.e2e.helpers import DESKTOP, PHONE, sideways_scroll, small_text

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env["PBM_VAR_DIR"] = str(tmp_path)
    env["PYTHONUNBUFFERED"] = "1"  # the log says how far serve got if it never answers
    # The newcomer reads the turn email straight after leaving the match page, where live
    # play would hold it for minutes (docs/notifications.md, "Live play is quiet").
    env["LIVE_PLAY_SEEN_WITHIN"] = "0"
    log = open(tmp_path / "serve.log", "w")
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    # serve migrates a fresh SQLite database first: a minute or two on a loaded machine.
    deadline = time.monotonic() + 300
    try:
        while True:
            try:
                urllib.request.urlopen(url + "/", timeout=5)
                break
            except OSError:
                assert process.poll() is None, (tmp_path / "serve.log").read_text()
                if time.monotonic() > deadline:
                    pytest.fail("serve did not answer: " + (tmp_path / "serve.log").read_text())
                time.sleep(0.5)
        yield url
    finally:
        process.terminate()
        process.wait(20)
        log.close()


def test_serve_plays_against_bots_and_by_local_mailbox(page: Page, served, screenshots):
    fill_signup(page, served, "newcomer@example.com")
    # The confirmation is in the local mailbox, open to visitors of a loopback-only server.
    page.get_by_role("link", name="local mailbox").click()
    page.locator("a:has-text('Confirm your address')").first.click()
    link = re.search(r"https?://\S+", page.locator("pre").first.inner_text()).group(0)
    confirm(page, served, link)
    page.locator("form.play-now:has(input[value='blankenburg'])").get_by_role(
        "button", name="Play now against bots"
    ).click()
    expect(page.locator("#turn-banner")).to_contain_text("Your turn")
    match_url = page.url

    # The worker thread inside `serve` delivers the turn email to the local mailbox.
    page.goto(served + "/n/mailbox/")
    turn = page.locator("a:has-text('Your turn')").first
    for _ in range(40):
        if turn.count():
            break
        time.sleep(0.5)
        page.reload()
    expect(turn).to_be_visible()
    # On a phone the list and the mail (long links, the folder's path) stay in the window.
    page.set_viewport_size(PHONE)
    assert sideways_scroll(page) == 0
    assert not small_text(page)
    turn.click()
    expect(page.locator("pre").first).to_contain_text("How to reply")
    assert sideways_scroll(page) == 0
    assert not small_text(page)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(screenshots / "serve-mailbox-turn.png"), full_page=True)
    page.fill("textarea[name=body]", "1")
    page.click("button:has-text('Send reply')")

    # The reply went through the inbound path and became a move by email.
    page.goto(match_url)
    history = page.locator("#history")
    for _ in range(40):
        if "email" in history.inner_text():
            break
        time.sleep(0.5)
        page.reload()
    expect(history).to_contain_text("email")
    page.screenshot(path=str(screenshots / "serve-after-reply.png"), full_page=True)
