"""On PostgreSQL a move's statements are prepared once per connection, their parameters bound
on the server (games/rows.py). What they read and write is checked against the ORM in
tests/test_rows.py, which CI runs again on PostgreSQL; here: that a statement is prepared the
first time a connection sends it and only then, that a rolled-back transaction costs no
move an error, that a new connection prepares again, and the switch."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.rows import seats_with_people
from tests.factories import two_player_match

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements: PostgreSQL"),
]


def prepared_here() -> dict[str, tuple[str, str]]:
    """The statements prepared on this connection's session: name, (SQL, parameter types)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, statement, parameter_types::text FROM pg_prepared_statements")
        return {name: (sql, types) for name, sql, types in cursor.fetchall()}


def locks_prepared() -> list[str]:
    return [name for name, (sql, _) in prepared_here().items() if "FOR UPDATE OF m" in sql]


def locked_seats(match_id: int) -> tuple[list, list[str]]:
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        seats = seats_with_people(match_id, lock=True)
    return seats, [q["sql"] for q in queries if not q["sql"].startswith("SAVEPOINT")]


def test_the_lock_is_prepared_once_with_its_parameter_bound_on_the_server():
    match, _anna, _bram = two_player_match()
    connection.close()  # a connection of its own: nothing prepared on it yet
    assert locks_prepared() == []
    seats, sent = locked_seats(match.pk)
    assert [s.number for s in seats] == [0, 1]
    assert len(sent) == 1 and sent[0].startswith("SELECT") and "FOR UPDATE OF m" in sent[0]
    [name] = locks_prepared()
    statement, types = prepared_here()[name]
    assert "$1" in statement and "%s" not in statement  # the match's id travels beside it
    assert types != "{}"
    again, sent_again = locked_seats(match.pk)
    assert [s.pk for s in again] == [s.pk for s in seats]
    assert sent_again == sent
    assert locks_prepared() == [name]  # executed again, not prepared a second time


def test_after_a_rolled_back_transaction_the_statements_are_prepared_again():
    """psycopg forgets its prepared statements on a rollback (DEALLOCATE ALL: what was rolled
    back may have changed a table they read); the next move prepares them again."""
    match, _anna, _bram = two_player_match()
    connection.close()
    with pytest.raises(RuntimeError), transaction.atomic():
        seats_with_people(match.pk, lock=True)
        raise RuntimeError("the move was refused")
    seats, _sent = locked_seats(match.pk)  # no "prepared statement does not exist"
    assert len(seats) == 2
    assert len(locks_prepared()) == 1


def test_a_new_connection_prepares_again():
    match, _anna, _bram = two_player_match()
    locked_seats(match.pk)
    connection.close()
    assert locks_prepared() == []
    seats, _sent = locked_seats(match.pk)
    assert len(seats) == 2 and len(locks_prepared()) == 1


def test_switched_off_the_sql_is_sent_with_its_parameters_quoted_in(settings):
    match, _anna, _bram = two_player_match()
    connection.close()
    settings.DATABASE_PREPARED_STATEMENTS = False
    seats, sent = locked_seats(match.pk)
    assert len(seats) == 2 and "FOR UPDATE OF m" in sent[0]
    assert f"= {match.pk}" in sent[0]  # Django's cursor binds on the client
    assert locks_prepared() == []
