"""The turn email's deadline in the player's own time zone, in the plain text and the HTML
parts alike (issue 28, item 7)."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine

from players.models import Preferences

from .conftest import headline, send_all, start_match, to

pytestmark = pytest.mark.django_db


def test_the_turn_emails_deadline_is_in_the_players_zone_in_both_parts(anna, ben):
    Preferences.objects.create(user=anna, time_zone="Europe/Amsterdam")
    with time_machine.travel(datetime(2024, 1, 15, 12, 0, tzinfo=ZoneInfo("UTC")), tick=False):
        start_match(anna, ben, days_per_move=1)
        turn = next(m for m in to(send_all(), anna.email) if headline(m).startswith("Your turn"))
    html = next(body for body, kind in turn.alternatives if kind == "text/html")
    # Noon UTC plus a day is 13:00 in Amsterdam in winter (CET, UTC+1).
    assert "Tue 16 Jan 2024, 13:00 CET" in turn.body
    assert "Tue 16 Jan 2024, 13:00 CET" in html
    assert "12:00 UTC" not in turn.body and "12:00 UTC" not in html
