"""The floor a move is measured against, doing a move's essential work: one transaction that
locks the match row (SELECT ... FOR UPDATE) and inserts one row, in hand-written SQL (it is a
floor: nothing a real path could leave out).

- `django_floor`: a minimal Django view (bench.settings adds it at /bench/floor/<pk>/), with
  the site's middleware, settings and database connection handling: the HTTP paths' floor.
- `manage.py bench_floor --match PK` (bench/management/commands/bench_floor.py): the same
  work in a `manage.py` process that reads a message on standard input, started as an MTA
  starts `receive_email`: the email path's floor.

Both insert into `bench_floor_move`, a table of the bench database only (made by
`create_table`), so the move log and its constraints stay as they are.
"""

from __future__ import annotations

import json

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


def floor_move(pk: int, payload: dict) -> None:
    """Lock the match row, insert one row, commit."""
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(LOCK_SQL, [pk])
        cursor.execute(INSERT_SQL, [pk, json.dumps(payload)])


def django_floor(request, pk: int):
    from django.http import JsonResponse

    floor_move(pk, json.loads(request.body or b"{}"))
    return JsonResponse({"ok": True, "match": pk})
