"""A broker outage costs nothing visible (services suite: real PostgreSQL, Redis and a Celery
worker). With the app's producers pointed at a closed port, a move, a chat message and the
join that starts a 6-seat match each answer within a second; once the broker is back the
outbox sweep delivers every notification, and none twice."""

import os
import time
from collections import Counter

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from notifications import outbox
from notifications.models import Channel, Notification, Status
from tests.notifications.test_services_celery import broker_at, wait_for, worker  # noqa: F401
from tests.web.conftest import hand_of, make_user

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

CLOSED_PORT = "redis://127.0.0.1:6390/0"  # nothing listens there: Redis is "down"


@pytest.fixture(autouse=True)
def _site(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def timed(request) -> tuple[float, object]:
    started = time.monotonic()
    response = request()
    return time.monotonic() - started, response


@pytest.fixture
def handoffs(monkeypatch) -> list[float]:
    """How long each hand-over of a notification to Celery took, refused or not."""
    from notifications.tasks import deliver_notification

    seconds: list[float] = []
    original = deliver_notification.apply_async

    def timed_apply_async(*args, **kwargs):
        started = time.monotonic()
        try:
            return original(*args, **kwargs)
        finally:
            seconds.append(time.monotonic() - started)

    monkeypatch.setattr(deliver_notification, "apply_async", timed_apply_async)
    return seconds


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_requests_answer_at_once_and_mail_follows_when_the_broker_returns(worker, handoffs):  # noqa: F811
    people = [make_user(f"p{n}@example.com") for n in range(6)]
    anna, ben = people[0], people[1]
    with broker_at(CLOSED_PORT):
        six = services.create_match(
            creator=anna,
            game_slug="blankenburg",
            players=6,
            invite_emails=[p.email for p in people[1:]],
        )
        for person in people[1:-1]:
            services.join_match(match_id=six.pk, user=person)
        seconds, response = timed(
            lambda: signed_in(people[-1]).post(reverse("match_join", args=[six.pk]))
        )
        assert response.status_code == 302
        six.refresh_from_db()
        assert six.status == "active"
        answered = {"the join that starts 6 seats": seconds}

        duel = services.create_match(
            creator=anna, game_slug="sealed-cards", players=2, invite_emails=[ben.email]
        )
        services.join_match(match_id=duel.pk, user=ben)
        duel.refresh_from_db()
        card = hand_of(duel, anna)[0]
        seconds, response = timed(
            lambda: signed_in(anna).post(
                reverse("match_move", args=[duel.pk]),
                {"command": f"play {card}", "seq": duel.head_seq, "token": "outage-1"},
            )
        )
        assert response.status_code == 302 and duel.moves.count() == 1
        answered["a move"] = seconds

        seconds, response = timed(
            lambda: signed_in(ben).post(
                reverse("notifications:chat_post", args=[duel.pk]), {"text": "still there?"}
            )
        )
        assert response.status_code == 302
        answered["a chat message"] = seconds

        time.sleep(0.5)
        assert mail.outbox == []  # nothing reached the worker
        # Each refused hand-over costs a few milliseconds (it was ~6 s: kombu's retries).
        assert len(handoffs) >= 14
        assert max(handoffs) < 0.25, sorted(handoffs)[-3:]

    emails = Notification.objects.filter(channel=Channel.EMAIL)
    waiting = emails.filter(status=Status.PENDING).count()
    assert waiting >= 6 + 6 + 2  # 6 starts, 6 turns, the duel's mail and the chat
    later = timezone.now() + outbox.SWEEP_GRACE * 2
    outbox.sweep(later)  # the beat's sweep, the broker back
    assert wait_for(lambda: not emails.exclude(status__in=[Status.SENT, Status.SKIPPED]).exists())
    time.sleep(1)
    outbox.sweep(later + outbox.SWEEP_GRACE * 2)  # a second sweep finds nothing to resend
    time.sleep(1)
    sent = emails.filter(status=Status.SENT).count()
    assert len(mail.outbox) == sent
    ids = Counter(
        m.extra_headers.get("Message-ID") or m.message()["Message-ID"] for m in mail.outbox
    )
    assert max(ids.values()) == 1, "a notification was sent twice"
    # Within a second, as the issue asks, on a machine with a core to spare; a shared box
    # running other suites at once (load above its cores) gets three. Before the fix these
    # took 12 to 45 s here: each refused hand-over cost seconds of kombu retries.
    bound = 1.0 if os.getloadavg()[0] <= (os.cpu_count() or 1) else 3.0
    assert max(answered.values()) < bound, answered
