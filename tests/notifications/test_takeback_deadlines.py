"""A takeback gives no time back (docs/takebacks.md): the player is asked again with the
clock they had for the cancelled decision, per move or on a time bank, never a fresh one."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from games import clock, services
from games.models import Match, MoveKind, SeatClock
from games.selectors import load_state
from players.calendar import calendar_of

from .conftest import seat_of, start_match

pytestmark = pytest.mark.django_db
START = datetime(2024, 6, 3, 12, 0, tzinfo=ZoneInfo("UTC"))  # a Monday


def play(match, seat, which=0):
    card = load_state(Match.objects.get(pk=match.pk))["hands"][seat][which]
    result = services.submit_move(
        match_id=match.pk, seat=seat, move={"type": "play", "card": card}, source="web"
    )
    assert result.ok, result.message


def seat_row(match, user):
    return match.seats.get(user=user)


def test_the_deadline_per_move_is_the_one_the_player_had(anna, ben):
    with time_machine.travel(START, tick=False):
        match = start_match(anna, ben, days_per_move=3, takebacks=True)
    asked = seat_row(match, anna)
    assert asked.deadline_at == START + timedelta(days=3)
    with time_machine.travel(START + timedelta(days=2), tick=False):
        play(match, asked.number)
    with time_machine.travel(START + timedelta(days=2, hours=5), tick=False):
        assert services.take_back(match_id=match.pk, seat=asked.number, source="web").ok
    again = seat_row(match, anna)
    assert again.deadline_at == START + timedelta(days=3)  # not 3 days after the takeback
    assert again.waiting_since == asked.waiting_since
    assert again.deadline_seq == match.moves.get(kind=MoveKind.TAKEBACK).seq
    with time_machine.travel(START + timedelta(days=3, minutes=1), tick=False):
        assert (match.pk, asked.number, again.deadline_seq) in clock.overdue()


def test_no_takeback_once_the_deadline_of_that_decision_has_passed(anna, ben):
    with time_machine.travel(START, tick=False):
        match = start_match(anna, ben, days_per_move=1, takebacks=True)
    seat = seat_of(match, anna)
    with time_machine.travel(START + timedelta(hours=23), tick=False):
        play(match, seat)
    with time_machine.travel(START + timedelta(days=1, minutes=1), tick=False):
        refused = services.take_back(match_id=match.pk, seat=seat, source="web")
    assert not refused.ok and "deadline" in refused.message


def test_a_time_bank_is_charged_as_if_the_cancelled_answer_was_never_made(anna, ben):
    with time_machine.travel(START, tick=False):
        match = start_match(
            anna, ben, time_control="bank", bank_days=5, increment_days=1, takebacks=True
        )
    seat = seat_of(match, anna)
    assert seat_row(match, anna).deadline_at == START + timedelta(days=5)
    with time_machine.travel(START + timedelta(days=2), tick=False):
        play(match, seat)
    with time_machine.travel(START + timedelta(days=2, hours=5), tick=False):
        assert services.take_back(match_id=match.pk, seat=seat, source="web").ok
    assert seat_row(match, anna).deadline_at == START + timedelta(days=5)
    with time_machine.travel(START + timedelta(days=3), tick=False):
        play(match, seat, which=-1)
        play(match, seat_of(match, ben))  # the trick is complete: both are asked again
    # 5 days - 3 used + 1 increment (earned once, not for the cancelled answer too).
    assert seat_row(match, anna).deadline_at == START + timedelta(days=3 + 3)


def test_a_time_bank_settled_at_the_cancelled_move_gives_its_increment_back(anna, ben):
    """When the cancelled move asked the same seat again, `deadline_for` had charged the time
    used and paid the increment then; the takeback keeps the charge, not the increment."""
    with time_machine.travel(START, tick=False):
        match = start_match(
            anna, ben, time_control="bank", bank_days=5, increment_days=1, takebacks=True
        )
    seat = seat_of(match, anna)
    with time_machine.travel(START + timedelta(days=2), tick=False):
        play(match, seat)
    cancelled = match.moves.get(seq=1)
    bank = SeatClock.objects.get(match=match, seat=seat)
    bank.bank_seconds, bank.asked_at, bank.asked_seq = 4 * 86400, cancelled.created_at, 1
    bank.save()  # as deadline_for leaves it when the move asks the seat again
    row = seat_row(match, anna)
    assert clock.deadline_restored(
        match, row, cancelled, calendar_of(row.user)
    ) == START + timedelta(days=5)
    bank.refresh_from_db()
    assert (bank.bank_seconds, bank.asked_seq) == (3 * 86400, 1)
    assert bank.asked_at + timedelta(seconds=bank.bank_seconds) == START + timedelta(days=5)
