"""On PostgreSQL a move's statements are PREPAREd once per connection and then EXECUTEd
(games/rows.py). What they read and write is checked against the ORM in tests/test_rows.py,
which CI runs again on PostgreSQL; here: when a statement is prepared, that it stays prepared
across a rolled-back transaction, that a new connection prepares again, and the switches."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import rows
from games.rows import seats_with_people, statement_sql
from tests.factories import two_player_match

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="PREPARE and EXECUTE are PostgreSQL's"
    ),
]


def prepared_here() -> dict[str, str]:
    """The statements prepared on this connection's session, by name."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, statement FROM pg_prepared_statements")
        return dict(cursor.fetchall())


def locked_seats(match_id: int) -> tuple[list, list[str]]:
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        seats = seats_with_people(match_id, lock=True)
    return seats, [q["sql"] for q in queries if not q["sql"].startswith("SAVEPOINT")]


def test_the_lock_is_prepared_once_then_executed_with_its_parameters():
    match, _anna, _bram = two_player_match()
    connection.close()  # a connection of its own: nothing prepared on it yet
    seats, sent = locked_seats(match.pk)
    assert [s.number for s in seats] == [0, 1]
    assert len(sent) == 1 and sent[0].startswith("EXECUTE pbm_"), sent
    name = sent[0].split("(")[0].removeprefix("EXECUTE ")
    statement = prepared_here()[name]
    assert "FOR UPDATE OF m" in statement and "$1" in statement
    assert "FOR UPDATE OF m" in statement_sql(sent[0])
    again, sent_again = locked_seats(match.pk)
    assert [s.pk for s in again] == [s.pk for s in seats]
    assert sent_again == sent  # the same EXECUTE, no second PREPARE
    assert list(prepared_here()).count(name) == 1


def test_a_rolled_back_transaction_keeps_what_it_prepared():
    match, _anna, _bram = two_player_match()
    connection.close()
    with pytest.raises(RuntimeError), transaction.atomic():
        seats_with_people(match.pk, lock=True)
        raise RuntimeError("the move was refused")
    before = prepared_here()
    seats, sent = locked_seats(match.pk)  # no "prepared statement does not exist"
    assert len(seats) == 2 and sent[0].startswith("EXECUTE pbm_")
    assert prepared_here() == before


def test_a_new_connection_prepares_again():
    match, _anna, _bram = two_player_match()
    locked_seats(match.pk)
    connection.close()
    assert not any(name.startswith("pbm_") for name in prepared_here())
    seats, sent = locked_seats(match.pk)
    assert len(seats) == 2
    assert sent[0].split("(")[0].removeprefix("EXECUTE ") in prepared_here()


def test_switched_off_or_past_the_cap_the_sql_is_sent_as_it_is(settings, monkeypatch):
    match, _anna, _bram = two_player_match()
    connection.close()
    settings.DATABASE_PREPARED_STATEMENTS = False
    seats, sent = locked_seats(match.pk)
    assert len(seats) == 2 and sent[0].startswith("SELECT") and "FOR UPDATE OF m" in sent[0]
    settings.DATABASE_PREPARED_STATEMENTS = True
    monkeypatch.setattr(rows, "MAX_PREPARED", 0)
    seats, sent = locked_seats(match.pk)
    assert len(seats) == 2 and sent[0].startswith("SELECT")
    assert not any(name.startswith("pbm_") for name in prepared_here())
