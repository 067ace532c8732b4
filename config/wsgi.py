import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def warm_up() -> None:
    """Load, while the worker boots, what its first requests would otherwise load while a
    player waits (bench.http saw 1-2 s of a worker's first move go to imports on the loaded
    2-core box): every view (the URLs), the games' rules, the notification modules a move
    imports when it asks someone, the Celery app's tasks and broker transport, and the
    cache's client (redis-py). Nothing here connects to the broker, and a cache that is
    down is the position cache's business when a move asks it: a worker always starts."""
    from django.core.cache import caches
    from django.urls import get_resolver

    import notifications.reminders  # noqa: F401
    import notifications.tasks  # noqa: F401
    from config.celery import app as celery_app
    from games.engine import available_games

    get_resolver().reverse_dict  # noqa: B018  imports the views, builds the reverse map
    available_games()
    celery_app.finalize(auto=True)
    with celery_app.connection_for_write() as connection:
        connection.transport  # noqa: B018  imports kombu's transport for the broker URL
    try:
        caches["default"].get("pbm:warm-up")
    except Exception:  # noqa: BLE001, S110
        pass


warm_up()
