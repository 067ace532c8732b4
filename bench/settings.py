"""The site's settings with the benchmark's floor view added (bench.urls)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
