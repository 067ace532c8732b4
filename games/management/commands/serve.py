"""One process on the embedded defaults: migrate, a Celery worker and beat in threads, and
the web server without auto-reload (a forking reloader would split the in-memory broker)."""

from __future__ import annotations

import ipaddress
import os
import threading

from celery.beat import EmbeddedService
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from config.celery import app as celery_app


class Command(BaseCommand):
    help = "Run the whole server in one process on the embedded defaults."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--host", default="127.0.0.1")

    def handle(self, *args, port, host, **options):
        site_url(host, port)
        # A fresh database takes a few seconds to create: say so, so the wait is not silence.
        self.stdout.write("Preparing the database (migrations)...")
        self.stdout.flush()
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write("Starting the worker and the web server...")
        settings.LOCAL_MAILBOX_OPEN = _loopback_only(host)
        start_worker_thread()
        EmbeddedService(celery_app, thread=True).start()
        url = f"http://{host}:{port}/"
        self.stdout.write(
            f"\n  {settings.SITE_NAME} is running at {url}\n"
            f"  Database: {settings.DATABASES['default']['NAME']}\n"
            f"  Broker: {settings.CELERY_BROKER_URL} (worker and beat in this process)\n"
            f"  Email: {settings.EMAIL_BACKEND}\n"
            f"  Local mailbox: {url}n/mailbox/\n"
        )
        call_command("runserver", f"{host}:{port}", use_reloader=False)


def _loopback_only(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def site_url(host: str, port: int) -> str:
    """Links in emails point at this server: unless SITE_URL is set in the environment, it
    becomes the host and port served (and a trusted origin for forms)."""
    if not os.environ.get("SITE_URL"):
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        settings.SITE_URL = f"http://{shown}:{port}"
        if settings.SITE_URL not in settings.CSRF_TRUSTED_ORIGINS:
            settings.CSRF_TRUSTED_ORIGINS = [*settings.CSRF_TRUSTED_ORIGINS, settings.SITE_URL]
    return settings.SITE_URL


def start_worker_thread() -> threading.Thread:
    worker = celery_app.WorkController(
        app=celery_app,
        pool_cls="solo",
        concurrency=1,
        loglevel="WARNING",
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
    )
    thread = threading.Thread(target=worker.start, name="celery-worker", daemon=True)
    thread.start()
    return thread
