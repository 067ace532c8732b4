import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import tests.sealed_cards  # noqa: E402,F401  registers the platform's test game
