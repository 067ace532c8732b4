"""The settings that ended real events (issue 40), played to the end: New England at tables
of 3 with 10 players (one sits out each round, with a bye), New England's cup of 6 at
tables of 4 (the best two seeds have byes, so the final seats 4), a New England league at
tables of 3 in divisions of 4; and what can never be played is refused at the form."""

import pytest
from django.utils import timezone

from tests.factories import make_user
from tests.tournaments.playing import play_by_bots
from tests.tournaments.test_every_setting import recomputed_order, run_the_jobs
from tournaments import leagues, services
from tournaments.forms import LeagueForm, TournamentForm
from tournaments.models import Round, Table, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)  # rounds follow on commit


def new_england(client, **fields):
    """Through the page's form, as an organiser would."""
    organiser = make_user("Olga")
    client.force_login(organiser)
    data = {
        "name": "New England open",
        "game_slug": "new-england",
        "days_per_move": 3,
        "timeout_policy": "default",
        "rounds": 1,
        **fields,
    }
    response = client.post("/tournaments/", data)
    assert response.status_code == 302, response.content.decode()
    return Tournament.objects.get(organiser=organiser)


def test_ten_at_tables_of_three_seat_nine_and_one_sits_out(client):
    t = new_england(client, format="tables", table_size=3, rounds=2, max_players=10)
    for n in range(10):
        services.join(t, make_user(f"Player{n}"))
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and t.problem == ""
    first = Round.objects.get(tournament=t, number=1)
    assert sorted(tb.match.player_count for tb in first.tables.all()) == [3, 3, 3]
    assert first.bye_id is not None and first.sat_out == []
    run_the_jobs(t, timezone.now())
    assert t.status == TournamentStatus.FINISHED
    second = Round.objects.get(tournament=t, number=2)
    assert second.bye_id != first.bye_id  # who sat out least sits out next
    assert [row.player for row in services.current_standings(t)] == recomputed_order(t)


def test_a_cup_of_six_at_tables_of_four_ends_in_a_final_of_four(client):
    t = new_england(client, format="knockout", table_size=4, max_players=6)
    players = [make_user(f"Cup{n}") for n in range(6)]
    for user in players:
        services.join(t, user)
    t.refresh_from_db()
    assert t.rounds == 2
    first = Round.objects.get(tournament=t, number=1)
    assert [tb.match.player_count for tb in first.tables.all()] == [4]
    assert len([first.bye_id, *first.sat_out]) == 2  # the best two seeds
    run_the_jobs(t, timezone.now())
    assert t.status == TournamentStatus.FINISHED and t.problem == ""
    (final,) = Table.objects.filter(round__tournament=t, round__number=2)
    assert final.match.player_count == 4
    assert [row.player for row in services.current_standings(t)] == recomputed_order(t)


def test_a_new_england_league_at_tables_of_three_in_divisions_of_four():
    form = LeagueForm(
        data={
            "name": "NE league",
            "game_slug": "new-england",
            "table_size": 3,
            "division_size": 4,
            "promoted": 1,
            "days_per_move": 3,
            "timeout_policy": "default",
        }
    )
    assert form.is_valid(), form.errors
    league = leagues.create_league(organiser=make_user("Chair"), **form.cleaned_data)
    for n in range(4):
        leagues.join_league(league, make_user(f"Member{n}"))
    season = leagues.start_season(league.pk)
    (division,) = season.divisions.select_related("tournament")
    t = division.tournament
    assert t.rounds == 3
    # The events' default cap on vacation days per player and match (docs/community.md).
    assert {tb.match.vacation_cap for tb in Table.objects.filter(round__tournament=t)} == {7}
    play_by_bots(t)
    run_the_jobs(t, timezone.now())
    assert t.status == TournamentStatus.FINISHED
    assert league.seasons.filter(number=2).exists()


def test_the_form_offers_a_week_of_vacation_per_match_by_default(client):
    client.force_login(make_user("Olga"))
    assert 'name="vacation_cap" value="7"' in client.get("/tournaments/").content.decode()


def test_what_can_never_be_played_is_refused_at_the_form():
    base = {
        "name": "x",
        "game_slug": "new-england",
        "days_per_move": 3,
        "timeout_policy": "default",
        "rounds": 1,
    }
    cup = TournamentForm(data={**base, "format": "knockout", "table_size": 3, "max_players": 6})
    assert not cup.is_valid()
    assert "cannot end in a final" in cup.non_field_errors()[0]
    assert "choose 3, 5, 7" in cup.non_field_errors()[0]
    two = TournamentForm(data={**base, "format": "tables", "table_size": 3, "max_players": 2})
    assert not two.is_valid() and "at least 3 players" in two.non_field_errors()[0]
    assert TournamentForm(
        data={**base, "format": "tables", "table_size": 3, "max_players": 10}
    ).is_valid()


def test_a_league_the_server_cannot_play_is_refused_with_a_sentence(client):
    client.force_login(make_user("Chair"))
    response = client.post(
        "/leagues/new/",
        {
            "name": "Too small",
            "game_slug": "new-england",
            "table_size": 2,
            "division_size": 4,
            "promoted": 1,
            "days_per_move": 3,
            "timeout_policy": "default",
        },
        follow=True,
    )
    html = response.content.decode()
    assert "New England is played by 3 to 4 players." in html and "__all__" not in html
