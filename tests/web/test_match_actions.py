"""Standing orders, resigning (with a confirm step), the htmx poll and the seed."""

import pytest
from django.urls import reverse

from tests.web.conftest import logged_in

pytestmark = pytest.mark.django_db


def test_standing_orders_are_saved_and_played(duel, anna):
    client = logged_in(anna)
    page = client.get(reverse("match_detail", args=[duel.pk])).content.decode()
    assert 'value="play-lowest"' in page
    client.post(reverse("match_orders", args=[duel.pk]), {"orders": ["play-lowest"]})
    seat = duel.seats.get(user=anna)
    assert seat.standing_orders == ["play-lowest"]
    assert duel.moves.filter(seat=seat.number, source="standing").count() == 1


def test_an_unknown_standing_order_is_refused(duel, anna):
    response = logged_in(anna).post(
        reverse("match_orders", args=[duel.pk]), {"orders": ["cheat"]}, follow=True
    )
    assert "Unknown standing order." in response.content.decode()
    assert duel.seats.get(user=anna).standing_orders == []


def test_resigning_asks_first(duel, anna):
    client = logged_in(anna)
    confirm = client.get(reverse("match_resign", args=[duel.pk]))
    assert "Yes, resign" in confirm.content.decode()
    assert not duel.seats.get(user=anna).resigned
    client.post(reverse("match_resign", args=[duel.pk]))
    assert duel.seats.get(user=anna).resigned
    duel.refresh_from_db()
    assert duel.is_over  # one person left
    again = client.post(reverse("match_resign", args=[duel.pk]), follow=True)
    assert again.status_code == 200


def test_the_poll_answers_204_until_the_match_moves(duel, anna, ben):
    url = reverse("match_poll", args=[duel.pk])
    client = logged_in(anna)
    assert client.get(url, {"seq": duel.head_seq, "status": duel.status}).status_code == 204
    logged_in(ben).post(reverse("match_orders", args=[duel.pk]), {"orders": ["play-lowest"]})
    response = client.get(url, {"seq": duel.head_seq, "status": duel.status})
    assert response.status_code == 200
    assert "moved on" in response.content.decode()


def test_the_seed_is_hidden_while_the_match_runs(watched_duel, anna, outsider):
    duel = watched_duel
    for client in (logged_in(anna), logged_in(outsider)):
        page = client.get(reverse("match_detail", args=[duel.pk])).content.decode()
        assert duel.seed_commitment in page
        assert duel.seed not in page


def test_the_text_board_is_always_offered(duel, anna):
    page = logged_in(anna).get(reverse("match_detail", args=[duel.pk])).content.decode()
    assert 'id="text-board"' in page
