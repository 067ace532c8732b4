"""A round's channel message names everyone not seated: the bye and those the tables could
not seat (Round.sat_out, issue 40)."""

import pytest
from django.contrib.auth.models import User

from community.names import public_name
from tests.factories import make_user
from tournaments import hooks, services
from tournaments.models import Round, TournamentHook

from .test_awkward_counts import new_england

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_draw_names_the_bye_and_who_sits_out(client):
    t = new_england(client, format="knockout", table_size=4, max_players=6)
    TournamentHook.objects.create(
        tournament=t, url="https://127.0.0.1:9/h", kind="json", added_by=t.organiser
    )
    for n in range(6):
        services.join(t, make_user(f"Cup{n}"))
    first = Round.objects.get(tournament=t, number=1)
    assert first.bye_id and len(first.sat_out) == 1
    (row,) = hooks.rows_for_round(t, first)
    text = row.context["text"]
    assert f"{public_name(first.bye)} has the bye." in text
    out = public_name(User.objects.get(pk=first.sat_out[0]))
    assert f"{out} sits this round out." in text
    assert text.count(out) == 1
