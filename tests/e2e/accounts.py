"""Signing up in the browser: fill the form, then follow the confirmation link mailed to
the address (the live server's mail is in django.core.mail.outbox; `serve` keeps it in the
local mailbox)."""

import re

from django.core import mail
from playwright.sync_api import Page, expect

PASSWORD = "a long enough password"


def fill_signup(page: Page, base_url: str, email: str) -> None:
    page.goto(base_url + "/signup/")
    page.fill("input[name=email]", email)
    page.fill("input[name=display_name]", email.split("@")[0].title())
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=password_again]", PASSWORD)
    page.click("button[type=submit]:has-text('Create my account')")
    expect(page.locator("h1")).to_contain_text("Check your mail")


def confirm(page: Page, base_url: str, link: str) -> None:
    """Open the mailed link on this server (SITE_URL may name another port)."""
    page.goto(base_url + "/" + link.split("/", 3)[3])
    page.get_by_role("button", name="Confirm and log me in").click()
    expect(page).to_have_url(base_url + "/lobby/")


def sign_up(page: Page, base_url: str, email: str) -> None:
    """On a live_server: the confirmation is in this process's mail outbox."""
    fill_signup(page, base_url, email)
    [message] = [m for m in mail.outbox if m.to == [email]]
    link = re.search(r"https?://\S+", message.body).group(0)
    confirm(page, base_url, link)
