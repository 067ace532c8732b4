"""Twenty threads submit to one match at the same instant, on PostgreSQL with row locks."""

import threading

import pytest
from django.db import connection

from games import services
from games.models import Match, Move
from games.selectors import load_state, verify_match
from tests.factories import make_user

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def require_postgres():
    assert connection.vendor == "postgresql", "this suite needs DATABASE_URL=postgres://..."


def run_at_once(calls):
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # recorded and asserted on below
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def four_player_match():
    users = [make_user(name) for name in ("Anna", "Bram", "Cor", "Dirk")]
    match = services.create_match(
        creator=users[0],
        game_slug="sealed-cards",
        players=4,
        invite_emails=[u.email for u in users[1:]],
        seed="race",
    )
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    return Match.objects.get(pk=match.pk)


def test_twenty_threads_leave_a_log_without_gap_duplicate_or_illegal_move(require_postgres):
    match = four_player_match()
    hands = load_state(match)["hands"]
    # Every seat tries every card it holds, and some twice: 20 attempts for 4 legal slots
    # per trick; whatever wins the lock decides which are still legal.
    calls = []
    for attempt in range(20):
        seat = attempt % 4
        card = hands[seat][(attempt // 4) % 3]
        calls.append(
            lambda seat=seat, card=card: services.submit_move(
                match_id=match.pk, seat=seat, move={"type": "play", "card": card}, source="api"
            )
        )
    results = run_at_once(calls)
    errors = [r for r in results if isinstance(r, Exception)]
    assert not errors, errors
    accepted = [r for r in results if r.ok]
    match.refresh_from_db()
    seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))  # no gap, no duplicate
    people_moves = Move.objects.filter(match=match, source="api").count()
    assert people_moves == len(accepted) >= 4
    assert verify_match(match).ok  # every move replays: it was legal where it was applied


def test_a_repeated_idempotency_key_appends_once_under_a_race(require_postgres):
    match = four_player_match()
    card = load_state(match)["hands"][0][0]
    calls = [
        lambda: services.submit_move(
            match_id=match.pk,
            seat=0,
            move={"type": "play", "card": card},
            source="email",
            idempotency_key="<same@mail>",
        )
        for _ in range(10)
    ]
    results = run_at_once(calls)
    assert all(not isinstance(r, Exception) and r.ok for r in results), results
    assert sum(1 for r in results if not r.duplicate) == 1
    assert Move.objects.filter(match=match).count() == 1
