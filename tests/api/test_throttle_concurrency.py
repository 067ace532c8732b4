"""The API's budget holds across processes: two processes spending one account's budget at
once let through exactly the limit, not more (atomic increments in the shared Redis)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.services

SPEND = """
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from types import SimpleNamespace
from api.throttles import AccountThrottle
throttle = AccountThrottle("concurrency-test", 120, 60)
request = SimpleNamespace(auth=SimpleNamespace(pk=int(sys.argv[1])), META={})
print(sum(throttle.allow_request(request) for _ in range(200)))
"""


def test_two_processes_let_through_at_most_the_limit():
    cache_url = os.environ.get("CACHE_URL", "")
    assert cache_url.startswith("redis://"), "this test needs CACHE_URL=redis://..."
    account = str(os.getpid() * 1000 + 7)  # a key of this run's own
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", SPEND, account], cwd=ROOT, stdout=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    allowed = [int(p.communicate(timeout=120)[0].strip().splitlines()[-1]) for p in processes]
    assert sum(allowed) == 120, allowed
