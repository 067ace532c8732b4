"""Refusals are kept and compared in English (marked with gettext_noop where they are made)
and said in the reader's language: on the page, in the API's message, in an answer mail."""

import pytest
from django.utils import translation

from games import services
from games.services import MoveResult, Outcome


def test_a_refusal_is_said_in_the_active_language():
    refused = MoveResult(Outcome.REFUSED, services.NOT_YOUR_TURN)
    assert refused.headline() == "Not applied: It is not your turn."
    with translation.override("de"):
        assert refused.headline() == "Nicht ausgeführt: Du bist nicht dran."
    with translation.override("fr"):
        assert MoveResult(Outcome.MOVED_ON).headline().startswith("Non appliqué : la partie")
    with translation.override("nl"):
        assert MoveResult(Outcome.APPLIED, worded="pass").headline() == "Verwerkt: pass."


@pytest.mark.django_db
def test_a_service_refusal_on_the_page_follows_the_browser():
    from django.contrib.messages import get_messages
    from django.test import Client

    from tests.web.conftest import logged_in, make_user

    anna, ben, cor = (make_user(f"{n}@example.com") for n in ("anna", "ben", "cor"))
    match = services.create_match(creator=anna, game_slug="sealed-cards", players=2)
    services.join_match(match_id=match.pk, user=ben)
    client: Client = logged_in(cor)
    answer = client.post(f"/matches/{match.pk}/join/", headers={"accept-language": "fr"})
    said = [str(m) for m in get_messages(answer.wsgi_request)]
    assert said == ["Cette partie a déjà commencé."]
