"""The site's WSGI application under bench.settings (the floor view added, the platform's
test game registered), for bench/http.py."""

import os

os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"

from config.wsgi import application  # noqa: E402

__all__ = ["application"]
