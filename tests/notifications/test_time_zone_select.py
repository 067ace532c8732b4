"""The preferences page's time zone select: every zone, the player's own one chosen."""

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
