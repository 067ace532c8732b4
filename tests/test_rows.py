"""The hand-written statements of a move's hot path (games/rows.py) read and write exactly
what the ORM would: the same instances with the same values, related objects cached, and
nothing more sent to the database. Run on SQLite and, in CI, again on PostgreSQL."""

from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import AppendOnlyError, Move, Seat
from games.rows import insert_rows, seats_with_people, update_rows
from notifications.models import Notification, Preferences, Vacation
from tests.factories import two_player_match

pytestmark = pytest.mark.django_db


def field_values(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.fixture
def match_with_people():
    match, anna_seat, bram_seat = two_player_match()
    bram = Seat.objects.get(match=match, number=bram_seat).user
    Preferences.objects.update_or_create(
        user=bram, defaults={"time_zone": "Europe/Amsterdam", "reminder_hours": [6, 30]}
    )
    Preferences.objects.filter(user__seats__match=match, user__seats__number=anna_seat).delete()
    today = date.today()
    Vacation.objects.create(user=bram, first_day=today, last_day=today + timedelta(days=2))
    Seat.objects.filter(match=match, number=anna_seat).update(
        deadline_at=timezone.now() + timedelta(days=2), standing_orders=["pass"]
    )
    return match, anna_seat, bram_seat


def test_the_seats_are_the_orm_s_seats_with_match_players_and_preferences(match_with_people):
    match, anna_seat, bram_seat = match_with_people
    expected = list(
        Seat.objects.filter(match=match)
        .select_related("match", "user", "user__notification_prefs")
        .order_by("number")
    )
    with CaptureQueriesContext(connection) as queries:
        seats = seats_with_people(match.pk)
        # Everything the move's hooks read comes with the statement.
        assert [s.match.game_slug for s in seats] == ["sealed-cards", "sealed-cards"]
        assert seats[0].match is seats[1].match
        users = [s.user.email for s in seats]
        bram = seats[bram_seat].user
        assert bram.notification_prefs.time_zone == "Europe/Amsterdam"
        assert bram.notification_prefs.user is bram
        with pytest.raises(ObjectDoesNotExist):
            _ = seats[anna_seat].user.notification_prefs  # no row: no query either
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert users == [s.user.email for s in expected]
    for mine, theirs in zip(seats, expected, strict=True):
        assert field_values(mine) == field_values(theirs)
        assert field_values(mine.match) == field_values(theirs.match)
        assert field_values(mine.user) == field_values(theirs.user)
    assert seats[anna_seat].standing_orders == ["pass"]  # JSON decoded as the ORM does
    assert seats[anna_seat].deadline_at == expected[anna_seat].deadline_at
    assert bram.notification_prefs.reminder_hours == [6, 30]
    assert [s.vacation_booked for s in seats] == [n == bram_seat for n in (0, 1)]
    assert not seats[0]._state.adding and seats[0]._state.db == "default"


def test_no_match_and_an_empty_seat(match_with_people):
    match, _anna_seat, bram_seat = match_with_people
    assert seats_with_people(match.pk + 1000) == []
    Seat.objects.filter(match=match, number=bram_seat).update(user=None, invited_email="x@y.z")
    seats = seats_with_people(match.pk)
    assert seats[bram_seat].user is None and seats[bram_seat].user_id is None


def test_the_lock_statement_reads_the_same_seats(match_with_people):
    match, *_ = match_with_people
    with transaction.atomic():
        locked = seats_with_people(match.pk, lock=True)
    assert [field_values(s) for s in locked] == [
        field_values(s) for s in Seat.objects.filter(match=match).order_by("number")
    ]


@pytest.mark.parametrize("count", [1, 2])
def test_update_rows_writes_the_fields_and_only_them(match_with_people, count):
    match, *_ = match_with_people
    before = seats_with_people(match.pk)
    seats = seats_with_people(match.pk)[:count]
    when = timezone.now().replace(microsecond=0) + timedelta(hours=5)
    for n, seat in enumerate(seats):
        seat.deadline_at = None if n else when
        seat.deadline_seq = 7 + n
        seat.timeouts = 3
        seat.display_name = "not saved"
    with CaptureQueriesContext(connection) as queries:
        update_rows(seats, ["deadline_at", "deadline_seq", "timeouts"])
    assert len(queries) == 1
    stored = list(Seat.objects.filter(match=match).order_by("number"))
    for n, seat in enumerate(stored[:count]):
        assert seat.deadline_at == (None if n else when)
        assert seat.deadline_seq == 7 + n
        assert seat.timeouts == 3
        assert seat.display_name != "not saved"
    if count == 1:  # the other seat is untouched
        assert field_values(stored[1]) == field_values(before[1])


def test_update_rows_writes_json(match_with_people):
    match, *_ = match_with_people
    match.to_act = [1]
    match.prompt = "Bram to play"
    update_rows([match], ["to_act", "prompt"])
    match.refresh_from_db()
    assert match.to_act == [1] and match.prompt == "Bram to play"


def test_update_rows_never_changes_a_logged_move(match_with_people):
    match, anna_seat, _ = match_with_people
    move = Move(
        match=match,
        seq=match.head_seq + 1,
        seat=anna_seat,
        kind="move",
        payload={},
        source="web",
        digest="f" * 64,
        note="as played",
    )
    insert_rows([move])
    move.note = "changed"
    with pytest.raises(AppendOnlyError):
        update_rows([move], ["note"])
    assert Move.objects.get(pk=move.pk).note != "changed"


def test_insert_rows_sets_keys_and_the_unique_index_still_refuses_a_repeat(match_with_people):
    match, anna_seat, _ = match_with_people
    seq = match.head_seq + 1
    row = Move(
        match=match,
        seq=seq,
        seat=anna_seat,
        kind="move",
        payload={"card": 3},
        source="web",
        idempotency_key="k1",
        digest="d" * 64,
    )
    insert_rows([row])
    assert row.pk is not None and not row._state.adding
    stored = Move.objects.get(pk=row.pk)
    assert stored.payload == {"card": 3} and stored.created_at is not None
    again = Move(
        match=match,
        seq=seq + 1,
        seat=anna_seat,
        kind="move",
        payload={},
        source="web",
        idempotency_key="k1",
        digest="e" * 64,
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_rows([again])


def test_insert_rows_keeps_an_existing_row_and_hands_back_its_key(match_with_people):
    user = get_user_model().objects.first()

    def rows(*keys):
        return [
            Notification(
                kind="turn",
                user=user,
                address=user.email,
                dedupe_key=k,
                context={"n": 1},
                send_after=timezone.now(),
            )
            for k in keys
        ]

    first = rows("a", "b")
    insert_rows(first, on_conflict_keep="dedupe_key")
    second = rows("b", "c")
    second[0].context = {"n": 2}
    insert_rows(second, on_conflict_keep="dedupe_key")
    assert second[0].pk == first[1].pk and second[1].pk not in (first[0].pk, first[1].pk)
    assert Notification.objects.get(pk=first[1].pk).context == {"n": 1}
    assert Notification.objects.filter(dedupe_key__in="abc").count() == 3


def test_instances_made_without_init_save_and_compare_like_the_orm_s(match_with_people):
    match, anna_seat, _ = match_with_people
    seat = seats_with_people(match.pk)[anna_seat]
    assert seat == Seat.objects.get(match=match, number=anna_seat)
    seat.timeouts = 3
    seat.save(update_fields=["timeouts"])
    assert Seat.objects.get(pk=seat.pk).timeouts == 3
    assert seat.user.seats.filter(match=match).count() == 1  # related managers work


def test_a_model_with_an_init_receiver_is_made_through_init(match_with_people):
    from django.db.models.signals import post_init

    from games.rows import Table

    match, anna_seat, _ = match_with_people
    table = Table(Seat, "s")
    with connection.cursor() as cursor:  # the row as the database sends it
        cursor.execute(
            f"SELECT {table.columns()} FROM games_seat s WHERE s.match_id = %s AND s.number = %s",
            [match.pk, anna_seat],
        )
        row = cursor.fetchone()
    seen = []

    def receiver(sender, instance, **kwargs):
        seen.append(instance)

    post_init.connect(receiver, sender=Seat)
    try:
        seat = table.instance(row)
    finally:
        post_init.disconnect(receiver, sender=Seat)
    assert seen == [seat] and seat.number == anna_seat
    plain = Table(Seat, "s").instance(row)
    assert field_values(plain) == field_values(seat) and seen == [seat]
