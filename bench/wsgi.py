"""The site's WSGI application with the platform's test game registered and the floor view
added, for bench/http.py."""

import os

os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"

import tests.sealed_cards  # noqa: E402,F401  registers "sealed-cards"
from config.wsgi import application  # noqa: E402

__all__ = ["application"]
