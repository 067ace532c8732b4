"""A bot's owner may ask for a daily summary (issue 29, item 3): one email a day to the bot
account's own address with the matches started, finished (the bot's place) and the turns it
left waiting over an hour; at most once a day, nothing on a day with nothing to say, and
nothing unless asked."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from api.summary import send_summaries
from api.tasks import send_bot_summaries
from api.tokens import make_bot_account
from config.schedule import CELERY_BEAT_SCHEDULE
from games import services
from games.models import Seat
from games.selectors import load_state
from tests.api.conftest import token_client
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def bot_with_matches():
    """A bot account in a finished match and in one where it was asked two hours ago."""
    robot = make_user("Robo")
    make_bot_account(user=robot)
    finished = services.create_match(creator=robot, game_slug="sealed-cards", players=2, bots=1)
    for _ in range(3):
        finished.refresh_from_db()
        if finished.is_over:
            break
        seat = finished.seats.get(user=robot).number
        card = min(load_state(finished)["hands"][seat])
        services.submit_move(
            match_id=finished.pk, seat=seat, move={"type": "play", "card": card}, source="api"
        )
    finished.refresh_from_db()
    assert finished.status == "finished"
    stuck = services.create_match(creator=robot, game_slug="sealed-cards", players=2, bots=1)
    Seat.objects.filter(match=stuck, user=robot).update(
        waiting_since=timezone.now() - timedelta(hours=2)
    )
    return robot, finished, stuck


def test_the_owner_asks_and_gets_one_summary_a_day():
    robot, finished, stuck = bot_with_matches()
    client = token_client(robot, scope="bot")
    answer = client.client.put(
        "/api/v1/me/summary",
        {"daily": True},
        content_type="application/json",
        headers=client.headers,
    )
    assert answer.status_code == 200 and answer.json() == {"daily": True}
    assert send_bot_summaries() == 1
    (message,) = mail.outbox
    assert message.to == [robot.email]
    body = message.body
    assert "Matches started: 2" in body
    assert f"#{finished.pk} Sealed Cards: place " in body and "Matches finished: 1" in body
    assert "Turns waiting over an hour: 1" in body and f"/matches/{stuck.pk}/" in body
    assert send_summaries() == 0  # the same day: nothing more
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        assert send_summaries() == 1  # the next day: the turn still waits
    assert len(mail.outbox) == 2


def test_no_summary_unless_asked_and_none_for_a_person():
    robot, _finished, _stuck = bot_with_matches()
    assert send_summaries() == 0 and not mail.outbox
    person = make_user("Pat")
    client = token_client(person)
    answer = client.client.put(
        "/api/v1/me/summary",
        {"daily": True},
        content_type="application/json",
        headers=client.headers,
    )
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "refused"


def test_a_quiet_day_sends_nothing_and_beat_runs_it():
    robot = make_user("Quiet")
    make_bot_account(user=robot)
    client = token_client(robot, scope="bot")
    client.client.put(
        "/api/v1/me/summary",
        {"daily": True},
        content_type="application/json",
        headers=client.headers,
    )
    assert send_summaries() == 0 and not mail.outbox
    assert CELERY_BEAT_SCHEDULE["api-send-bot-summaries"]["task"] == send_bot_summaries.name
