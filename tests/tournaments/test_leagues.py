"""A league over two seasons: divisions of a fixed size, everyone plays everyone in theirs,
the top go up and the bottom go down, newcomers start at the bottom, the next season starts
by itself."""

import pytest

from tests.factories import make_user
from tournaments import leagues, services
from tournaments.models import Division, Season, TournamentStatus

from .test_tournaments import play_out, round_matches

pytestmark = pytest.mark.django_db(transaction=True)


def play_season(season):
    for division in season.divisions.all():
        t = division.tournament
        for number in range(1, t.rounds + 1):
            for match in round_matches(t, number):
                play_out(match)


def members_of(season, level):
    t = Division.objects.get(season=season, level=level).tournament
    return set(t.entries.values_list("user_id", flat=True))


def test_two_seasons_with_promotion_relegation_and_a_newcomer():
    olga = make_user("Olga")
    league = leagues.create_league(
        organiser=olga,
        name="Cards league",
        game_slug="sealed-cards",
        division_size=3,
        promoted=1,
    )
    players = [make_user(f"L{n}") for n in range(6)]
    for user in players:
        leagues.join_league(league, user)
    first = leagues.start_season(league.pk)
    assert [d.level for d in first.divisions.all()] == [1, 2]
    assert all(len(members_of(first, level)) == 3 for level in (1, 2))
    newcomer = make_user("New")
    leagues.join_league(league, newcomer)
    play_season(first)
    first.refresh_from_db()
    assert first.finished_at is not None
    assert all(d.tournament.status == TournamentStatus.FINISHED for d in first.divisions.all())
    second = Season.objects.get(league=league, number=2)  # started by itself
    rows_1 = services.current_standings(Division.objects.get(season=first, level=1).tournament)
    rows_2 = services.current_standings(Division.objects.get(season=first, level=2).tournament)
    relegated, promoted = rows_1[-1].player, rows_2[0].player
    assert promoted in members_of(second, 1) and relegated not in members_of(second, 1)
    assert relegated in members_of(second, 2)
    assert newcomer.pk in members_of(second, 2) or newcomer.pk in members_of(second, 3)
    assert newcomer.pk not in members_of(second, 1)


def test_a_member_who_leaves_plays_no_next_season_and_settings_are_checked():
    olga = make_user("Olga")
    with pytest.raises(services.ServiceError, match="division needs"):
        leagues.create_league(organiser=olga, name="x", game_slug="sealed-cards", division_size=2)
    league = leagues.create_league(
        organiser=olga, name="L", game_slug="sealed-cards", division_size=3
    )
    users = [make_user(f"M{n}") for n in range(3)]
    for user in users:
        leagues.join_league(league, user)
    assert leagues.start_season(league.pk) is not None
    assert leagues.start_season(league.pk) is None  # one season at a time
    leagues.leave_league(league, users[0])
    play_season(Season.objects.get(league=league, number=1))
    # Two members left: too few for a season, so none starts.
    assert not Season.objects.filter(league=league, number=2).exists()


def test_the_league_page(client):
    olga = make_user("Olga")
    league = leagues.create_league(
        organiser=olga, name="Page league", game_slug="sealed-cards", division_size=3
    )
    client.force_login(olga)
    client.post(f"/leagues/{league.pk}/action/", {"action": "join"})
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Page league" in page and "1 member" in page and "bottom division" in page
    assert "Page league" in client.get("/tournaments/").content.decode()
