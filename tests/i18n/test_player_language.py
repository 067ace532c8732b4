"""A player's language: offered from the browser's at sign-up, changed on the settings page
or with the language switcher; the pages follow the signed-in player, else the browser."""

import pytest
from django.test import Client
from django.urls import reverse

from players.models import Preferences
from tests.web.conftest import PASSWORD, logged_in, make_user

pytestmark = pytest.mark.django_db


def language_of_page(client: Client, url: str = "/", **headers) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200
    return response["Content-Language"]


def test_without_a_choice_pages_follow_the_browser():
    client = Client()
    assert language_of_page(client) == "en"  # no Accept-Language: English, the default
    assert language_of_page(client, accept_language="de-DE,de;q=0.9,en;q=0.5") == "de"
    assert language_of_page(client, accept_language="nl-BE") == "nl"
    assert language_of_page(client, accept_language="es-ES") == "en"  # not ours
    player = make_user("dora@example.com")
    assert language_of_page(logged_in(player), "/lobby/", accept_language="fr-FR") == "fr"


def test_a_signed_in_player_s_choice_wins_over_the_browser():
    player = make_user("dora@example.com")
    Preferences.objects.create(user=player, language="fr")
    client = logged_in(player)
    assert language_of_page(client, "/lobby/", accept_language="de") == "fr"
    assert language_of_page(client, "/archive/", accept_language="nl") == "fr"
    client.post(reverse("logout"))
    assert language_of_page(client, accept_language="de") == "de"


def test_sign_up_offers_the_browser_s_language_and_keeps_the_choice():
    client = Client(headers={"accept-language": "nl-NL,nl;q=0.9"})
    form = client.get(reverse("signup")).context["form"]
    assert form["language"].value() == "nl"
    fields = {"display_name": "Dora", "password": PASSWORD, "password_again": PASSWORD}
    client.post(reverse("signup"), {"email": "dora@example.com", "language": "de", **fields})
    assert Preferences.objects.get(user__email="dora@example.com").language == "de"
    # A form posted without the field (an old page) keeps the browser's.
    client.post(reverse("signup"), {"email": "eva@example.com", **fields})
    assert Preferences.objects.get(user__email="eva@example.com").language == "nl"


def test_the_settings_page_changes_the_language_of_the_next_pages():
    player = make_user("dora@example.com")
    client = logged_in(player)
    url = reverse("notifications:preferences")
    form = client.get(url).context["form"]
    data = {name: form[name].value() or "" for name in form.fields}
    data.update(mode="every", digest_hour=8, action="save", language="de")
    response = client.post(url, data, headers={"accept-language": "fr"})
    assert response.status_code == 302
    assert Preferences.objects.get(user=player).language == "de"
    assert language_of_page(client, "/lobby/", accept_language="fr") == "de"
    data["language"] = ""  # back to the browser's
    client.post(url, data)
    assert language_of_page(client, "/lobby/", accept_language="fr") == "fr"


def test_the_switcher_sets_a_visitor_s_cookie_and_a_player_s_preference():
    visitor = Client()
    visitor.post(reverse("set_language"), {"language": "nl", "next": "/"})
    assert language_of_page(visitor, accept_language="de") == "nl"
    player = make_user("dora@example.com")
    client = logged_in(player)
    response = client.post(reverse("set_language"), {"language": "fr", "next": "/lobby/"})
    assert response.status_code == 302
    assert Preferences.objects.get(user=player).language == "fr"
    assert language_of_page(client, "/lobby/", accept_language="de") == "fr"
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert Preferences.objects.get(user=player).language == "fr"  # not one of ours
