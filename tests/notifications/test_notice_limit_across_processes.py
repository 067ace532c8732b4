"""The backscatter limit holds for an MTA pipe on the default setup: five forged replies,
each through its own `manage.py receive_email` process (default settings: SQLite, no
CACHE_URL, so no cache is shared), give at most INBOUND_NOTICES_PER_HOUR notices, and the
pipe prints nothing but its outcome and its own log of the message."""

import os
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 3  # INBOUND_NOTICES_PER_HOUR's default, as docs/notifications.md says

SETUP = """
from django.contrib.auth.models import User
from games import services
from replies.tokens import reply_address
anna = User.objects.create_user("anna", "anna@example.com", "pw", first_name="Anna")
ben = User.objects.create_user("ben", "ben@example.net", "pw", first_name="Ben")
match = services.create_match(creator=anna, game_slug="nieuwstad", players=2,
                              invite_emails=[ben.email])
services.join_match(match_id=match.pk, user=ben)
seat = match.seats.get(user=anna)
print(reply_address(match.pk, seat.number, 0))
"""
COUNT = """
from notifications.models import Notification
print(Notification.objects.filter(address="anna@example.com", context__notice=True).count())
"""


def manage(env: dict, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        timeout=300,
    )


def forged(address: str, n: int) -> bytes:
    """A reply for Anna's seat from an address that is not hers."""
    message = EmailMessage()
    message["From"] = "mallory@evil.example"
    message["To"] = address
    message["Subject"] = "Re: your turn"
    message["Message-ID"] = f"<forged.{n}@evil.example>"
    message.set_content("resign\n")
    return message.as_bytes()


@pytest.mark.slow
def test_five_forged_replies_through_five_pipes_give_at_most_the_limit(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "CACHE_URL", "INBOUND_NOTICES_PER_HOUR")
        and not k.startswith("PYTEST")
    }
    env.update(PBM_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings")
    assert manage(env, "migrate", "--noinput").returncode == 0
    made = manage(env, "shell", "-c", SETUP)
    assert made.returncode == 0, made.stderr.decode()
    address = made.stdout.decode().split()[-1]
    for n in range(5):
        piped = manage(env, "receive_email", "--recipient", address, stdin=forged(address, n))
        assert piped.returncode == 0, piped.stderr.decode()
        assert piped.stdout.decode().startswith("rejected"), piped.stdout.decode()
        # Nothing but our own log of the message ends up in Postfix's delivery status.
        logged = piped.stderr.decode().splitlines()
        assert all(line.startswith("inbound forged.") for line in logged), logged
    counted = manage(env, "shell", "-c", COUNT)
    assert int(counted.stdout.decode().split()[-1]) == LIMIT
