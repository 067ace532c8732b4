"""The two floors a move over HTTP is measured against, doing a move's essential work: one
transaction that locks the match row (SELECT ... FOR UPDATE) and inserts one row.

- `django_floor`: a minimal Django view (bench.settings adds it at /bench/floor/<pk>/), with
  the site's middleware, settings and database connection handling.
- `raw_application`: a WSGI app with psycopg and no framework, served by its own gunicorn.

Both insert into `bench_floor_move`, a table of the bench database only (made by
`create_table`), so the move log and its constraints stay as they are.
"""

from __future__ import annotations

import json
import os
import re

TABLE_SQL = """
CREATE TABLE IF NOT EXISTS bench_floor_move (
    id bigserial PRIMARY KEY,
    match_id bigint NOT NULL REFERENCES games_match (id),
    payload jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
)
"""
LOCK_SQL = "SELECT id FROM games_match WHERE id = %s FOR UPDATE"
INSERT_SQL = "INSERT INTO bench_floor_move (match_id, payload) VALUES (%s, %s)"


def create_table() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(TABLE_SQL)


def django_floor(request, pk: int):
    from django.db import connection, transaction
    from django.http import JsonResponse

    body = json.loads(request.body or b"{}")
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(LOCK_SQL, [pk])
        cursor.execute(INSERT_SQL, [pk, json.dumps(body)])
    return JsonResponse({"ok": True, "match": pk})


_PATH = re.compile(r"^/floor/(\d+)/$")
_connection = None


def raw_application(environ, start_response):
    """POST /floor/<pk>/ with a JSON body: lock, insert, commit, answer JSON."""
    global _connection
    import psycopg

    match = _PATH.match(environ.get("PATH_INFO", ""))
    if match is None or environ.get("REQUEST_METHOD") != "POST":
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found"]
    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = json.loads(environ["wsgi.input"].read(length) or b"{}")
    if _connection is None or _connection.closed:
        _connection = psycopg.connect(os.environ["BENCH_RAW_DATABASE_URL"])
    pk = int(match.group(1))
    with _connection.transaction(), _connection.cursor() as cursor:
        cursor.execute(LOCK_SQL, [pk])
        cursor.execute(INSERT_SQL, [pk, json.dumps(body)])
    out = json.dumps({"ok": True, "match": pk}).encode()
    start_response("200 OK", [("Content-Type", "application/json")])
    return [out]
