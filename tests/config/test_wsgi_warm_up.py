"""A web worker loads, while it boots, what its first move would otherwise load while a
player waits (config.wsgi.warm_up), and it boots even when the cache and broker are down."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import sys
import config.wsgi
for name in ("redis", "api.v1", "games.rules.blankenburg", "notifications.reminders"):
    assert name in sys.modules, name
print("booted")
"""


def test_a_worker_boots_warm_with_the_cache_and_the_broker_down():
    env = dict(os.environ)
    env.pop("DATABASE_URL", None)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        CACHE_URL="redis://127.0.0.1:9/0",  # nothing listens on the discard port
        CELERY_BROKER_URL="redis://127.0.0.1:9/1",
    )
    done = subprocess.run(
        [sys.executable, "-c", CHECK],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "booted" in done.stdout
