"""On PostgreSQL, refuse UPDATE and DELETE on the move log at the database itself.

Not on SQLite: Django's test flush there uses DELETE, which such a trigger would refuse
(PostgreSQL flushes with TRUNCATE, which row triggers do not see). PRACTICE.md.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION games_move_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the move log is append-only (% refused)', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_move_append_only
    BEFORE UPDATE OR DELETE ON games_move
    FOR EACH ROW EXECUTE FUNCTION games_move_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS games_move_append_only ON games_move;
DROP FUNCTION IF EXISTS games_move_append_only();
"""


def create_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(create_trigger, drop_trigger)]
