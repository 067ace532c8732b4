"""A PostgreSQL database of its own for the benchmarks, created fresh and dropped after.

The URL is BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/pbm_bench); the
server's maintenance database `postgres` is used to create and drop it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

from bench.common import BENCH_DATABASE_URL, django_setup


def _admin_url(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if not name or not name.replace("_", "").isalnum():
        raise SystemExit(f"bench database name {name!r} must be letters, digits and _")
    return urlunsplit(parts._replace(scheme="postgresql", path="/postgres")), name


def recreate(url: str = BENCH_DATABASE_URL) -> None:
    import psycopg

    admin, name = _admin_url(url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop(url: str = BENCH_DATABASE_URL) -> None:
    import psycopg

    admin, name = _admin_url(url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def clone(url: str, copy_url: str) -> None:
    """A copy of the database at `url`, which nothing may be connected to, at `copy_url`."""
    import psycopg

    admin, name = _admin_url(url)
    copy = _admin_url(copy_url)[1]
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{copy}" TEMPLATE "{name}"')


@contextmanager
def bench_database(*, keep: bool = False, url: str = BENCH_DATABASE_URL) -> Iterator[str]:
    """A fresh, migrated bench database with Django set up on it; dropped on the way out."""
    recreate(url)
    try:
        django_setup(url)
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        yield url
    finally:
        from django.db import connections

        connections.close_all()
        if not keep and not os.environ.get("BENCH_KEEP_DATABASE"):
            drop(url)
