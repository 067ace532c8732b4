"""The site's settings with the benchmarks as an app: the floor view (bench.urls), the
floor command (`manage.py bench_floor`) and the platform's test game (bench.apps)."""

from config.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "bench"]  # noqa: F405
ROOT_URLCONF = "bench.urls"
