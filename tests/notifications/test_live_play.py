"""Live play is quiet: a turn email for a player on the match page waits, and is dropped if
they move meanwhile."""

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import presence, services
from games.selectors import load_state
from notifications import outbox
from notifications.models import Kind, Notification, Status

from .conftest import seat_of

pytestmark = pytest.mark.django_db


def _turn_row(match, user) -> Notification:
    return Notification.objects.get(
        kind=Kind.TURN, match=match, user=user, channel="email", seq=match.head_seq
    )


def test_the_match_page_and_its_poll_record_the_player_as_seen(match, anna):
    client = Client()
    client.force_login(anna)
    since = timezone.now()
    assert not presence.seen_since(match, anna.pk, since)
    client.get(f"/matches/{match.pk}/poll/?seq={match.head_seq}&status=active")
    assert presence.seen_since(match, anna.pk, since)


def test_a_turn_email_waits_while_the_player_is_on_the_page_and_is_dropped_when_they_move(
    match, anna
):
    row = _turn_row(match, anna)
    now = timezone.now()
    presence.seen(match, anna.pk, now)
    with pytest.raises(outbox.RetryLater) as held:
        outbox.deliver(row.pk, now)
    assert held.value.why == "held"
    row.refresh_from_db()
    assert row.status == Status.PENDING and row.send_after == now + outbox.live_play_hold()
    assert row.attempts == 0  # holding is not a failed attempt
    seat = seat_of(match, anna)
    card = min(load_state(match)["hands"][seat])
    services.submit_move(
        match_id=match.pk, seat=seat, move={"type": "play", "card": card}, source="web"
    )
    assert outbox.deliver(row.pk, row.send_after) == "skipped"
    assert [m for m in mail.outbox if anna.email in m.to] == []


def test_a_player_who_left_the_page_gets_the_email_after_the_hold(match, anna):
    row = _turn_row(match, anna)
    now = timezone.now()
    presence.seen(match, anna.pk, now)
    with pytest.raises(outbox.RetryLater):
        outbox.deliver(row.pk, now)
    later = now + outbox.live_play_hold()  # last seen 4 minutes ago: gone
    assert outbox.deliver(row.pk, later) == "sent"


def test_a_player_who_stays_on_the_page_without_moving_gets_it_in_the_end(match, anna):
    row = _turn_row(match, anna)
    at = row.created_at
    while at - row.created_at < outbox.live_play_max_hold():
        presence.seen(match, anna.pk, at)
        with pytest.raises(outbox.RetryLater):
            outbox.deliver(row.pk, at)
        at += outbox.live_play_hold()
    presence.seen(match, anna.pk, at)
    assert outbox.deliver(row.pk, at) == "sent"


def test_a_player_not_on_the_page_is_not_held(match, anna, ben):
    presence.seen(match, ben.pk)
    assert outbox.deliver(_turn_row(match, anna).pk) == "sent"


def test_other_mail_is_not_held(match, anna):
    presence.seen(match, anna.pk)
    seat = match.seats.get(user=anna).number
    chat = outbox.write(
        outbox.row_for(kind=Kind.CHAT, user=anna, dedupe_key="chat:x", match=match, seat=seat)
    )
    assert outbox.deliver(chat.pk) == "sent"


def test_a_cache_that_is_down_holds_nothing_and_breaks_no_page(match, anna, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:6390/0",  # nothing listens there
        }
    }
    # (Django re-reads CACHES when the setting changes.)
    presence.seen(match, anna.pk)
    assert presence.last_seen(match, anna.pk) is None
    assert outbox.deliver(_turn_row(match, anna).pk) == "sent"
