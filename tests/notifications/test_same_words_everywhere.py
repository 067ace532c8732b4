"""Every path says first what happened in the same words (MoveResult.headline): the web
page's message, the API's `message` (or its error's), and the line of an email answer."""

import pytest
from django.core import mail
from django.test import Client

from api.tokens import make_token
from games import services
from games.models import MoveSource
from games.selectors import load_state
from replies import inbound

from .conftest import reply_to, seat_of, send_all, start_match, turn_email

pytestmark = pytest.mark.django_db


def _web(user, match, command):
    client = Client()
    client.force_login(user)
    page = client.post(
        f"/matches/{match.pk}/move/",
        {"command": command, "seq": match.head_seq, "token": f"form-{abs(hash(command))}"},
        follow=True,
    )
    return page.content.decode()


def _api(user, match, command):
    _token, key = make_token(user=user, name="words", scope="play")
    answer = (
        Client()
        .post(
            f"/api/v1/matches/{match.pk}/moves",
            {"command": command},
            content_type="application/json",
            headers={"Authorization": f"Bearer {key}"},
        )
        .json()
    )
    return answer.get("message") or answer["error"]["message"]


def test_an_illegal_move_is_refused_in_the_same_words_on_every_path(anna, ben):
    match = start_match(anna, ben)
    email = turn_email(match, anna)  # before she opens the page, which holds it back
    seat = seat_of(match, anna)
    expected = services.submit_move(
        match_id=match.pk, seat=seat, command="play 99", source=MoveSource.ADMIN
    ).headline()
    assert expected.startswith("Not applied: ")
    assert expected in _web(anna, match, "play 99")
    assert _api(anna, match, "play 99") == expected
    mail.outbox.clear()
    inbound.receive_raw(reply_to(email, "play 99"))
    send_all()
    [answer] = [m for m in mail.outbox if m.to == [anna.email]]
    assert expected in answer.body
    assert match.moves.count() == 0


def test_an_applied_move_is_told_in_the_same_words_on_every_path(anna, ben):
    match = start_match(anna, ben)
    card = load_state(match)["hands"][seat_of(match, anna)][0]
    assert f"Applied: play {card}." in _web(anna, match, f"play {card}")
    card = load_state(match)["hands"][seat_of(match, ben)][0]
    assert _api(ben, match, f"play {card}") == f"Applied: play {card}."
