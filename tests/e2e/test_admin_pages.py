"""The operators' admin in a browser: the match page, its move log and the replay of a
finished match, with the replay's keys; no text under 12 px, no console errors (a missing
favicon is one), no sideways scroll. In German too, whose names of models and fields are the
longest."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from .helpers import DESKTOP, PHONE, sideways_scroll, small_text, watch_console

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_admin_match_pages_and_replay(page: Page, live_server, screenshots):
    from tests.web.test_replay import bot_match

    User = get_user_model()
    player = User.objects.create_user("anna@example.com", "anna@example.com", "pw")
    User.objects.create_user(
        "ops@example.com", "ops@example.com", "correct horse", is_staff=True, is_superuser=True
    )
    match = bot_match(player, "blankenburg", 2)
    errors = watch_console(page)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "ops@example.com")
    page.fill("#id_password", "correct horse")
    page.locator("input[type=submit]").click()
    admin = f"{live_server.url}/admin/games"
    for name, url in (
        ("list", f"{admin}/match/"),
        ("match", f"{admin}/match/{match.pk}/change/"),
        ("moves", f"{admin}/move/?match__id__exact={match.pk}"),
    ):
        page.goto(url)
        page.screenshot(path=str(screenshots / f"admin-{name}.png"), full_page=True)
        icon = page.locator("link[rel=icon]").get_attribute("href")
        assert page.request.get(live_server.url + icon).ok, url  # else /favicon.ico, a 404
        assert not small_text(page), url
        assert sideways_scroll(page) == 0, url
    page.goto(f"{admin}/match/{match.pk}/replay/?n=1")
    expect(page.locator(".board-graphic svg").first).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-position")).to_contain_text("After move 2")
    expect(page.locator("#score-chart svg[role=img]")).to_be_visible()
    expect(page.locator("ol.replay-history li").first).to_have_attribute("value", "2")
    page.wait_for_load_state("load")  # the key's navigation: its stylesheets applied
    assert not small_text(page)  # the boards' tables and labels, the chart's labels too
    page.screenshot(path=str(screenshots / "admin-replay.png"), full_page=True)
    page.set_viewport_size(PHONE)
    for url in (f"{admin}/match/{match.pk}/change/", f"{admin}/match/{match.pk}/replay/"):
        page.goto(url)
        assert not small_text(page), url  # Django's responsive.css shrinks some text again
    page.goto(f"{admin}/match/{match.pk}/replay/?n=2")
    page.locator("#replay-play").click()
    expect(page.locator("#replay-position")).to_contain_text("After move 4", timeout=6000)
    assert not errors, errors


def test_the_admin_in_german(page: Page, live_server, screenshots):
    from players.models import Preferences
    from tests.web.test_replay import bot_match

    User = get_user_model()
    player = User.objects.create_user("anna@example.com", "anna@example.com", "pw")
    ops = User.objects.create_user(
        "ops@example.com", "ops@example.com", "correct horse", is_staff=True, is_superuser=True
    )
    Preferences.objects.create(user=ops, language="de")
    match = bot_match(player, "blankenburg", 2)
    errors = watch_console(page)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "ops@example.com")
    page.fill("#id_password", "correct horse")
    page.locator("input[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("caption", has_text="Turniere")).to_be_visible()  # the index
    admin = f"{live_server.url}/admin/games"
    for name, url, heading in (
        ("list", f"{admin}/match/", "Erstellt am"),
        ("match", f"{admin}/match/{match.pk}/change/", "Plätze"),
        ("moves", f"{admin}/move/?match__id__exact={match.pk}", "Folgenummer"),
    ):
        page.goto(url)
        expect(page.get_by_text(heading, exact=True).first).to_be_visible()
        page.screenshot(path=str(screenshots / f"admin-de-{name}.png"), full_page=True)
        assert not small_text(page), url
        assert sideways_scroll(page) == 0, url
    assert not errors, errors
