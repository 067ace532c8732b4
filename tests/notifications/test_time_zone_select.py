"""The preferences page's time zone select: the canonical zones grouped by region, the
player's own one chosen; the zone a browser sends at sign-up."""

import pytest
from django.urls import reverse

from notifications.forms import PreferencesForm
from players.models import Preferences
from players.preferences import time_zone_choices

pytestmark = pytest.mark.django_db


def test_the_page_lists_every_zone_with_the_players_own_chosen(client, anna):
    Preferences.objects.create(user=anna, time_zone="Europe/Paris")
    client.force_login(anna)
    page = client.get(reverse("notifications:preferences")).content.decode()
    assert page.count("<option") >= len(time_zone_choices())
    assert '<option value="Europe/Paris" selected>' in page
    assert '<select id="id_time_zone" name="time_zone">' in page


def test_only_the_chosen_zone_is_selected():
    html = str(PreferencesForm(instance=Preferences(time_zone="Asia/Tokyo"))["time_zone"])
    assert html.count("selected") == 1
    assert '<option value="Asia/Tokyo" selected>' in html
    assert html.count("<option") == len(time_zone_choices())


def test_the_select_groups_canonical_zones_by_region_and_leaves_out_aliases():
    html = str(PreferencesForm(instance=Preferences(time_zone="UTC"))["time_zone"])
    assert '<optgroup label="Europe">' in html and '<optgroup label="America">' in html
    assert (
        '<option value="America/Argentina/Buenos_Aires">Argentina / Buenos Aires</option>' in html
    )
    for alias in ("US/Eastern", "W-SU", "Zulu", "localtime", "Etc/GMT+1", "posixrules"):
        assert f'value="{alias}"' not in html, alias
    assert '<option value="UTC" selected>UTC</option>' in html


def test_a_zone_saved_before_that_is_not_listed_stays_chosen(client, anna):
    Preferences.objects.create(user=anna, time_zone="US/Eastern")
    html = str(PreferencesForm(instance=Preferences.objects.get(user=anna))["time_zone"])
    assert html.count("selected") == 1 and '<option value="US/Eastern" selected>' in html


def test_sign_up_keeps_the_zone_the_browser_sent(client):
    from django.contrib.auth import get_user_model

    for email, zone, kept in (
        ("tokyo@example.com", "Asia/Tokyo", "Asia/Tokyo"),
        ("nowhere@example.com", "Mars/Olympus", "UTC"),  # not a zone: the default stays
    ):
        client.post(
            reverse("signup"),
            {
                "email": email,
                "display_name": "Kei",
                "password": "a long enough password",
                "password_again": "a long enough password",
                "time_zone": zone,
            },
        )
        user = get_user_model().objects.get(email=email)
        prefs = Preferences.objects.filter(user=user).first()
        assert (prefs.time_zone if prefs else "UTC") == kept
