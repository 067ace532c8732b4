"""Seats that never stall (issue 30, item 4): a seat that timed out is offered to a
substitute who plays it from then on and sees only what the seat sees; the ratings count
the match for whoever chose most of the seat's moves; the others can vote out a seat that
keeps timing out, whose decisions the rules' default move then plays."""

import pytest
from django.utils import timezone

from community.ratings import for_whoever_played_most
from games import services
from games.models import Match, MatchStatus, Move, Seat, SeatHolder
from games.selectors import load_state, takeover_seats, viewer_seat
from games.services import ServiceError
from tests.factories import make_user, two_player_match

pytestmark = pytest.mark.django_db


def hand(match, seat):
    return load_state(match)["hands"][seat]


def time_out(match, seat, time_machine):
    row = Seat.objects.get(match=match, number=seat)
    time_machine.move_to(row.deadline_at + timezone.timedelta(minutes=1))
    services.enforce_timeout(match_id=match.pk, seat=seat, deadline_seq=row.deadline_seq)


def test_a_substitute_takes_over_a_seat_that_timed_out(time_machine, no_vacation_bank):
    match, anna, bram = two_player_match(rated=True)
    anna_user = Seat.objects.get(match=match, number=anna).user
    bram_user = Seat.objects.get(match=match, number=bram).user
    with pytest.raises(ServiceError, match="timed out"):
        services.offer_seat(match_id=match.pk, seat=anna, by=bram_user)
    time_out(match, anna, time_machine)
    with pytest.raises(ServiceError, match="another player"):
        services.offer_seat(match_id=match.pk, seat=anna, by=anna_user)
    services.offer_seat(match_id=match.pk, seat=anna, by=bram_user)
    carl = make_user("Carl")
    assert [s.number for s in takeover_seats(carl)] == [anna]
    assert takeover_seats(bram_user) == []  # not to those who play the match
    with pytest.raises(ServiceError, match="already have a seat"):
        services.take_seat(match_id=match.pk, seat=anna, user=bram_user)
    services.take_seat(match_id=match.pk, seat=anna, user=carl)
    row = Seat.objects.get(match=match, number=anna)
    assert row.user == carl and row.timeouts == 0 and row.takeover_offered_at is None
    match.refresh_from_db()
    holders = list(SeatHolder.objects.filter(match=match).values_list("user_id", "until_seq"))
    assert holders == [(anna_user.pk, match.head_seq), (carl.pk, None)]
    # Carl now plays the seat and sees what it sees; Anna has no seat left.
    assert viewer_seat(match, carl).number == anna and viewer_seat(match, anna_user) is None
    if anna in match.to_act:
        card = hand(match, anna)[0]
        refused = services.submit_move(
            match_id=match.pk, player=anna_user, move={"type": "play", "card": card}, source="web"
        )
        assert refused.outcome == "not_a_player"
        done = services.submit_move(
            match_id=match.pk, player=carl, move={"type": "play", "card": card}, source="web"
        )
        assert done.outcome == "applied"


def test_the_ratings_count_the_seat_for_whoever_chose_most_of_its_moves():
    match, anna, bram = two_player_match()
    seats = sorted(match.seats.all(), key=lambda s: s.number)
    original = seats[anna].user_id
    early, late = make_user("Early"), make_user("Late")
    head = match.head_seq
    holders = [
        SeatHolder(match=match, seat=anna, user=early, from_seq=0, until_seq=head + 2),
        SeatHolder(match=match, seat=anna, user=late, from_seq=head + 2),
    ]
    assert for_whoever_played_most(match, seats, holders)[anna].user_id == late.pk  # a tie
    for n, source in enumerate(["web", "email", "bot"], start=1):  # a bot's move is nobody's
        Move.objects.create(match=match, seq=head + n, seat=anna, source=source, digest="x")
    counted = for_whoever_played_most(match, seats, holders)
    assert counted[anna].user_id == early.pk  # two chosen moves to none
    assert counted[bram].user_id == seats[bram].user_id
    assert seats[anna].user_id == original  # the seats themselves are not changed


def test_the_others_vote_out_a_seat_that_keeps_timing_out(time_machine, no_vacation_bank):
    match, anna, bram = two_player_match()
    bram_user = Seat.objects.get(match=match, number=bram).user
    time_out(match, anna, time_machine)
    with pytest.raises(ServiceError, match="2 times"):
        services.vote_to_skip(match_id=match.pk, seat=anna, voter=bram_user)
    Seat.objects.filter(match=match, number=anna).update(timeouts=2)
    assert services.vote_to_skip(match_id=match.pk, seat=anna, voter=bram_user) is True
    row = Seat.objects.get(match=match, number=anna)
    assert row.skipped
    match.refresh_from_db()
    assert anna not in match.to_act or match.status != MatchStatus.ACTIVE
    # From now on the seat's decisions are the rules' default, played at once.
    while match.status == MatchStatus.ACTIVE:
        assert match.to_act == [bram]
        card = hand(match, bram)[0]
        services.submit_move(
            match_id=match.pk, player=bram_user, move={"type": "play", "card": card}, source="web"
        )
        match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED


def test_the_page_offers_and_votes(client, time_machine, no_vacation_bank):
    match, anna, bram = two_player_match()
    bram_user = Seat.objects.get(match=match, number=bram).user
    time_out(match, anna, time_machine)
    client.force_login(bram_user)
    client.post(f"/matches/{match.pk}/seat/", {"action": "offer", "seat": anna})
    assert Seat.objects.get(match=match, number=anna).takeover_offered_at is not None
    carl = make_user("Carl")
    client.force_login(carl)
    lobby = client.get("/lobby/").content.decode()
    assert "Take over" in lobby
    client.post(f"/matches/{match.pk}/take/", {"seat": anna})
    assert Seat.objects.get(match=match, number=anna).user == carl
    # The substitute sees the seat's view: never the other seat's secrets.
    match.refresh_from_db()
    secrets = match.game.secrets(load_state(match))
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert secrets.get(bram) and not [x for x in secrets[bram] if x in page]
    assert secrets[anna][0] in page  # the seat's own hand, as the seat sees it


def test_the_match_page_offers_a_seat_that_timed_out(client, time_machine, no_vacation_bank):
    match, anna, bram = two_player_match()
    bram_user = Seat.objects.get(match=match, number=bram).user
    client.force_login(bram_user)
    assert (
        "Offer the seat to a substitute" not in client.get(f"/matches/{match.pk}/").content.decode()
    )
    time_out(match, anna, time_machine)
    client.force_login(bram_user)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Offer the seat to a substitute" in page and "timed out 1 time" in page
    assert "Vote to skip" not in page  # only after two timeouts
    assert f"/n/matches/{match.pk}/hooks/" in page
