"""Issue 40's Swiss of 5 on the database: the standings count the byes before any
tie-break, the page shows them in that order, and the next round is paired on it."""

import pytest

from games import services as games
from games.models import Match, MatchStatus
from tests.factories import make_user
from tournaments import services
from tournaments.models import Entry, Round, Table, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)  # rounds follow on commit


def swiss_of_five():
    t = services.create_tournament(
        organiser=make_user("Olga"),
        name="Swiss of five",
        game_slug="sealed-cards",
        format="swiss",
        table_size=2,
        rounds=3,
        max_players=5,
        seed="fixed",
    )
    return t, [make_user(f"Seed{n}") for n in range(1, 6)]


def win(match: Match, winner) -> None:
    """The other player resigns: `winner` is first, the scores equal (none)."""
    loser = match.seats.exclude(user=winner).get().user
    games.resign(match_id=match.pk, player=loser, source="web")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED


def pair_of(match: Match) -> frozenset:
    return frozenset(match.seats.values_list("user_id", flat=True))


def test_the_issues_results_rank_1_4_5_3_2_on_the_page():
    """The rounds as the issue gives them, results by seed (the tables made here, so the
    third round is the issue's own)."""
    t, seed = swiss_of_five()
    Tournament.objects.filter(pk=t.pk).update(status=TournamentStatus.RUNNING)
    for number, user in enumerate(seed, start=1):
        Entry.objects.create(tournament=t, user=user, seed=number)
    rounds = [((2, 1), (4, 3), 5), ((4, 2), (1, 5), 3), ((5, 4), (3, 2), 1)]
    for number, (*results, bye) in enumerate(rounds, start=1):
        round_ = Round.objects.create(tournament=t, number=number, bye=seed[bye - 1])
        for winner, loser in results:
            match = games.create_match(
                creator=seed[winner - 1], game_slug="sealed-cards", players=2, rated=False
            )
            games.join_match(match_id=match.pk, user=seed[loser - 1])
            Table.objects.create(round=round_, match=match)
            win(match, seed[winner - 1])
    t.refresh_from_db()
    order = [row.player for row in services.current_standings(t)]
    assert order == [seed[n - 1].pk for n in (1, 4, 5, 3, 2)]
    from django.test import Client

    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    at = [page.index(f'<td class="row-head" data-label="Player">Seed{n}<') for n in (1, 4, 5, 3, 2)]
    assert at == sorted(at)


def test_the_third_round_is_paired_on_the_standings_with_the_byes():
    """Played through the service: rounds 1 and 2 as in the issue. Before round 3: 4 on 2
    points; 1, 2, 3, 5 on 1 (3 and 5 by their byes): head to head 2 beat 1 and 1 beat 5, so
    4, 1, 2, 3, 5 by seed after that. The bye goes to the lowest without one: 2 (5 and 3
    had theirs); then 4 meets 1 and 3 meets 5."""
    t, seed = swiss_of_five()
    for user in seed:
        services.join(t, user)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    s = {n: seed[n - 1] for n in range(1, 6)}
    for number, winners in ((1, (2, 4)), (2, (4, 1))):
        round_ = Round.objects.get(tournament=t, number=number)
        matches = [table.match for table in round_.tables.all()]
        by_pair = {pair_of(m): m for m in matches}
        for winner in winners:
            match = next(m for pair, m in by_pair.items() if s[winner].pk in pair)
            win(match, s[winner])
    assert Round.objects.get(tournament=t, number=1).bye == s[5]
    assert Round.objects.get(tournament=t, number=2).bye == s[3]
    third = Round.objects.get(tournament=t, number=3)
    assert third.bye == s[2]
    assert {pair_of(table.match) for table in third.tables.all()} == {
        frozenset((s[4].pk, s[1].pk)),
        frozenset((s[3].pk, s[5].pk)),
    }
