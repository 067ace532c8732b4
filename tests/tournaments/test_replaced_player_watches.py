"""A player whose seat a substitute took over may still watch the match, as a spectator sees
it: the page answers (it was a 404), and shows no secret of any seat, the seat's new ones
included; someone who never held a seat still gets a 404."""

from datetime import timedelta

import pytest

from games import services as games
from games.selectors import load_state
from tests.factories import make_user
from tests.hidden import _others, _text_of
from tournaments import services
from tournaments.models import Table

pytestmark = pytest.mark.django_db(transaction=True)  # rounds follow on commit


def test_the_replaced_player_watches_as_a_spectator(client, time_machine, no_vacation_bank):
    organiser = make_user("Olga")
    t = services.create_tournament(
        organiser=organiser,
        name="Cards",
        game_slug="sealed-cards",
        format="swiss",
        table_size=2,
        rounds=1,
        max_players=2,
    )
    gone, stays = make_user("Gone"), make_user("Stays")
    for user in (gone, stays):
        services.join(t, user)
    match = Table.objects.get(round__tournament=t).match
    seat = match.seats.get(user=gone)
    time_machine.move_to(seat.deadline_at + timedelta(minutes=1))
    if seat.number in match.to_act:
        games.enforce_timeout(match_id=match.pk, seat=seat.number, deadline_seq=seat.deadline_seq)
    else:  # the other seat owes the first decision: let it pass first
        other = match.seats.get(user=stays)
        games.enforce_timeout(match_id=match.pk, seat=other.number, deadline_seq=other.deadline_seq)
        seat.refresh_from_db()
        time_machine.move_to(seat.deadline_at + timedelta(minutes=1))
        games.enforce_timeout(match_id=match.pk, seat=seat.number, deadline_seq=seat.deadline_seq)
    services.offer_seat(t, match, seat.number, by=organiser, reason="gone quiet")
    games.take_seat(match_id=match.pk, seat=seat.number, user=make_user("Sub"))
    match.refresh_from_db()
    assert match.status == "active"
    client.force_login(gone)
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    secrets = match.game.secrets(load_state(match))
    assert secrets and not [s for s in _others(secrets, None) if s in _text_of(response)]
    client.force_login(make_user("Stranger"))
    assert client.get(f"/matches/{match.pk}/").status_code == 404
