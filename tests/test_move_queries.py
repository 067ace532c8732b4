"""How many queries each kind of move sends to the database, counted so a regression fails.

Counted: the statements Django sends. Not counted: transaction control (BEGIN and COMMIT in
production, a savepoint inside a test's transaction). The position cache is warm, as it is
for the next move of a match in play; `test_position_cache.py` covers a cold one. The cache
is this process's own here, so a parallel test run that clears a shared Redis cannot make
a move miss it.
"""

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.api import api_token
from games.models import Move
from games.selectors import load_state
from notifications.models import Vacation
from tests.factories import two_player_match

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("own_cache"),
]


@pytest.fixture
def own_cache(settings):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "q"}
    }


TRANSACTION_CONTROL = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


class Counted:
    def __init__(self):
        self.capture = CaptureQueriesContext(connection)
        self.piped: list[str] = []  # sent in pipeline mode (PostgreSQL: games.rows.one_round_trip)

    def __enter__(self):
        self.capture.__enter__()
        self._wrapper = connection.execute_wrapper(self._note)
        self._wrapper.__enter__()
        return self

    def __exit__(self, *exc):
        self._wrapper.__exit__(*exc)
        self.capture.__exit__(*exc)

    def _note(self, execute, sql, params, many, context):
        raw = connection.connection
        if connection.vendor == "postgresql" and raw.pgconn.pipeline_status:
            self.piped.append(sql)
        return execute(sql, params, many, context)

    @property
    def sql(self) -> list[str]:
        return [q["sql"] for q in self.capture if not q["sql"].startswith(TRANSACTION_CONTROL)]

    def __len__(self) -> int:
        return len(self.sql)


def post(client, match, token, command="1", key=None, seq=None):
    body = {"command": command}
    if key:
        body["idempotency_key"] = key
    if seq is not None:
        body["seq"] = seq
    return client.post(
        f"/api/matches/{match.pk}/moves/",
        json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


@pytest.fixture
def duel():
    """A started two-player Sealed Cards match: both seats must play a card (simultaneous)."""
    match, first, second = two_player_match()
    tokens = {s.number: api_token(s.user) for s in match.seats.select_related("user")}
    return match, first, second, tokens


def test_an_api_move_that_asks_nobody_new_sends_four_queries(client, duel):
    match, first, _second, tokens = duel
    with Counted() as queries:
        response = post(client, match, tokens[first], key="k1", seq=0)
    assert response.status_code == 200, response.content
    # the lock with the seats, their players (whom the token is checked against) and their
    # preferences; the insert; the match's projections; the seat's deadline cleared
    assert len(queries) == 4, "\n".join(queries.sql)
    if connection.vendor == "postgresql":  # SQLite has no row locks
        assert sum("FOR UPDATE" in q for q in queries.sql) == 1


def test_an_api_move_that_asks_both_seats_again_sends_five_queries(client, duel):
    match, first, second, tokens = duel
    assert post(client, match, tokens[first]).status_code == 200
    with Counted() as queries:
        response = post(client, match, tokens[second])
    assert response.status_code == 200, response.content
    # ... and both deadlines in one update, both turn notices (email and webhook rows of both
    # seats) in one insert; neither player booked a vacation (the lock statement says so),
    # so no vacation days are read
    assert len(queries) == 5, "\n".join(queries.sql)
    assert sum(q.startswith('INSERT INTO "notifications_notification"') for q in queries.sql) == 1
    assert sum(q.startswith('UPDATE "games_seat"') for q in queries.sql) == 1
    assert not any(q.startswith('SELECT "notifications_vacation"') for q in queries.sql)
    if connection.vendor == "postgresql":  # the writes share one round trip
        assert [q.split(" ")[:3] for q in queries.piped] == [
            ["INSERT", "INTO", '"games_move"'],
            ["UPDATE", '"games_match"', "SET"],
            ["UPDATE", '"games_seat"', "SET"],
            ["INSERT", "INTO", '"notifications_notification"'],
        ]


def test_a_player_on_vacation_adds_one_query_and_keeps_the_day(client, duel):
    match, first, second, tokens = duel
    user = match.seats.get(number=first).user
    tomorrow = timezone.localdate() + timedelta(days=1)
    Vacation.objects.create(user=user, first_day=tomorrow, last_day=tomorrow)
    assert post(client, match, tokens[first]).status_code == 200
    with Counted() as queries:
        response = post(client, match, tokens[second])
    assert response.status_code == 200, response.content
    # the booking players' vacation days, read once for the move
    assert len(queries) == 6, "\n".join(queries.sql)
    vacation_reads = [q for q in queries.sql if q.startswith('SELECT "notifications_vacation"')]
    assert len(vacation_reads) == 1
    seats = {s.number: s for s in match.seats.all()}
    # the day off is not counted: the player on vacation gets a day more than the other
    assert seats[first].deadline_at - seats[second].deadline_at == timedelta(days=1)


def test_the_move_that_ends_the_match(client, duel):
    match, first, second, tokens = duel
    assert post(client, match, tokens[first]).status_code == 200
    assert post(client, match, tokens[second]).status_code == 200
    assert post(client, match, tokens[first]).status_code == 200
    with Counted() as queries:  # the last cards are forced: this move ends the match
        response = post(client, match, tokens[second])
    assert response.status_code == 200 and response.json()["status"] == "finished"
    # the lock; this move and the two forced last cards in one insert; the match's
    # projections and result; both deadlines cleared in one update; the end notices in one
    # insert
    assert len(queries) == 5, "\n".join(queries.sql)
    inserted = [q for q in queries.sql if q.startswith('INSERT INTO "games_move"')]
    assert len(inserted) == 1 and inserted[0].count("), (") == 2  # three rows
    assert list(match.moves.order_by("seq").values_list("seq", flat=True)) == [1, 2, 3, 4, 5, 6]


def test_a_repeated_key_is_answered_without_a_second_move(client, duel):
    match, first, _second, tokens = duel
    assert post(client, match, tokens[first], key="k1").status_code == 200
    with Counted() as queries:
        again = post(client, match, tokens[first], key="k1")
    assert again.json()["duplicate"] is True
    # the lock (no longer this seat's turn), the key; then, since a key may be reused only
    # for the same move, the command is read against the position that move was applied
    # to: its snapshot, the log tail and the seats
    assert len(queries) == 5, "\n".join(queries.sql)
    assert Move.objects.filter(match=match).count() == 1


def test_a_repeated_key_whose_seat_is_asked_again_is_answered_by_the_unique_index(duel):
    match, first, second, _tokens = duel
    card = min(load_state(match)["hands"][first])
    services.submit_move(
        match_id=match.pk,
        seat=first,
        move={"type": "play", "card": card},
        source="api",
        idempotency_key="k1",
    )
    other = min(load_state(match)["hands"][second])
    services.submit_move(
        match_id=match.pk, seat=second, move={"type": "play", "card": other}, source="api"
    )
    match.refresh_from_db()
    assert first in match.to_act  # asked again: the repeat is legal and only the key differs
    card = min(load_state(match)["hands"][first])
    result = services.submit_move(
        match_id=match.pk,
        seat=first,
        move={"type": "play", "card": card},
        source="api",
        idempotency_key="k1",
    )
    assert result.ok and result.duplicate
    assert result.applied[0].seq == 1
    assert Move.objects.filter(match=match).count() == 2


def test_an_illegal_command_writes_nothing(client, duel):
    match, first, _second, tokens = duel
    with Counted() as queries:
        response = post(client, match, tokens[first], command="play 99")
    assert response.status_code == 400
    assert not any(q.startswith(("INSERT", "UPDATE")) for q in queries.sql)
    assert len(queries) == 1, "\n".join(queries.sql)  # the lock


def test_a_resignation(duel):
    match, first, _second, _tokens = duel
    with Counted() as queries:
        result = services.resign(match_id=match.pk, seat=first, source="web")
    assert result.ok
    # the lock; the insert; the match's projections and result; both seats (resigned,
    # deadlines) in one update; the end notices
    assert len(queries) == 5, "\n".join(queries.sql)


def test_a_deadline_played_for_a_seat(duel, time_machine):
    match, first, _second, _tokens = duel
    seat = match.seats.get(number=first)
    time_machine.move_to(seat.deadline_at + timedelta(minutes=1))
    assert seat.deadline_at < timezone.now()
    with Counted() as queries:
        result = services.enforce_timeout(
            match_id=match.pk, seat=first, deadline_seq=seat.deadline_seq
        )
    assert result.ok, result.message
    # the lock; the insert; the match's projections; the seat (timeouts, deadline) in one
    # update; the timeout notice
    assert len(queries) == 5, "\n".join(queries.sql)
