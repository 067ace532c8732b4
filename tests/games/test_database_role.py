"""On PostgreSQL, below the application: the move table refuses UPDATE, DELETE and TRUNCATE
by trigger, and the application's role (granted by `grant_app_role`, as README's production
section says) may only INSERT and SELECT there and cannot alter the table or its triggers.
Services suite: creates a role for the test and drops it after."""

import secrets
import uuid

import psycopg
import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from games import services
from games.models import Move

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match():
    assert connection.vendor == "postgresql", "run the services suite on PostgreSQL"
    made = services.create_match(
        creator=None, game_slug="sealed-cards", players=2, bots=2, seed="role"
    )
    assert made.moves.count() > 2
    return made


@pytest.fixture
def app_role():
    name = f"pbm_app_{uuid.uuid4().hex[:8]}"
    password = secrets.token_hex(12)
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {name} LOGIN PASSWORD %s", [password])
    try:
        call_command("grant_app_role", name)
        db = connection.settings_dict
        role = psycopg.connect(
            host=db["HOST"] or "127.0.0.1",
            port=db["PORT"] or 5432,
            dbname=db["NAME"],
            user=name,
            password=password,
            autocommit=True,
        )
        yield role
        role.close()
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP OWNED BY {name}")
            cursor.execute(f"DROP ROLE {name}")


def refused(role, statement: str, params=()) -> str:
    with pytest.raises(psycopg.Error) as error:
        role.execute(statement, params)
    return error.value.sqlstate


def test_the_owner_cannot_update_delete_or_truncate_the_log(match):
    with pytest.raises(IntegrityError), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE games_move SET note = 'x' WHERE match_id = %s", [match.pk])
    with pytest.raises(IntegrityError), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM games_move WHERE match_id = %s", [match.pk])
    with connection.cursor() as cursor:
        cursor.execute("SET pbm.allow_truncate = 'off'")
    try:
        with pytest.raises(IntegrityError, match="TRUNCATE refused"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("TRUNCATE games_move CASCADE")
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET pbm.allow_truncate = 'on'")  # the test flush needs it
    assert Move.objects.filter(match=match).count() == match.head_seq


def test_the_application_role_may_only_insert_and_select_moves(match, app_role):
    head = match.head_seq
    (count,) = app_role.execute(
        "SELECT count(*) FROM games_move WHERE match_id = %s", [match.pk]
    ).fetchone()
    assert count == head
    app_role.execute(
        "INSERT INTO games_move (match_id, seq, seat, kind, payload, source, digest, note,"
        " created_at) VALUES (%s, %s, NULL, 'system', '{}', 'admin', 'x', '', now())",
        [match.pk, head + 1],
    )
    insufficient = "42501"  # insufficient_privilege
    assert refused(app_role, "UPDATE games_move SET note = 'x'") == insufficient
    assert refused(app_role, "DELETE FROM games_move") == insufficient
    assert refused(app_role, "TRUNCATE games_move CASCADE") == insufficient
    assert (
        refused(app_role, "ALTER TABLE games_move DISABLE TRIGGER games_move_append_only")
        == insufficient
    )
    assert refused(app_role, "SET session_replication_role = replica") == insufficient
    # The rest of the application's tables are read and written as usual.
    app_role.execute("UPDATE games_match SET prompt = prompt WHERE id = %s", [match.pk])
    assert Move.objects.filter(match=match).count() == head + 1
