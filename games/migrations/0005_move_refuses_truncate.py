"""On PostgreSQL, refuse TRUNCATE of the move log (row triggers do not see it).

A session may still truncate after `SET pbm.allow_truncate = 'on'`: Django's test runner
empties tables with TRUNCATE between transactional tests (tests/conftest.py sets the flag
on test connections). In production the application's role is not the table's owner and has
no TRUNCATE privilege at all (README, "Production": games.management.commands.grant_app_role);
the flag is for an owner who means it.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION games_move_no_truncate() RETURNS trigger AS $$
BEGIN
    IF coalesce(current_setting('pbm.allow_truncate', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'the move log is append-only (TRUNCATE refused)'
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_move_no_truncate
    BEFORE TRUNCATE ON games_move
    FOR EACH STATEMENT EXECUTE FUNCTION games_move_no_truncate();
"""

DROP = """
DROP TRIGGER IF EXISTS games_move_no_truncate ON games_move;
DROP FUNCTION IF EXISTS games_move_no_truncate();
"""


def create_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0004_match_rated_match_watchable")]
    operations = [migrations.RunPython(create_trigger, drop_trigger)]
