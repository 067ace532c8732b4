"""Query plans: whether PostgreSQL can serve a query from indexes alone.

A test database is small, and PostgreSQL rightly reads a small table from start to end, or
hashes all of it for a join. So the plan is taken with those priced out of reach (sequential
scans, hash and merge joins off): a big table that still shows a sequential scan has no
index that serves the query, and every join is a lookup by key, as it is on a big site.
"""

from __future__ import annotations

from django.db import connection, transaction

# The tables that grow with every match: the log, the matches, their seats, their notices.
BIG_TABLES = ("games_match", "games_seat", "games_move", "notifications_notification")


def plan_of(query) -> str:
    """The plan of a queryset, or of a statement's SQL as a test captured it."""
    with transaction.atomic(), connection.cursor() as cursor:
        for setting in ("enable_seqscan", "enable_hashjoin", "enable_mergejoin"):
            cursor.execute(f"SET LOCAL {setting} = off")
        if not isinstance(query, str):
            return query.explain()
        cursor.execute("EXPLAIN " + query)
        return "\n".join(row[0] for row in cursor.fetchall())


def assert_served_by_indexes(queryset, *indexes: str) -> str:
    """The query's plan reads no big table sequentially and uses each of `indexes`."""
    plan = plan_of(queryset)
    for table in BIG_TABLES:
        assert f"Seq Scan on {table}" not in plan, plan
    for index in indexes:
        assert index in plan, plan
    return plan
