"""A session opened by a match's email link may open that match only (players.match_links):
its header offers no Lobby, Settings or Log out that would then ask for a sign-in (issue 28),
only a way to sign in for the rest; a real sign-in keeps the whole header."""

import pytest
from django.test import Client

from games import services
from players import match_links
from tests.web.conftest import logged_in

pytestmark = pytest.mark.django_db


def test_a_match_link_session_has_a_header_for_that_match_only(anna):
    match = services.create_match(creator=anna, game_slug="nieuwstad", players=2, bots=1)
    query = match_links.match_link_query(anna, match.pk)
    client = Client()
    answer = client.post(f"/matches/{match.pk}/link/", {"sesame": query.split("=", 1)[1]})
    assert answer.status_code == 302
    page = client.get(f"/matches/{match.pk}/").content.decode()
    header = page.split("</header>")[0]
    for link in ("Lobby", "Settings", "Log out", "New match"):
        assert f">{link}<" not in header, link
    assert "Sign in for the rest of the site" in header
    whole = logged_in(anna).get(f"/matches/{match.pk}/").content.decode().split("</header>")[0]
    assert ">Lobby<" in whole and ">Log out<" in whole and 'id="menu-toggle"' in whole
