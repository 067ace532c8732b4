"""Preferences: every turn, a daily digest, or nothing; unsubscribe; failing addresses."""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from anymail.signals import AnymailTrackingEvent, tracking
from django.core import mail

from notifications import digest
from notifications.models import Kind, Notification, Status
from notifications.tokens import unsubscribe_token
from players.models import NoticeMode, Preferences

from .conftest import headline, send_all, start_match, to

pytestmark = pytest.mark.django_db
UTC = ZoneInfo("UTC")


def test_nothing_means_no_turn_email(anna, ben):
    Preferences.objects.create(user=anna, mode=NoticeMode.NONE)
    start_match(anna, ben)
    sent = send_all()
    # Ben (who keeps every email) gets his turn, the start told in it (his invitation is
    # not sent: he took his seat before it went).
    assert to(sent, anna.email) == [] and len(to(sent, ben.email)) == 1


def test_a_daily_digest_lists_the_waiting_matches(anna, ben):
    Preferences.objects.create(
        user=anna, mode=NoticeMode.DIGEST, digest_hour=8, time_zone="Europe/Amsterdam"
    )
    morning = datetime(2024, 6, 3, 5, 0, tzinfo=UTC)  # 07:00 in Amsterdam
    with time_machine.travel(morning, tick=False):
        first, second = start_match(anna, ben), start_match(anna, ben)
        assert [m for m in to(send_all(), anna.email) if "Your turn" in m.subject] == []
        assert digest.send_digests() == 0  # not 08:00 yet
    with time_machine.travel(morning + timedelta(hours=1), tick=False):
        assert digest.send_digests() == 1
        assert digest.send_digests() == 0  # one a day
        sent = to(send_all(), anna.email)
    assert len(sent) == 1 and "2 matches waiting for you" in sent[0].subject
    body = sent[0].body
    for match in (first, second):
        assert f"Sealed Cards #{match.pk}: play a card to trick 1" in body
    assert body.count("Reply address for") == 2


def test_the_unsubscribe_link_acts_only_on_post(client, anna, ben):
    url = f"/n/unsubscribe/{unsubscribe_token(anna.pk)}/"
    page = client.get(url)
    assert page.status_code == 200 and b'<form method="post"' in page.content
    assert not Preferences.objects.filter(user=anna, mode=NoticeMode.NONE).exists()
    assert client.post(url).status_code == 200  # one-click, no CSRF token
    assert Preferences.objects.get(user=anna).mode == NoticeMode.NONE
    assert client.post("/n/unsubscribe/forged/").status_code == 400


def test_a_bounce_marks_the_address_failing_and_the_site_says_so(client, anna, ben):
    event = AnymailTrackingEvent(
        event_type="bounced",
        recipient="ANNA@example.com",
        reject_reason="bounced",
        description="550 no such user",
    )
    tracking.send(sender=object, event=event, esp_name="Postmark")
    prefs = Preferences.objects.get(user=anna)
    assert prefs.email_failing and "550 no such user" in prefs.email_failure
    start_match(anna, ben)
    assert not Notification.objects.filter(address=anna.email, status=Status.PENDING).exists()
    client.force_login(anna)
    page = client.get("/n/preferences/")
    assert b"Email to anna@example.com is failing" in page.content
    client.post("/n/preferences/", {"action": "address-works"})
    assert not Preferences.objects.get(user=anna).email_failing


def test_a_delivery_event_changes_nothing(anna):
    event = AnymailTrackingEvent(event_type="delivered", recipient=anna.email)
    tracking.send(sender=object, event=event, esp_name="Postmark")
    assert not Preferences.objects.filter(user=anna, email_failing=True).exists()


def test_the_preferences_page_saves(client, anna):
    client.force_login(anna)
    response = client.post(
        "/n/preferences/",
        {
            "action": "save",
            "mode": "digest",
            "time_zone": "Europe/Paris",
            "quiet_start": "22:00",
            "quiet_end": "07:00",
            "digest_hour": "9",
            "reminder_hours": "12, 1",
            "webhook_url": "",
        },
    )
    assert response.status_code == 302, response.content
    prefs = Preferences.objects.get(user=anna)
    assert (prefs.mode, prefs.time_zone, prefs.quiet_start, prefs.reminder_hours) == (
        "digest",
        "Europe/Paris",
        time(22, 0),
        [12, 1],
    )
    bad = client.post(
        "/n/preferences/",
        {"action": "save", "mode": "every", "time_zone": "Mars/Olympus", "digest_hour": "9"},
    )
    assert bad.status_code == 200 and b"Unknown time zone." in bad.content


def test_times_are_shown_in_the_players_time_zone(anna, ben):
    Preferences.objects.create(user=anna, time_zone="America/New_York")
    with time_machine.travel(datetime(2024, 6, 3, 12, 0, tzinfo=UTC), tick=False):
        start_match(anna, ben, days_per_move=1)
        turn = next(m for m in to(send_all(), anna.email) if headline(m).startswith("Your turn"))
    assert "Deadline: Tue 04 Jun 2024, 08:00 EDT" in turn.body


def test_mail_to_a_player_is_held_in_quiet_hours(anna, ben):
    Preferences.objects.create(user=anna, quiet_start=time(9, 0), quiet_end=time(17, 0))
    with time_machine.travel(datetime(2024, 6, 3, 12, 0, tzinfo=UTC), tick=False):
        start_match(anna, ben)
        assert to(send_all(), anna.email) == []
    row = Notification.objects.filter(user=anna, kind=Kind.TURN).get()
    assert row.send_after == datetime(2024, 6, 3, 17, 0, tzinfo=UTC)
    assert not mail.outbox or all(anna.email not in m.to for m in mail.outbox)


def test_a_player_who_chose_no_email_is_told_deadlines_still_run(client, anna, ben):
    match = start_match(anna, ben)
    url = f"/n/unsubscribe/{unsubscribe_token(anna.pk)}/"
    for page in (client.get(url), client.post(url)):  # the question, then the one click
        text = page.content.decode()
        assert "Your deadlines still run" in text and "#vacation" in text
    assert Preferences.objects.get(user=anna).mode == NoticeMode.NONE
    client.force_login(anna)
    for path in (f"/matches/{match.pk}/", "/n/preferences/", "/lobby/"):
        text = client.get(path).content.decode()
        assert "Your deadlines still run" in text, path
        assert 'href="/n/preferences/#vacation"' in text or 'href="#vacation"' in text, path
    client.force_login(ben)  # who gets email hears nothing of it
    assert "deadlines still run" not in client.get(f"/matches/{match.pk}/").content.decode()
