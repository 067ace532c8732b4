"""The create form's vacation cap reaches the match (issue 46, item 2: every match has a cap,
a setting at creation): 2 days asked, 2 days kept; blank, the site's default."""

import pytest
from django.test import Client
from django.urls import reverse

from games import vacation_bank
from games.engine import available_games
from games.forms import MatchCreateForm
from games.models import Match
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def create(client, **fields):
    game = next(g for g in available_games() if g.slug == "nieuwstad")
    form = MatchCreateForm(game=game, players=2)
    data = {
        name: field.initial() if callable(field.initial) else field.initial
        for name, field in form.fields.items()
    }
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    data.update(bots=1, **fields)
    return client.post(reverse("match_create") + "?game=nieuwstad&players=2", data)


@pytest.mark.parametrize("asked, kept", [("2", 2), ("0", 0), ("", vacation_bank.default_cap())])
def test_the_cap_chosen_on_the_form_is_the_matchs(asked, kept):
    client = Client()
    client.force_login(make_user("Anna"))
    response = create(client, vacation_cap=asked)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Match.objects.get().vacation_cap == kept
