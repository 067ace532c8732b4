"""Give the application's database role what it needs and no more (PostgreSQL).

Run as the tables' owner, after `migrate`. The role may read and write every table except
the move log, where it may only INSERT and SELECT: no UPDATE, DELETE or TRUNCATE, and, not
being the owner, no ALTER TABLE (so it cannot disable the log's triggers either). Tables
added by later migrations need the command run again (README, "Production")."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from psycopg import sql

from games.models import Move


class Command(BaseCommand):
    help = "Grant a PostgreSQL role the application's privileges (INSERT/SELECT on moves)."

    def add_arguments(self, parser):
        parser.add_argument("role", help="the role the web and worker processes log in as")

    def handle(self, *args, role: str, **options):
        if connection.vendor != "postgresql":
            raise CommandError("grant_app_role is for PostgreSQL.")
        moves = Move._meta.db_table
        who = sql.Identifier(role)
        statements = [
            sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(who),
            sql.SQL(
                "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {}"
            ).format(who),
            sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {}").format(who),
            sql.SQL("REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {} FROM {}").format(
                sql.Identifier(moves), who
            ),
        ]
        connection.ensure_connection()
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement.as_string(connection.connection))
        self.stdout.write(f"{role}: all tables read and written, {moves} INSERT and SELECT only.")
