"""Seats that never stall, and tournaments, by email (issue 30, item 5): `substitute <player>`,
`expel <player>` and `withdraw` in a reply, read as a page's buttons do."""

from datetime import timedelta

import time_machine
from django.core import mail
from django.utils import timezone

from games import clock
from games.models import Seat
from players.models import Preferences
from replies import inbound
from tests.factories import make_user
from tournaments import services as tournaments

from .conftest import reply_to, send_all, start_match, turn_email


def answer_to(user) -> str:
    send_all()
    return next(m for m in reversed(mail.outbox) if user.email in m.to).body


def test_offer_and_skip_a_seat_that_keeps_timing_out_by_email(anna, ben, no_vacation_bank):
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        match = start_match(anna, ben, days_per_move=1)
    ben_seat = Seat.objects.get(match=match, user=ben)
    with time_machine.travel(start + timedelta(days=1, minutes=5), tick=False):
        clock.sweep_deadlines(enforce=clock.enforce)  # both time out once
        turn = turn_email(match, anna)
        inbound.receive_raw(reply_to(turn, "substitute Ben"))
        assert "offered in the lobby" in answer_to(anna)
        ben_seat.refresh_from_db()
        assert ben_seat.takeover_offered_at is not None
        inbound.receive_raw(reply_to(turn_email(match, anna), "expel Ben"))
        assert "timed out 2 times" in answer_to(anna)  # once is not enough to vote
    Seat.objects.filter(pk=ben_seat.pk).update(timeouts=2)
    with time_machine.travel(start + timedelta(days=1, minutes=10), tick=False):
        inbound.receive_raw(reply_to(turn_email(match, anna), "expel Ben"))
        assert "Ben's seat is skipped" in answer_to(anna)
    assert Seat.objects.get(pk=ben_seat.pk).skipped


def test_withdraw_from_a_tournament_by_email(anna, ben):
    t = tournaments.create_tournament(
        organiser=make_user("Olga"),
        name="Mail cup",
        game_slug="sealed-cards",
        format="swiss",
        table_size=2,
        rounds=1,
        max_players=2,
    )
    tournaments.join(t, anna)
    tournaments.join(t, ben)
    tournaments.start(t.pk)  # a full tournament starts on commit; this test does not commit
    match = t.round_set.get().tables.get().match
    inbound.receive_raw(reply_to(turn_email(match, anna), "withdraw"))
    assert "You have left Mail cup" in answer_to(anna)
    assert t.entries.get(user=anna).withdrawn_at is not None


def test_join_a_tournament_and_take_over_a_seat_by_email(anna, ben, no_vacation_bank):
    t = tournaments.create_tournament(
        organiser=make_user("Olga"),
        name="Open cup",
        game_slug="sealed-cards",
        format="swiss",
        table_size=2,
        rounds=1,
        max_players=8,
    )
    match = start_match(anna, ben, days_per_move=1)
    inbound.receive_raw(reply_to(turn_email(match, anna), f"tournament join {t.pk}"))
    assert "You are in Open cup" in answer_to(anna)
    assert t.entries.filter(user=anna).exists()
    # Ben writes German: "Turnier mach mit 7" is "tournament join 7".
    Preferences.objects.update_or_create(user=ben, defaults={"language": "de"})
    inbound.receive_raw(reply_to(turn_email(match, ben), f"Turnier mach mit {t.pk}"))
    assert t.entries.filter(user=ben).exists()
    assert "Open cup" in answer_to(ben)
    # Ben's seat in another match timed out and was offered: Anna takes it over by email.
    carl, dora = make_user("Carl"), make_user("Dora")
    other = start_match(carl, dora, days_per_move=1)
    dora_seat = Seat.objects.get(match=other, user=dora)
    Seat.objects.filter(pk=dora_seat.pk).update(timeouts=1, takeover_offered_at=timezone.now())
    inbound.receive_raw(reply_to(turn_email(match, anna), f"takeover {other.pk}"))
    assert "is yours" in answer_to(anna)
    assert Seat.objects.get(pk=dora_seat.pk).user == anna
