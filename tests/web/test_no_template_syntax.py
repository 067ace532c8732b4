"""No template syntax reaches a page: a Django comment written over two lines (`{# … #}`
only spans one) once showed its text above Nieuwstad's players table."""

import re

import pytest
from django.urls import reverse

from games import services
from tests.web.conftest import logged_in

pytestmark = pytest.mark.django_db

DATA_ISLANDS = re.compile(r"<script[^>]*type=\"application/json\"[^>]*>.*?</script>", re.S)
SYNTAX = ("{#", "#}", "{%", "%}", "{{", "}}")


def leaked(page: str) -> list[str]:
    text = DATA_ISLANDS.sub("", page)  # JSON's nested objects close with "}}"
    return [
        f"{mark!r} in …{text[max(i - 80, 0) : i + 80]}…"
        for mark in SYNTAX
        if (i := text.find(mark)) >= 0
    ]


@pytest.mark.parametrize("game", ["nieuwstad", "new-england", "blankenburg", "sealed-cards"])
def test_match_pages_show_no_template_syntax(game, anna, client):
    players = {"nieuwstad": 4, "new-england": 4, "blankenburg": 6, "sealed-cards": 2}[game]
    match = services.create_match(
        creator=anna, game_slug=game, players=players, bots=players - 1, watchable=True
    )
    for viewer in (logged_in(anna), client):
        for name in ("match_detail", "match_replay"):
            response = viewer.get(reverse(name, args=[match.pk]))
            assert response.status_code == 200
            assert not leaked(response.content.decode())
