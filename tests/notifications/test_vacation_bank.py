"""The vacation bank (issue 30, item 3): days a year, more for months played, spent by the
clock on the days a turn waits past its deadline, capped per match, on the preferences page
and in every turn email; and nobody forfeits a seat without an email warning first."""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine

from games import clock, services, vacation_bank
from games.models import Move, MoveKind, MoveSource, Seat
from games.selectors import load_state
from notifications.models import Kind, Notification
from players.models import NoticeMode, Preferences, Vacation
from players.preferences import book_vacation

from .conftest import headline, send_all, start_match

FRIDAY_NOON = datetime(2024, 6, 7, 12, 0, tzinfo=UTC)


def deadline_of(match, user):
    return Seat.objects.get(match=match, user=user).deadline_at


def sweep_at(moment):
    with time_machine.travel(moment, tick=False):
        clock.sweep_deadlines(enforce=clock.enforce)
        return send_all()


def alive(*users, at):
    """A sign of life (a sign-in) at `at`: the clock spends a bank day only for a player
    seen in the last PBM_SIGN_OF_LIFE_DAYS."""
    for user in users:
        user.last_login = at
        user.save(update_fields=["last_login"])


def test_a_passed_deadline_spends_a_bank_day_instead_of_timing_out(anna, ben, settings):
    settings.PBM_VACATION_DAYS_PER_YEAR = 2
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1)
        send_all()
    first = deadline_of(match, anna)
    alive(anna, ben, at=first)
    sent = sweep_at(first + timedelta(minutes=1))
    # Both seats waited past their deadline: a day spent each, no move played.
    assert match.moves.filter(kind=MoveKind.TIMEOUT).count() == 0
    assert deadline_of(match, anna) == first + timedelta(days=1)
    spent = Vacation.objects.filter(user=anna, automatic=True, match=match)
    assert [(v.first_day, v.last_day) for v in spent] == [(date(2024, 6, 8), date(2024, 6, 8))]
    to_anna = [m for m in sent if m.to == [anna.email]]
    assert len(to_anna) == 1 and "Vacation kept your turn" in headline(to_anna[0])
    body = to_anna[0].body
    assert "Days the clock may still spend in this match: 1." in body
    assert "Vacation days left in 2024: 1 of 2" in body  # the bank, as every turn email says
    # The next day the second day goes: one more mail, because the days run low; then the
    # bank is empty and the deadline plays.
    alive(anna, ben, at=first + timedelta(days=1))
    sent = sweep_at(first + timedelta(days=1, minutes=2))
    assert match.moves.filter(kind=MoveKind.TIMEOUT).count() == 0
    assert Vacation.objects.filter(user=anna, automatic=True).count() == 2
    to_anna = [m for m in sent if m.to == [anna.email]]
    assert len(to_anna) == 1 and "runs low" in headline(to_anna[0])
    sweep_at(first + timedelta(days=2, minutes=3))
    assert match.moves.filter(kind=MoveKind.TIMEOUT).count() == 2
    assert Notification.objects.filter(user=anna, kind=Kind.VACATION).count() == 2


def test_one_mail_when_spending_starts_not_one_a_day(anna, ben, settings):
    settings.PBM_VACATION_DAYS_PER_YEAR = 20
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1, vacation_cap=7)
        send_all()
    first = deadline_of(match, anna)
    for n in range(4):  # four days spent, four days alive: one mail, not four
        alive(anna, ben, at=first + timedelta(days=n))
        sweep_at(first + timedelta(days=n, minutes=1 + n))
    assert Vacation.objects.filter(user=anna, automatic=True).count() == 4
    assert Notification.objects.filter(user=anna, kind=Kind.VACATION).count() == 1
    alive(anna, ben, at=first + timedelta(days=4))
    sweep_at(first + timedelta(days=4, minutes=5))  # two left: they run low
    assert Notification.objects.filter(user=anna, kind=Kind.VACATION).count() == 2


def test_a_late_sweep_spends_one_day_at_a_time_from_the_deadline_as_it_stands(anna, ben, settings):
    settings.PBM_VACATION_DAYS_PER_YEAR = 3
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    first = deadline_of(match, anna)  # Saturday noon
    alive(anna, ben, at=first + timedelta(days=2))
    monday = first + timedelta(days=2, minutes=1)
    sweep_at(monday)  # found on Monday: Saturday alone is spent, the deadline moves a day
    days = Vacation.objects.filter(user=anna, automatic=True).values_list("first_day", flat=True)
    assert sorted(days) == [date(2024, 6, 8)]
    assert deadline_of(match, anna) == first + timedelta(days=1)
    sweep_at(monday + timedelta(minutes=1))  # still overdue: Sunday, then Monday
    sweep_at(monday + timedelta(minutes=2))
    days = Vacation.objects.filter(user=anna, automatic=True).values_list("first_day", flat=True)
    assert sorted(days) == [date(2024, 6, 8), date(2024, 6, 9), date(2024, 6, 10)]
    assert match.moves.filter(kind=MoveKind.TIMEOUT).count() == 0
    sweep_at(deadline_of(match, anna) + timedelta(minutes=1))  # the bank is empty
    assert Vacation.objects.filter(user=anna, automatic=True).count() == 3
    assert match.moves.filter(kind=MoveKind.TIMEOUT).count() == 2


def test_the_match_caps_the_days_the_clock_may_spend(anna, ben, settings):
    settings.PBM_VACATION_DAYS_PER_YEAR = 20
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1, vacation_cap=1)
    first = deadline_of(match, anna)
    alive(anna, ben, at=first)
    sweep_at(first + timedelta(minutes=1))
    assert match.moves.filter(kind=MoveKind.TIMEOUT).count() == 0
    sweep_at(first + timedelta(days=1, minutes=2))
    assert match.moves.filter(kind=MoveKind.TIMEOUT).count() == 2
    assert Vacation.objects.filter(user=anna, automatic=True).count() == 1


def test_nobody_forfeits_without_an_email_warning_first(anna, no_vacation_bank):
    # Anna asked for no email at all: the warning before a forfeit still goes out.
    Preferences.objects.create(user=anna, mode=NoticeMode.NONE)
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, bots=1, days_per_move=1, timeout_policy="forfeit")
        match.forfeit_after = 1
        match.save(update_fields=["forfeit_after"])
    first = deadline_of(match, anna)
    before = list(match.moves.values_list("kind", flat=True))  # the bot's, if it moved first
    sent = sweep_at(first + timedelta(minutes=1))
    assert list(match.moves.values_list("kind", flat=True)) == before
    warning = [m for m in sent if m.to == [anna.email]]
    assert len(warning) == 1 and headline(warning[0]).startswith("Warning: move by")
    assert "Your next timeout forfeits your seat" in warning[0].body
    assert deadline_of(match, anna) == first + timedelta(days=1, minutes=1)
    sweep_at(first + timedelta(days=1, minutes=2))
    match.refresh_from_db()
    assert list(match.moves.values_list("kind", flat=True)) == [*before, "timeout", "resign"]
    assert Notification.objects.filter(user=anna, kind=Kind.WARNING).count() == 1


def test_the_bank_grows_with_months_played_up_to_its_cap(anna, ben, settings):
    settings.PBM_VACATION_DAYS_PER_YEAR = 20
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben)
    seat = Seat.objects.get(match=match, user=anna).number
    for month in (1, 2, 3):
        with time_machine.travel(datetime(2024, month, 5, tzinfo=UTC), tick=False):
            Move.objects.create(
                match=match, seq=1000 + month, seat=seat, source=MoveSource.WEB, digest="x"
            )
    assert vacation_bank.months_played(anna, 2024) == 3  # the match's start wrote no move of hers
    bank = vacation_bank.bank_of(anna, date(2024, 6, 7))
    assert (bank.earned, bank.allowance) == (6, 26)
    assert vacation_bank.months_played(ben, 2024) == 0  # only the months a player moved in
    settings.PBM_VACATION_DAYS_EARNED_CAP = 4
    assert vacation_bank.bank_of(anna, date(2024, 6, 7)).earned == 4
    # Booking checks the player's own allowance.
    with time_machine.travel(FRIDAY_NOON, tick=False):
        book_vacation(
            user=anna,
            first_day=date(2024, 7, 1),
            last_day=date(2024, 7, 24),
            allowance=lambda year: vacation_bank.allowance(anna, year),
        )
        with pytest.raises(ValueError, match="allowance is 24"):
            book_vacation(
                user=anna,
                first_day=date(2024, 8, 1),
                last_day=date(2024, 8, 1),
                allowance=lambda year: vacation_bank.allowance(anna, year),
            )


def test_the_preferences_page_shows_the_bank_and_keeps_spent_days(client, anna, settings):
    settings.PBM_VACATION_DAYS_PER_YEAR = 20
    Vacation.objects.create(user=anna, first_day=date(2030, 1, 2), last_day=date(2030, 1, 2))
    spent = Vacation.objects.create(
        user=anna, first_day=date(2030, 1, 5), last_day=date(2030, 1, 5), automatic=True
    )
    with time_machine.travel(datetime(2030, 1, 10, 12, tzinfo=UTC), tick=False):
        client.force_login(anna)
        page = client.get("/n/preferences/").content.decode()
        assert "Vacation days left in 2030: 18 of 20" in page
        assert "spent while your turn waited" in page
        client.post("/n/preferences/", {"action": "cancel-vacation", "vacation": spent.pk})
    assert Vacation.objects.filter(pk=spent.pk).exists()  # a spent day is not given back


def test_days_are_spent_only_while_it_is_the_players_turn(anna, ben, settings):
    settings.PBM_VACATION_DAYS_PER_YEAR = 5
    with time_machine.travel(FRIDAY_NOON, tick=False):
        match = start_match(anna, ben, days_per_move=1)
        anna_seat = Seat.objects.get(match=match, user=anna).number
        card = load_state(match)["hands"][anna_seat][0]
        services.submit_move(
            match_id=match.pk, player=anna, move={"type": "play", "card": card}, source="web"
        )
    match.refresh_from_db()
    assert match.to_act == [1 - anna_seat]  # Ben's turn only
    alive(ben, at=FRIDAY_NOON)
    sweep_at(deadline_of(match, ben) + timedelta(minutes=1))
    assert Vacation.objects.filter(user=ben, automatic=True).count() == 1
    assert Vacation.objects.filter(user=anna).count() == 0
    assert vacation_bank.bank_of(anna, date(2024, 6, 8)).left == 5 + 2  # she moved in June


def test_the_profile_shows_the_bank_to_its_player_only(client, anna, ben, settings):
    settings.PBM_VACATION_DAYS_PER_YEAR = 20
    client.force_login(anna)
    own = client.get(f"/players/{anna.pk}/").content.decode()
    assert "Vacation days left in" in own and "of 20" in own
    client.force_login(ben)
    assert "Vacation days left" not in client.get(f"/players/{anna.pk}/").content.decode()
