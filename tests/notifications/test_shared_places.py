"""A full tie is a shared place everywhere a result is shown: the match page, the end email
(first line, text and HTML), the admin and the export (issue 12, item 3)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import Result, register, shared_groups
from games.selectors import export_match, load_state
from tests.sealed_cards import SealedCards

from .conftest import headline, send_all, start_match, to

pytestmark = pytest.mark.django_db


class EvenCards(SealedCards):
    """Sealed Cards where nobody scores: every seat shares first place."""

    slug = "even-cards"

    def result(self, state):
        result = super().result(state)
        if result is None:
            return None
        ranking = list(range(len(state["names"])))
        return Result(
            scores=[0] * len(ranking),
            ranking=ranking,
            notes=["Nobody scored: the places are shared."],
            shared=shared_groups(ranking, lambda a, b: True),
        )


@pytest.fixture(autouse=True)
def registered():
    from games.engine import registry

    register(EvenCards())
    yield
    del registry._games["even-cards"]


def _play_out(match):
    match.refresh_from_db()
    while match.status == "active":
        state = load_state(match)
        seat = match.to_act[0]
        move = match.game.default_move(state, seat)
        services.submit_move(match_id=match.pk, seat=seat, move=move, source="web")
        match.refresh_from_db()


def test_a_full_tie_is_shown_as_a_shared_place_everywhere(anna, ben):
    match = start_match(anna, ben, game_slug="even-cards")
    send_all()
    _play_out(match)
    assert match.result["shared"] == [[0, 1]]

    end = next(m for m in to(send_all(), "anna@") if headline(m).startswith("Game over"))
    assert "Anna and Ben share first place" in headline(end) or (
        "Ben and Anna share first place" in headline(end)
    )
    assert "wins" not in headline(end)
    assert end.body.count("  1. ") == 2 and "(shared place)" in end.body
    assert "(shared place)" in end.alternatives[0][0]

    client = Client()
    client.force_login(anna)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    ranking = page[page.index('<ol class="ranking">') :].split("</ol>")[0]
    assert ranking.count('<li value="1">') == 2 and ranking.count("(shared place)") == 2

    staff = User.objects.create_user("ops", "ops@example.com", "pw", is_staff=True)
    staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    admin_page = client.get(reverse("admin:games_match_change", args=[match.pk])).content
    assert "(shared place)" in admin_page.decode()

    assert export_match(match)["result"]["shared"] == [[0, 1]]


def test_a_resigned_player_leaves_the_shared_place(anna, ben):
    from games.services import _with_resignations

    class FakeSeat:
        def __init__(self, number, resigned):
            self.number, self.resigned, self.name = number, resigned, f"S{number}"

    result = {"ranking": [0, 1, 2], "shared": [[0, 1, 2]], "notes": []}
    seats = [FakeSeat(0, False), FakeSeat(1, True), FakeSeat(2, False)]
    result = _with_resignations(result, seats)
    assert result["ranking"] == [0, 2, 1] and result["shared"] == [[0, 2]]
