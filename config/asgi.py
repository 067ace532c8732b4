"""The ASGI application, as production serves it: gunicorn with uvicorn's workers

    gunicorn config.asgi --worker-class uvicorn_worker.UvicornWorker --workers 4

so the event stream (GET /api/v1/stream) is an async iterator that holds no worker and no
thread per open stream (api/stream.py). Every other view is plain sync Django, which Django
runs in a thread of its own while the worker's event loop serves the streams."""

import os

import django
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Under ASGI each request's sync code runs in a thread made for that request, so a connection
# kept open for reuse would outlive its thread: close it when the request ends, as Django's
# docs advise for ASGI (the stream's reads keep theirs: they run in a fixed pool of threads).
settings.DATABASES["default"]["CONN_MAX_AGE"] = 0
django.setup(set_prefix=False)  # as get_asgi_application does

from api.stream import StreamASGIHandler  # noqa: E402  (needs the apps loaded)

application = StreamASGIHandler()  # Django's, with no thread kept per open event stream

from config.wsgi import warm_up  # noqa: E402  loads views, rules and transports at boot

__all__ = ["application", "warm_up"]
