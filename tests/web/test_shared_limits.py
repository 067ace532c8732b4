"""Login throttling and mail limits hold across processes: another Python process, sharing
only PostgreSQL and the Redis cache (as a second gunicorn worker would), uses up the limits,
and this process is refused (services suite: needs CACHE_URL=redis://...)."""

import os
import subprocess
import sys
import textwrap

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.web.conftest import PASSWORD, make_user

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

OTHER_PROCESS = textwrap.dedent(
    """
    import django
    django.setup()
    from django.core import mail
    from django.test import Client
    from django.test.utils import setup_test_environment
    setup_test_environment()
    for n in range({failures}):
        answer = Client(REMOTE_ADDR="10.9.9.9").post(
            "/login/", {{"username": "anna@example.com", "password": "guess"}}
        )
        assert answer.status_code in (200, 429), answer.status_code  # 429: the last one
    for n in range(3):
        Client(REMOTE_ADDR=f"10.9.8.{{n}}").post("/login/email/", {{"email": "anna@example.com"}})
    assert len(mail.outbox) == 3, len(mail.outbox)
    print("done")
    """
)


def database_url() -> str:
    db = connection.settings_dict
    assert connection.vendor == "postgresql", "run the services suite on PostgreSQL"
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


def test_limits_counted_in_another_process_apply_here():
    cache = settings.CACHES["default"]
    assert cache["BACKEND"].endswith("RedisCache"), "needs CACHE_URL=redis://..."
    anna = make_user("anna@example.com")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url(),
        "CACHE_URL": cache["LOCATION"],
    }
    done = subprocess.run(
        [sys.executable, "-c", OTHER_PROCESS.format(failures=settings.AXES_FAILURE_LIMIT)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "done" in done.stdout

    locked = Client(REMOTE_ADDR="10.0.0.1").post(
        reverse("login"), {"username": anna.email, "password": PASSWORD}
    )
    assert locked.status_code == 429
    Client(REMOTE_ADDR="10.0.0.2").post(reverse("magic_request"), {"email": anna.email})
    assert mail.outbox == []
