"""The webhook channel: a Discord/Slack-compatible JSON POST for turn notices."""

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from notifications.models import Channel, Notification, Status
from notifications.transports import check_webhook_url
from players.models import Preferences

from .conftest import start_match

pytestmark = pytest.mark.django_db


class Hook(BaseHTTPRequestHandler):
    received: list = []
    status = 204

    def do_POST(self):
        length = int(self.headers["Content-Length"])
        Hook.received.append(json.loads(self.rfile.read(length)))
        self.send_response(Hook.status)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def hook_url():
    server = HTTPServer(("127.0.0.1", 0), Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Hook.received, Hook.status = [], 204
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()


def test_turn_notices_go_to_the_webhook(settings, hook_url, anna, ben):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    Preferences.objects.create(user=anna, webhook_url=hook_url)
    match = start_match(anna, ben)
    from notifications import outbox

    outbox.send_due()
    (body,) = Hook.received
    assert body["content"] == body["text"]
    assert f"Sealed Cards #{match.pk}" in body["text"] and "play a card" in body["text"]
    assert "Your hand" not in body["text"]  # a channel may have other readers
    row = Notification.objects.get(channel=Channel.WEBHOOK)
    assert row.status == Status.SENT


def test_a_gone_webhook_fails_permanently(settings, hook_url, anna, ben):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    Hook.status = 404
    Preferences.objects.create(user=anna, webhook_url=hook_url)
    start_match(anna, ben)
    from notifications import outbox

    outbox.send_due()
    assert Notification.objects.get(channel=Channel.WEBHOOK).status == Status.FAILED


def test_private_addresses_are_refused_in_production(settings):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = False
    assert "https" in check_webhook_url("http://example.com/hook")
    assert "public" in check_webhook_url("https://127.0.0.1/hook")
    assert check_webhook_url("ftp://example.com/") != ""


# --- a webhook that gives up ---------------------------------------------------------------


def _webhook_player(settings, hook_url, anna, mode):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    Hook.status = 404  # the channel was deleted: a permanent failure
    Preferences.objects.create(user=anna, webhook_url=hook_url, mode=mode)


def _overdue_sweep(match, at, user):
    """Sweep the deadlines at `at`; how many times `user`'s seat was timed out."""
    import time_machine

    from games import clock

    with time_machine.travel(at, tick=False):
        clock.sweep_deadlines(enforce=clock.enforce)
    seat = match.seats.get(user=user).number
    return match.moves.filter(kind="timeout", seat=seat).count()


def test_a_failing_webhook_a_player_relies_on_stops_their_clock_until_it_works(
    settings, client, hook_url, anna, ben
):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from games import services
    from notifications import outbox

    from .conftest import seat_of

    _webhook_player(settings, hook_url, anna, mode="none")  # the webhook is all she has
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        match = start_match(anna, ben, days_per_move=1)
        outbox.send_due()
    assert Notification.objects.get(channel=Channel.WEBHOOK).status == Status.FAILED
    prefs = Preferences.objects.get(user=anna)
    assert prefs.webhook_failing and "404" in prefs.webhook_failure
    seat = seat_of(match, anna)

    client.force_login(anna)
    for page in ("/lobby/", f"/matches/{match.pk}/", "/n/preferences/"):
        content = client.get(page).content.decode()
        assert "Your webhook is failing" in content and "deadlines are stopped" in content, page

    # Two days later her deadline has long passed, but nobody could tell her: no timeout.
    assert _overdue_sweep(match, start + timedelta(days=2), anna) == 0
    due = match.seats.get(number=seat)
    with time_machine.travel(start + timedelta(days=2), tick=False):
        refused = services.enforce_timeout(
            match_id=match.pk, seat=seat, deadline_seq=due.deadline_seq
        )
    assert not refused.ok and "stopped" in refused.message

    # She mends it: a new URL starts afresh and gives the stopped time back.
    Hook.status = 204
    with time_machine.travel(start + timedelta(days=2), tick=False):
        response = client.post(
            "/n/preferences/",
            {
                "action": "save",
                "mode": "none",
                "time_zone": "UTC",
                "digest_hour": 8,
                "webhook_url": hook_url + "?v=2",
                "reminder_hours": "",
            },
        )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert not Preferences.objects.get(user=anna).webhook_failing
    moved = match.seats.get(number=seat).deadline_at
    assert moved >= start + timedelta(days=2, hours=23)
    assert _overdue_sweep(match, start + timedelta(days=2, hours=12), anna) == 0


def test_a_failing_webhook_beside_working_email_stops_no_clock(
    settings, hook_url, anna, ben, no_vacation_bank
):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from notifications import outbox

    _webhook_player(settings, hook_url, anna, mode="every")  # email tells her too
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        match = start_match(anna, ben, days_per_move=1)
        outbox.send_due()
    assert Preferences.objects.get(user=anna).webhook_failing
    assert _overdue_sweep(match, start + timedelta(days=2), anna) == 1


def test_a_seat_whose_mail_fails_after_the_sweep_looked_is_not_timed_out(anna, ben):
    """The sweep hands an overdue seat to a worker; before the worker runs, the player's
    mail is marked failing. The worker re-checks under the match lock."""
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from games import clock, services
    from notifications.reachability import mark_failing

    from .conftest import seat_of

    start = timezone.now()
    with time_machine.travel(start, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    seat = seat_of(match, anna)
    handed = []
    with time_machine.travel(start + timedelta(days=2), tick=False):
        clock.sweep_deadlines(enforce=lambda *args: handed.append(args))
        (mine,) = [h for h in handed if h[1] == seat]  # Ben is overdue too
        assert mine == (match.pk, seat, match.seats.get(number=seat).deadline_seq)
        mark_failing(user=anna, reason="550 no such user", permanent=True, since=start)
        result = services.enforce_timeout(match_id=mine[0], seat=mine[1], deadline_seq=mine[2])
    assert not result.ok and match.moves.filter(kind="timeout", seat=seat).count() == 0
