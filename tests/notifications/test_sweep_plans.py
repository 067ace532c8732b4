"""The outbox sweep's probe reads the few failing players through their index, not every
player's preferences."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from notifications.reachability import probe
from players.models import Preferences
from tests.plans import plan_of

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans"),
]


def test_the_probe_reads_the_failing_players_through_their_index():
    users = User.objects.bulk_create(User(username=f"p{n}") for n in range(50))
    Preferences.objects.bulk_create(
        Preferences(user=u, email_failing=n == 0) for n, u in enumerate(users)
    )
    with CaptureQueriesContext(connection) as queries:
        probe(timezone.now())
    (select,) = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    plan = plan_of(select)
    assert "prefs_failing" in plan, plan
    for table in ("notifications_preferences", "notifications_notification", "auth_user"):
        assert f"Seq Scan on {table}" not in plan, plan
