"""Where a player meets a decision a standing order would answer, the page offers that order
beside it (issue 28): one button that gives it, keeping the orders already given."""

import random
import re

import pytest
from django.urls import reverse

from games import selectors, services
from tests.web.conftest import logged_in, seat_of

pytestmark = pytest.mark.django_db


def test_a_decision_a_standing_order_answers_offers_it(anna):
    match = services.create_match(
        creator=anna, game_slug="blankenburg", players=2, bots=1, seed="order-offer"
    )
    client, seat, game = logged_in(anna), seat_of(match, anna), match.game
    url = reverse("match_detail", args=[match.pk])
    rng = random.Random(2)
    for _ in range(200):
        match.refresh_from_db()
        state = selectors.load_state(match)
        answering = [
            o.key
            for o in game.standing_orders
            if game.standing_move(state, seat, frozenset({o.key})) is not None
        ]
        if answering and seat in game.to_act(state):
            break
        services.submit_move(
            match_id=match.pk, seat=seat, move=game.bot_move(state, seat, rng), source="web"
        )
    else:
        pytest.fail("no decision a standing order answers")
    page = client.get(url).content.decode()
    offer = re.search(r'<form [^>]*class="order-offer.*?</form>', page, re.S).group(0)
    assert f'name="orders" value="{answering[0]}"' in offer
    response = client.post(reverse("match_orders", args=[match.pk]), {"orders": [answering[0]]})
    assert response.status_code == 302
    match.refresh_from_db()
    assert answering[0] in match.seats.get(number=seat).standing_orders
