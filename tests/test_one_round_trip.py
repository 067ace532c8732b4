"""A move's closing writes go to PostgreSQL in pipeline mode (games.rows.one_round_trip):
sent together, answered together. What they write is what they wrote one at a time
(tests/test_rows.py, the query-count tests); here: that an error among them is raised as
Django's error, by the block, and leaves nothing written."""

import pytest
from django.db import IntegrityError, connection, transaction

from games.models import Match, Move
from games.rows import insert_rows, one_round_trip, update_rows
from tests.factories import two_player_match

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="pipeline mode is PostgreSQL's"),
]


def a_move(match, seq: int) -> Move:
    return Move(match=match, seq=seq, seat=0, kind="move", payload={}, source="web", digest="d")


def test_the_statements_inside_are_pipelined_and_answered_at_the_end():
    match, _anna, _bram = two_player_match()
    with transaction.atomic(), one_round_trip():
        assert connection.connection.pgconn.pipeline_status  # ON: nothing waited for yet
        match.prompt = "pipelined"
        update_rows([match], ["prompt"])
        row = a_move(match, match.head_seq + 1)
        insert_rows([row])
        assert row.pk is None  # its key is read with the other answers, as the block ends
    assert not connection.connection.pgconn.pipeline_status
    assert Move.objects.get(pk=row.pk).seq == match.head_seq + 1
    assert not row._state.adding
    assert Match.objects.get(pk=match.pk).prompt == "pipelined"


def test_an_error_inside_is_django_s_and_nothing_is_written():
    match, _anna, _bram = two_player_match()
    insert_rows([a_move(match, match.head_seq + 1)])
    before = Move.objects.filter(match=match).count()
    with pytest.raises(IntegrityError), transaction.atomic(), one_round_trip():
        match.prompt = "never saved"
        update_rows([match], ["prompt"])
        with connection.cursor() as cursor:  # a repeated (match, seq): refused by the index
            cursor.execute(
                "INSERT INTO games_move (match_id, seq, seat, kind, payload, source, digest,"
                " note, created_at) VALUES (%s, %s, 0, 'move', '{}', 'web', 'd', '', now())",
                [match.pk, match.head_seq + 1],
            )
    assert Match.objects.get(pk=match.pk).prompt != "never saved"
    assert Move.objects.filter(match=match).count() == before
    assert Match.objects.filter(pk=match.pk).exists()  # the connection is usable again


def test_switched_off_each_statement_waits_for_its_answer(settings):
    settings.DATABASE_PIPELINE = False
    match, _anna, _bram = two_player_match()
    with transaction.atomic(), one_round_trip():
        assert not connection.connection.pgconn.pipeline_status
        row = a_move(match, match.head_seq + 1)
        insert_rows([row])
        assert row.pk is not None  # answered at once


def test_a_failed_pipeline_leaves_no_statement_counted_as_prepared_that_is_not():
    """In a pipeline a PREPARE after a failed statement is never run. A connection that took
    it as prepared would answer every later move with "prepared statement does not exist"
    (a repeated idempotency key, a double click, fails that way first)."""
    match, _anna, _bram = two_player_match()
    insert_rows([a_move(match, match.head_seq + 1)])
    connection.close()  # a connection of its own: nothing prepared on it yet
    with pytest.raises(IntegrityError), transaction.atomic(), one_round_trip():
        insert_rows([a_move(match, match.head_seq + 1)])  # the (match, seq) index refuses it
        match.prompt = "never saved"
        update_rows([match], ["prompt"])  # a first time on this connection, after the error
    with transaction.atomic(), one_round_trip():
        match.prompt = "saved"
        update_rows([match], ["prompt"])
        insert_rows([a_move(match, match.head_seq + 2)])
    assert Match.objects.get(pk=match.pk).prompt == "saved"
    with connection.cursor() as cursor:  # prepared now, once the pipeline went through
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any(s.startswith('UPDATE "games_match"') for s in prepared), prepared
    assert any(s.startswith('INSERT INTO "games_move"') for s in prepared), prepared
    with transaction.atomic(), one_round_trip():
        match.prompt = "again"
        update_rows([match], ["prompt"])
    assert Match.objects.get(pk=match.pk).prompt == "again"
