import pytest
from django.utils import timezone

from games import services
from games.models import Match, MatchStatus, Move
from games.selectors import load_state, verify_match
from tests.factories import make_user, two_player_match

pytestmark = pytest.mark.django_db


def hand(match, seat):
    match.refresh_from_db()
    return load_state(match)["hands"][seat]


def test_match_starts_when_the_last_seat_is_taken_and_seating_comes_from_the_seed():
    match, anna, bram = two_player_match(seed="seat-draw")
    assert match.status == MatchStatus.ACTIVE
    assert sorted(match.to_act) == [0, 1]
    again, anna2, bram2 = two_player_match(seed="seat-draw", names=("Cor", "Dirk"))
    assert (anna, bram) == (anna2, bram2)  # the same seed draws the same seating


def test_open_match_waits_for_players_and_refuses_moves():
    anna = make_user("Anna")
    match = services.create_match(creator=anna, game_slug="sealed-cards", players=3, bots=1)
    assert match.status == MatchStatus.OPEN
    result = services.submit_move(
        match_id=match.pk, seat=0, move={"type": "play", "card": 1}, source="web"
    )
    assert not result.ok and "not started" in result.message


def test_illegal_move_changes_nothing_and_says_why():
    match, anna, bram = two_player_match()
    not_held = next(c for c in range(1, 13) if c not in hand(match, anna))
    result = services.submit_move(
        match_id=match.pk, seat=anna, move={"type": "play", "card": not_held}, source="web"
    )
    assert not result.ok
    assert "cannot play" in result.message
    assert Move.objects.filter(match=match).count() == 0


def test_idempotency_key_applies_once():
    match, anna, bram = two_player_match()
    card = hand(match, anna)[0]
    first = services.submit_move(
        match_id=match.pk,
        seat=anna,
        move={"type": "play", "card": card},
        source="email",
        idempotency_key="<msg-1@example.com>",
    )
    second = services.submit_move(
        match_id=match.pk,
        seat=anna,
        move={"type": "play", "card": card},
        source="email",
        idempotency_key="<msg-1@example.com>",
    )
    assert first.ok and second.ok and second.duplicate
    assert Move.objects.filter(match=match).count() == 1


def test_forced_last_card_is_played_without_asking():
    match, anna, bram = two_player_match()
    for _ in range(2):
        for seat in (anna, bram):
            services.submit_move(
                match_id=match.pk,
                seat=seat,
                move={"type": "play", "card": hand(match, seat)[0]},
                source="web",
            )
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    sources = list(match.moves.values_list("source", flat=True))
    assert sources[-2:] == ["forced", "forced"]
    assert match.result["ranking"]
    assert verify_match(match).ok


def test_bots_answer_inside_the_same_request():
    anna = make_user("Anna")
    match = services.create_match(creator=anna, game_slug="sealed-cards", players=3, bots=2)
    seat = match.seats.get(user=anna).number
    result = services.submit_move(
        match_id=match.pk,
        seat=seat,
        move={"type": "play", "card": hand(match, seat)[0]},
        source="web",
    )
    assert result.ok
    match.refresh_from_db()
    assert match.to_act == [seat]  # the bots played both tricks at once; Anna is asked
    assert match.head_seq == 5  # bots 2, Anna 1, bots 2 in the next trick


def test_resign_with_bots_only_left_ends_the_match_and_ranks_resigner_last():
    anna = make_user("Anna")
    match = services.create_match(creator=anna, game_slug="sealed-cards", players=2, bots=1)
    seat = match.seats.get(user=anna).number
    services.resign(match_id=match.pk, seat=seat, source="web")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.result["ranking"][-1] == seat
    assert match.moves.last().kind == "resign"
    assert verify_match(match).ok


def test_resign_between_two_people_leaves_the_other_the_winner():
    match, anna, bram = two_player_match()
    services.resign(match_id=match.pk, seat=anna, source="web")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.result["ranking"] == [bram, anna]


def test_timeout_plays_default_once_and_only_for_the_same_position(time_machine, no_vacation_bank):
    match, anna, bram = two_player_match(days_per_move=2)
    seat_row = match.seats.get(number=anna)
    deadline_seq = seat_row.deadline_seq
    early = services.enforce_timeout(match_id=match.pk, seat=anna, deadline_seq=deadline_seq)
    assert not early.ok
    time_machine.move_to(timezone.now() + timezone.timedelta(days=3))
    lowest = min(hand(match, anna))
    first = services.enforce_timeout(match_id=match.pk, seat=anna, deadline_seq=deadline_seq)
    second = services.enforce_timeout(match_id=match.pk, seat=anna, deadline_seq=deadline_seq)
    assert first.ok and not second.ok
    timeouts = match.moves.filter(kind="timeout")
    assert timeouts.count() == 1
    assert timeouts.get().payload == {"type": "play", "card": lowest}


def test_timeout_policy_bot_hands_the_seat_to_a_bot(time_machine, no_vacation_bank):
    match, anna, bram = two_player_match(timeout_policy="bot")
    deadline_seq = match.seats.get(number=anna).deadline_seq
    time_machine.move_to(timezone.now() + timezone.timedelta(days=4))
    services.enforce_timeout(match_id=match.pk, seat=anna, deadline_seq=deadline_seq)
    assert match.seats.get(number=anna).is_bot
    # Bram plays; the bot answers for Anna at once from now on.
    services.submit_move(
        match_id=match.pk,
        seat=bram,
        move={"type": "play", "card": hand(match, bram)[0]},
        source="web",
    )
    match.refresh_from_db()
    assert match.to_act == [bram]


def test_forfeit_after_k_timeouts_and_a_warning(time_machine, no_vacation_bank):
    match, anna, bram = two_player_match(timeout_policy="forfeit", forfeit_after=1)
    deadline_seq = match.seats.get(number=anna).deadline_seq
    time_machine.move_to(timezone.now() + timezone.timedelta(days=4))
    warned = services.enforce_timeout(match_id=match.pk, seat=anna, deadline_seq=deadline_seq)
    assert warned.outcome == "refused" and "warned" in warned.message
    assert match.moves.count() == 0  # nobody forfeits without a warning first
    time_machine.move_to(timezone.now() + timezone.timedelta(days=1, minutes=1))
    services.enforce_timeout(match_id=match.pk, seat=anna, deadline_seq=deadline_seq)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.result["ranking"][0] == bram
    assert list(match.moves.values_list("kind", flat=True)) == ["timeout", "resign"]


def test_standing_order_plays_for_the_seat():
    match, anna, bram = two_player_match()
    lowest = min(hand(match, anna))
    result = services.set_standing_orders(match_id=match.pk, seat=anna, orders=["play-lowest"])
    assert result.ok
    move = match.moves.get(seat=anna)
    assert move.source == "standing" and move.payload["card"] == lowest
    bad = services.set_standing_orders(match_id=match.pk, seat=anna, orders=["cheat"])
    assert not bad.ok


def test_operator_move_needs_a_reason_and_is_logged_with_it():
    match, anna, bram = two_player_match()
    card = hand(match, anna)[0]
    refused = services.operator_move(
        match_id=match.pk, seat=anna, move={"type": "play", "card": card}, reason=" "
    )
    assert not refused.ok
    done = services.operator_move(
        match_id=match.pk,
        seat=anna,
        move={"type": "play", "card": card},
        reason="Player's email was garbled; confirmed by phone",
    )
    assert done.ok
    assert match.moves.get().note.startswith("Player's email")


def test_abandon_appends_a_system_event():
    match, anna, bram = two_player_match()
    services.abandon_match(match_id=match.pk, reason="Both players asked")
    match.refresh_from_db()
    assert match.status == MatchStatus.ABANDONED
    assert match.moves.get().kind == "system"
    assert verify_match(match).ok


def test_seed_commitment_is_sha256_of_the_seed():
    import hashlib

    match, *_ = two_player_match(seed="open-me")
    assert Match.objects.get(pk=match.pk).seed_commitment == hashlib.sha256(b"open-me").hexdigest()


def test_simultaneous_answers_do_not_outdate_another_seats_answer():
    match, anna, bram = two_player_match()
    seen = match.head_seq  # both are asked to play a card at once
    services.submit_move(
        match_id=match.pk,
        seat=bram,
        move={"type": "play", "card": hand(match, bram)[0]},
        source="web",
    )
    result = services.submit_move(
        match_id=match.pk,
        seat=anna,
        move={"type": "play", "card": hand(match, anna)[0]},
        source="web",
        seen_seq=seen,
    )
    assert result.ok, result.message
    # The next trick is a new question: an answer to the old position is refused.
    stale = services.submit_move(
        match_id=match.pk,
        seat=anna,
        move={"type": "play", "card": hand(match, anna)[0]},
        source="web",
        seen_seq=seen,
    )
    assert not stale.ok and "moved on" in stale.message
