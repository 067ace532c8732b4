"""The site's WSGI application with the platform's test game registered, for bench/http.py."""

import tests.sealed_cards  # noqa: F401  registers "sealed-cards" (the real games self-register)
from config.wsgi import application

__all__ = ["application"]
