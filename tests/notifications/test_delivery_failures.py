"""Delivery never silently fails a player: every ESP error ends in a recorded state; a
long outage ends with the player told and their clock stopped; nothing is sent twice; no
row stays 'sending'; one bad row never holds up the rest."""

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from anymail.exceptions import AnymailAPIError
from django.utils import timezone

from games import clock, services
from games.chat import post_message
from games.models import MoveKind
from notifications import outbox
from notifications.models import Kind, Notification, Status
from players.models import Preferences

from . import esp
from .conftest import headline, seat_of, start_match

pytestmark = pytest.mark.django_db

MONDAY = datetime(2024, 6, 3, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def scripted_esp(settings):
    settings.EMAIL_BACKEND = esp.BACKEND
    settings.ANYMAIL = {}
    settings.OUTBOX_RETRY_FOR = 24 * 3600
    esp.reset()
    yield esp.ScriptedESP
    esp.reset()


def _first_row(match, user) -> Notification:
    """The first mail of the match to `user`: their turn notice (the start told in it)."""
    return Notification.objects.get(kind=Kind.TURN, match=match, user=user, channel="email")


def _failing(user) -> Preferences | None:
    return Preferences.objects.filter(user=user, email_failing=True).first()


@pytest.mark.parametrize(
    ("response", "permanent"),
    [
        (esp.unavailable(), False),  # 5xx: the ESP is down
        (AnymailAPIError("Connection refused"), False),  # no answer at all
        (AnymailAPIError("Too many requests", status_code=429), False),
        (AnymailAPIError("Bad request: malformed", status_code=400), True),
        (RuntimeError("a bug below the outbox"), False),  # unexpected: retried, then given up
    ],
)
def test_each_kind_of_esp_error_ends_in_a_recorded_state(match, anna, response, permanent):
    row = _first_row(match, anna)
    esp.ScriptedESP.script = [response]
    now = timezone.now()
    if permanent:
        assert outbox.deliver(row.pk, now) == "failed"
    else:
        with pytest.raises(outbox.RetryLater):
            outbox.deliver(row.pk, now)
    row.refresh_from_db()
    assert row.status == (Status.FAILED if permanent else Status.PENDING)
    assert row.last_error and row.first_failed_at == now
    prefs = _failing(anna)
    assert (prefs is not None) == permanent
    if permanent:
        assert prefs.email_failure_permanent and prefs.email_failure == row.last_error


def test_a_refused_address_is_marked_failing_at_once(match, anna):
    row = _first_row(match, anna)
    esp.ScriptedESP.script = [esp.refused(anna.email)]
    assert outbox.deliver(row.pk) == "failed"
    row.refresh_from_db()
    assert row.status == Status.FAILED and row.last_error.startswith("address refused")
    prefs = _failing(anna)
    assert prefs.email_failure_permanent and "address refused" in prefs.email_failure


def test_an_invalid_address_is_marked_failing_at_once(anna, ben):
    ben.email = "ben(at)example.net"  # what a typo in an old sign-up left
    ben.save()
    match = start_match(anna, ben)
    row = _first_row(match, ben)
    assert outbox.deliver(row.pk) == "failed"
    row.refresh_from_db()
    assert "address refused" in row.last_error and "Invalid email address" in row.last_error
    assert _failing(ben).email_failure_permanent
    # Nothing more is tried until Ben acts: later mail is recorded as not sent, and why.
    post_message(match=match, user=anna, text="Ben, are you there?")
    chat = Notification.objects.get(kind=Kind.CHAT, user=ben)
    assert chat.status == Status.SKIPPED and chat.last_error.startswith("address marked failing")


def _state(match):
    from games.selectors import load_state

    match.refresh_from_db()
    return load_state(match)


def test_one_bad_row_never_holds_up_the_rest(match, anna, ben):
    due = Notification.objects.filter(status=Status.PENDING).order_by("send_after", "pk")
    count = due.count()
    esp.ScriptedESP.script = [RuntimeError("template exploded")]
    outcomes = outbox.send_due()
    # Ben's invitation is not sent: he took his seat before it went.
    assert outcomes.count("skipped") == 1
    assert outcomes.count("retry") == 1 and outcomes.count("sent") == count - 2
    assert not Notification.objects.filter(status=Status.SENDING).exists()
    assert len(esp.ScriptedESP.delivered) == count - 2


def test_a_row_whose_sender_keeps_dying_is_given_up_not_left_sending(match, anna):
    row = _first_row(match, anna)
    now = timezone.now()
    while True:
        claimed = outbox.claim(row.pk, now)  # ... and the worker is killed mid-send
        if claimed is None:
            break
        now += outbox.LEASE + timedelta(seconds=1)
        outbox.reclaim_lost(now)
        row.refresh_from_db()
        assert row.status in (Status.PENDING, Status.FAILED)
    row.refresh_from_db()
    assert row.status == Status.FAILED and now - row.first_failed_at >= timedelta(hours=24)
    assert "kept stopping" in _failing(anna).email_failure


def _hour_by_hour(start: datetime, hours: int):
    """Run the outbox and the deadline sweep every hour, as beat would."""
    for hour in range(hours):
        with time_machine.travel(start + timedelta(hours=hour), tick=False):
            outbox.send_due()
            clock.sweep_deadlines(enforce=clock.enforce)


def test_a_long_outage_ends_with_the_player_told_and_their_clock_stopped(client, anna, ben):
    esp.ScriptedESP.down = esp.unavailable()
    with time_machine.travel(MONDAY, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    seat = seat_of(match, anna)
    deadline = match.seats.get(number=seat).deadline_at
    assert deadline == MONDAY + timedelta(days=1)

    # Three days of outage: retries for a day, then the outbox gives up.
    _hour_by_hour(MONDAY, 72)
    match.refresh_from_db()
    assert not match.moves.filter(kind=MoveKind.TIMEOUT).exists()  # nobody timed out
    assert match.status == "active"
    assert not Notification.objects.filter(status=Status.SENDING).exists()
    given_up = Notification.objects.filter(status=Status.FAILED, user=anna)
    assert given_up.filter(kind=Kind.TURN).exists()
    prefs = _failing(anna)
    assert prefs is not None and not prefs.email_failure_permanent
    assert "503" in prefs.email_failure

    # The player is told on the site, and the operator in the admin.
    client.force_login(anna)
    for page in ("/lobby/", f"/matches/{match.pk}/", "/n/preferences/"):
        content = client.get(page).content.decode()
        assert "Email to you is failing" in content or "is failing" in content, page
        assert "deadlines are stopped" in content, page

    # The ESP is back; the next mail to Anna gets through: clock restarted, time given back,
    # the turn notice sent again, and nothing sent twice.
    esp.ScriptedESP.down = None
    back = MONDAY + timedelta(hours=72, minutes=30)
    with time_machine.travel(back, tick=False):
        ben_seat = seat_of(match, ben)
        services.submit_move(
            match_id=match.pk,
            seat=ben_seat,
            move=match.game.default_move(_state(match), ben_seat),
            source="web",
        )
        for _ in range(3):
            outbox.send_due()
    assert _failing(anna) is None
    new_deadline = match.seats.get(number=seat).deadline_at
    assert new_deadline >= back + timedelta(hours=23)
    to_anna = [m for m in esp.ScriptedESP.delivered if anna.email in m.to]
    assert any(headline(m).startswith("Your turn") for m in to_anna)
    ids = Counter(m.extra_headers["Message-ID"] for m in esp.ScriptedESP.delivered)
    assert ids and max(ids.values()) == 1
    with time_machine.travel(back + timedelta(hours=22), tick=False):
        clock.sweep_deadlines(enforce=clock.enforce)
    assert not match.moves.filter(kind=MoveKind.TIMEOUT).exists()


def test_a_turn_notice_delivered_late_gives_the_seat_the_delay_back(anna, ben):
    with time_machine.travel(MONDAY, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    seat = seat_of(match, anna)
    esp.ScriptedESP.down = esp.unavailable()
    _hour_by_hour(MONDAY, 10)
    esp.ScriptedESP.down = None
    _hour_by_hour(MONDAY + timedelta(hours=10), 2)
    turn = Notification.objects.get(kind=Kind.TURN, user=anna, channel="email")
    assert turn.status == Status.SENT and turn.first_failed_at == MONDAY
    deadline = match.seats.get(number=seat).deadline_at
    assert deadline >= MONDAY + timedelta(days=1, hours=9)
    assert _failing(anna) is None


def test_the_player_says_the_address_works_and_the_clock_starts_again(client, anna, ben):
    esp.ScriptedESP.refusing = {anna.email}
    with time_machine.travel(MONDAY, tick=False):
        match = start_match(anna, ben, days_per_move=1)
        outbox.send_due()  # Anna's first mail is refused
    assert _failing(anna).email_failure_permanent
    _hour_by_hour(MONDAY + timedelta(hours=1), 48)
    assert not match.moves.filter(kind=MoveKind.TIMEOUT, seat=seat_of(match, anna)).exists()
    later = MONDAY + timedelta(days=2, hours=1)
    esp.ScriptedESP.refusing = set()  # her mailbox is fixed
    with time_machine.travel(later, tick=False):
        client.force_login(anna)
        client.post("/n/preferences/", {"action": "address-works"})
        assert _failing(anna) is None
        outbox.send_due()
    deadline = match.seats.get(number=seat_of(match, anna)).deadline_at
    assert deadline >= later + timedelta(hours=23)
    assert any(
        headline(m).startswith("Your turn") and anna.email in m.to
        for m in esp.ScriptedESP.delivered
    )


def test_a_changed_address_gets_a_fresh_start(match, anna, django_capture_on_commit_callbacks):
    esp.ScriptedESP.refusing = {anna.email}
    outbox.send_due()
    assert _failing(anna) is not None
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        anna.save(update_fields=["last_login"])  # a sign-in: not a new address
    assert callbacks == [] and _failing(anna) is not None
    with django_capture_on_commit_callbacks(execute=True):
        anna.email = "anna@new.example.com"
        anna.save()
    assert _failing(anna) is None


def test_the_admin_lists_failing_addresses_with_the_reason(admin_client, match, anna):
    esp.ScriptedESP.refusing = {anna.email}
    outbox.send_due()
    page = admin_client.get("/admin/players/preferences/?email_failing__exact=1")
    assert page.status_code == 200
    assert b"address refused" in page.content and b"anna" in page.content
    prefs = _failing(anna)
    admin_client.post(
        "/admin/players/preferences/",
        {"action": "address_works", "_selected_action": [prefs.pk]},
    )
    assert _failing(anna) is None
