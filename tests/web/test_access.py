"""Who may see and do what on the player pages."""

import pytest
from django.urls import reverse

from tests.web.conftest import logged_in, secret_of

pytestmark = pytest.mark.django_db


def test_anonymous_is_sent_to_login_where_login_is_needed(client, duel):
    for url in (reverse("lobby"), reverse("match_create")):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    response = client.post(reverse("match_move", args=[duel.pk]), {"command": "play 1"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert duel.moves.count() == 0


def test_a_player_sees_their_own_hand_and_not_the_other_one(duel, anna, ben):
    page = logged_in(anna).get(reverse("match_detail", args=[duel.pk])).content.decode()
    assert secret_of(duel, anna) in page
    assert secret_of(duel, ben) not in page
    assert 'id="builder"' in page


def test_a_spectator_sees_the_public_view_only(client, watched_duel, anna, ben, outsider):
    duel = watched_duel
    for viewer in (client, logged_in(outsider)):
        response = viewer.get(reverse("match_detail", args=[duel.pk]))
        assert response.status_code == 200
        page = response.content.decode()
        assert "Trick 1 of 3" in page
        assert secret_of(duel, anna) not in page
        assert secret_of(duel, ben) not in page
        assert 'id="builder"' not in page


def test_a_non_player_cannot_post_a_move(duel, outsider):
    response = logged_in(outsider).post(
        reverse("match_move", args=[duel.pk]),
        {"command": "play 1", "seq": duel.head_seq, "token": "outsider-token"},
    )
    assert response.status_code == 403
    assert duel.moves.count() == 0


def test_a_non_player_cannot_resign_or_set_orders(duel, outsider):
    client = logged_in(outsider)
    assert client.get(reverse("match_resign", args=[duel.pk])).status_code == 403
    assert client.post(reverse("match_resign", args=[duel.pk])).status_code == 403
    response = client.post(reverse("match_orders", args=[duel.pk]), {"orders": ["play-lowest"]})
    assert response.status_code == 403
    assert duel.moves.count() == 0


def test_an_unknown_match_is_404(anna):
    client = logged_in(anna)
    assert client.get(reverse("match_detail", args=[999999])).status_code == 404
    assert client.get(reverse("match_replay", args=[999999])).status_code == 404
    assert client.post(reverse("match_move", args=[999999])).status_code == 404


def test_the_replay_keeps_the_other_hand_hidden_while_the_match_runs(duel, anna, ben):
    for n in (0, duel.head_seq):
        url = reverse("match_replay", args=[duel.pk]) + f"?n={n}"
        page = logged_in(anna).get(url).content.decode()
        assert secret_of(duel, ben) not in page


def test_moves_must_be_posted(duel, anna):
    response = logged_in(anna).get(reverse("match_move", args=[duel.pk]))
    assert response.status_code == 405


def test_home_welcomes_visitors_and_sends_players_to_the_lobby(client, anna):
    page = client.get(reverse("home"))
    assert page.status_code == 200
    assert "Sealed Cards" in page.content.decode()
    assert logged_in(anna).get(reverse("home"))["Location"] == reverse("lobby")
