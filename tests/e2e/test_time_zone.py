"""The player's time zone comes from the browser: signing up in Tokyo makes deadlines and
times Tokyo's, and the preferences page offers the browser's zone when the saved one
differs (static/js/time_zone.js, under the site's CSP)."""

import pytest
from playwright.sync_api import Browser, expect

from players.models import Preferences

from .accounts import sign_up
from .helpers import watch_console

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_sign_up_takes_the_browsers_zone_and_settings_offer_it_again(browser: Browser, live_server):
    context = browser.new_context(timezone_id="Asia/Tokyo")
    page = context.new_page()
    errors = watch_console(page)
    sign_up(page, live_server.url, "kei@example.com")
    prefs = Preferences.objects.get(user__email="kei@example.com")
    assert prefs.time_zone == "Asia/Tokyo"

    prefs.time_zone = "Europe/Lisbon"  # moved; the browser is still in Tokyo
    prefs.save()
    page.goto(f"{live_server.url}/n/preferences/")
    offer = page.locator("[data-browser-zone-offer]")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("Asia/Tokyo")
    offer.get_by_role("button", name="Use that time zone").click()
    expect(page.locator("#id_time_zone")).to_have_value("Asia/Tokyo")
    page.get_by_role("button", name="Save").click()
    prefs.refresh_from_db()
    assert prefs.time_zone == "Asia/Tokyo"
    page.goto(f"{live_server.url}/n/preferences/")
    expect(page.locator("[data-browser-zone-offer]")).to_be_hidden()  # nothing to offer now
    assert not errors, errors
    context.close()
