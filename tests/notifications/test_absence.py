"""Absence is not vacation (issue 46, items 1 and 2): the clock spends a player's vacation
bank only for a player who showed a sign of life recently, one day at a time, from the
deadline as it stands; a booked vacation is honoured whatever; a silent player times out on
the match's own terms; every match has a cap, counted in that match alone."""

from datetime import UTC, date, datetime, timedelta

import time_machine

from games import services, vacation_bank
from games.models import MoveKind, Seat
from notifications.models import Kind, Notification
from players.models import Vacation
from players.preferences import book_vacation

from .conftest import send_all, start_match
from .test_vacation_bank import FRIDAY_NOON, alive, deadline_of, sweep_at


def timeouts(match, user) -> int:
    seat = Seat.objects.get(match=match, user=user).number
    return match.moves.filter(kind=MoveKind.TIMEOUT, seat=seat).count()


def test_a_silent_player_times_out_at_the_deadline_and_can_be_replaced(anna, ben, settings):
    settings.PBM_VACATION_DAYS_PER_YEAR = 20
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1)
        send_all()
    first = deadline_of(match, anna)
    alive(ben, at=first)  # Ben is here; Anna has not been seen since she joined
    sent = sweep_at(first + timedelta(minutes=1))
    assert timeouts(match, anna) == 1 and timeouts(match, ben) == 0
    assert not Vacation.objects.filter(user=anna).exists()
    assert not [m for m in sent if m.to == [anna.email] and "Vacation" in m.subject]
    # Ben may offer her seat to a substitute at once: a day per move, no weeks.
    seat = Seat.objects.get(match=match, user=anna).number
    with time_machine.travel(first + timedelta(minutes=2), tick=False):
        services.offer_seat(match_id=match.pk, seat=seat, by=ben)
    assert Seat.objects.get(match=match, user=anna).takeover_offered_at is not None


def test_spending_stops_once_the_last_sign_of_life_is_older_than_the_window(anna, ben, settings):
    settings.PBM_VACATION_DAYS_PER_YEAR = 20
    settings.PBM_SIGN_OF_LIFE_DAYS = 2
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    alive(anna, at=FRIDAY_NOON)  # her last sign of life: when she was asked
    first = deadline_of(match, anna)  # Saturday noon
    sweep_at(first + timedelta(minutes=1))  # seen a day ago: Saturday is spent
    assert timeouts(match, anna) == 0
    assert deadline_of(match, anna) == first + timedelta(days=1)
    sweep_at(first + timedelta(days=1, minutes=1))  # seen two days ago: she times out
    assert timeouts(match, anna) == 1
    assert Vacation.objects.filter(user=anna, automatic=True).count() == 1
    # Asked Friday noon, timed out Sunday noon: days per move plus the window, at most.
    waited = first + timedelta(days=1, minutes=1) - FRIDAY_NOON
    assert waited <= timedelta(days=1) + vacation_bank.sign_of_life_window() + timedelta(hours=1)


def test_a_sign_of_life_is_a_move_a_reply_a_post_or_a_sign_in(anna, ben):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    since = FRIDAY_NOON - timedelta(hours=1)
    assert not vacation_bank.shows_sign_of_life(anna, since)
    with time_machine.travel(FRIDAY_NOON + timedelta(hours=1), tick=False):
        from games.chat import post_message

        post_message(match=match, user=anna, text="hello", source="web")
    assert vacation_bank.shows_sign_of_life(anna, since)
    assert not vacation_bank.shows_sign_of_life(anna, FRIDAY_NOON + timedelta(hours=2))
    assert not vacation_bank.shows_sign_of_life(ben, since)
    alive(ben, at=FRIDAY_NOON)
    assert vacation_bank.shows_sign_of_life(ben, since)


def test_a_booked_vacation_is_honoured_without_any_sign_of_life(anna, ben, settings):
    settings.PBM_VACATION_DAYS_PER_YEAR = 20
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1)
        send_all()
        book_vacation(user=anna, first_day=date(2024, 6, 8), last_day=date(2024, 6, 10))
    first = deadline_of(match, anna)  # stored: Saturday noon; her vacation moves it on
    sent = sweep_at(first + timedelta(days=2))
    assert timeouts(match, anna) == 0
    assert not Vacation.objects.filter(user=anna, automatic=True).exists()
    assert not [m for m in sent if m.to == [anna.email]]
    sweep_at(datetime(2024, 6, 11, 12, 1, tzinfo=UTC))  # Tuesday: the day she owed is over
    assert timeouts(match, anna) == 1


def test_a_cap_counts_the_days_of_its_own_match_only(anna, ben, settings):
    """Anna is capped at 2 days in one match and plays two uncapped ones (the site's
    default cap, larger): the capped match times out after 2 days of spending, whatever
    the others spend, and a date spent in several matches costs her bank one day."""
    settings.PBM_VACATION_DAYS_PER_YEAR = 20
    settings.PBM_VACATION_CAP_DAYS = 30
    with time_machine.travel(FRIDAY_NOON, tick=False):
        capped = start_match(anna, ben, days_per_move=1, vacation_cap=2)
        others = [start_match(anna, ben, days_per_move=1) for _ in range(2)]
    assert [m.vacation_cap for m in others] == [30, 30]
    first = deadline_of(capped, anna)
    for n in range(3):
        alive(anna, ben, at=first + timedelta(days=n))
        sweep_at(first + timedelta(days=n, minutes=1))
    assert timeouts(capped, anna) == 1  # after 2 days spent, on the third
    assert [timeouts(m, anna) for m in others] == [0, 0]
    assert vacation_bank.spent_in(anna, capped) == 2
    assert [vacation_bank.spent_in(anna, m) for m in others] == [3, 3]
    # The capped match's deadline was never moved by the days the others spent.
    assert capped.moves.filter(kind=MoveKind.TIMEOUT).first().created_at == first + timedelta(
        days=2, minutes=1
    )
    assert vacation_bank.bank_of(anna, date(2024, 6, 11)).used == 3  # three dates, not eight
    assert Notification.objects.filter(user=anna, kind=Kind.VACATION, match=capped).count() == 2


def test_every_match_has_a_cap_and_the_page_shows_it(client, anna, ben, settings):
    settings.PBM_VACATION_CAP_DAYS = 7
    match = start_match(anna, ben)
    assert match.vacation_cap == 7
    assert start_match(anna, ben, vacation_cap=0).vacation_cap == 0
    client.force_login(anna)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "7 days of a player" in page


def test_no_reminders_for_a_player_who_timed_out_and_is_not_seen_since(anna, ben):
    from notifications import reminders

    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=2)
        services.submit_move(match_id=match.pk, player=ben, command="1", source="web")
    first = deadline_of(match, anna)
    sweep_at(first + timedelta(minutes=1))  # Anna, never seen, times out
    assert timeouts(match, anna) == 1
    again = deadline_of(match, anna)  # her next decision
    with time_machine.travel(again - timedelta(hours=23), tick=False):
        reminders.send_reminders()
    assert not Notification.objects.filter(kind=Kind.REMINDER, user=anna).exists()
    alive(anna, at=again - timedelta(hours=3))  # she signs in: the last reminder reaches her
    with time_machine.travel(again - timedelta(hours=2), tick=False):
        reminders.send_reminders()
    assert Notification.objects.filter(kind=Kind.REMINDER, user=anna).count() == 1


def test_the_day_spent_is_the_one_the_deadline_as_it_stands_falls_on(anna, ben, settings):
    """Stored: Saturday noon; her vacation (Saturday to Monday) moved it to Tuesday noon.
    Late on Tuesday she has one day spent, Tuesday: not Saturday to Tuesday at once."""
    settings.PBM_VACATION_DAYS_PER_YEAR = 20
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1)
        book_vacation(user=anna, first_day=date(2024, 6, 8), last_day=date(2024, 6, 10))
    tuesday_noon = datetime(2024, 6, 11, 12, 0, tzinfo=UTC)
    alive(anna, ben, at=tuesday_noon)
    sweep_at(tuesday_noon + timedelta(minutes=1))
    spent = Vacation.objects.filter(user=anna, automatic=True)
    assert [v.first_day for v in spent] == [date(2024, 6, 11)]
    assert deadline_of(match, anna) == tuesday_noon + timedelta(days=1)
    assert timeouts(match, anna) == 0
