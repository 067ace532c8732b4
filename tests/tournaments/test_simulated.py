"""Tournaments run by the workers over weeks of play (time-machine): nobody moves, every
decision is played by the deadline sweep, rounds follow by themselves.

- a Swiss of 32 players of a two-player game over 5 rounds: every round starts, nobody meets
  the same opponent twice, the standings equal a recomputation from the results;
- a 5-round tournament of 24 players at tables of 4, with two withdrawals on the way;
- a league of 3 divisions of 6 played out, promotions and relegations applied, the next
  season started.
"""

from collections import Counter
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest
import time_machine

from games import clock
from games.engine.contract import places
from games.models import Match, MatchStatus
from games.selectors import verify_match
from tests.factories import make_user
from tournaments import leagues, services
from tournaments.models import Division, Season, Table, TournamentStatus

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)


def run_the_workers(until_done, start=START, max_days=200):
    """The beat's jobs, a day at a time: start due tournaments, time out what is overdue."""
    now = start
    for _ in range(max_days):
        now += timedelta(days=1, minutes=1)
        with time_machine.travel(now, tick=False):
            services.start_due(now)
            while clock.sweep_deadlines(now, enforce=clock.enforce):
                pass
        if until_done():
            return now
    raise AssertionError("the tournament did not finish")


def recomputed_points(t) -> dict[int, Fraction]:
    """Points from the matches' results, worked out here rather than by the standings."""
    points: Counter = Counter()
    for table in Table.objects.filter(round__tournament=t).select_related("match", "round"):
        match = table.match
        users = {s.number: s.user_id for s in match.seats.all()}
        n = len(users)
        spans = Counter(place for place, _, _ in places(match.result))
        for place, seat, _ in places(match.result):
            share = sum(Fraction(n - p, n - 1) for p in range(place, place + spans[place]))
            points[users[seat]] += share / spans[place]
    for round_ in t.round_set.exclude(bye=None):
        points[round_.bye_id] += 1
    return points


def test_a_swiss_of_32_runs_five_rounds_by_itself(no_vacation_bank):
    with time_machine.travel(START, tick=False):
        t = services.create_tournament(
            organiser=make_user("Olga"),
            name="Swiss 32",
            game_slug="sealed-cards",
            format="swiss",
            table_size=2,
            rounds=5,
            signup_until=START + timedelta(hours=1),
            days_per_move=1,
        )
        players = [make_user(f"S{n:02}") for n in range(32)]
        for user in players:
            services.join(t, user)
    run_the_workers(lambda: t.__class__.objects.get(pk=t.pk).status == TournamentStatus.FINISHED)
    t.refresh_from_db()
    assert t.round_set.count() == 5 and all(r.finished_at for r in t.round_set.all())
    pairs = [
        frozenset(table.match.seats.values_list("user_id", flat=True))
        for table in Table.objects.filter(round__tournament=t)
    ]
    assert len(pairs) == 5 * 16 and len(set(pairs)) == len(pairs)  # nobody met twice
    rows = services.current_standings(t)
    assert {r.player: r.points for r in rows} == {p.pk: recomputed_points(t)[p.pk] for p in players}
    for table in Table.objects.filter(round__tournament=t)[:5]:
        assert verify_match(table.match).ok


def test_five_rounds_at_tables_of_four_with_withdrawals(no_vacation_bank):
    with time_machine.travel(START, tick=False):
        t = services.create_tournament(
            organiser=make_user("Olga"),
            name="Tables 24",
            game_slug="sealed-cards",
            format="tables",
            table_size=4,
            rounds=5,
            max_players=24,
            days_per_move=1,
        )
        players = [make_user(f"T{n:02}") for n in range(24)]
        for user in players:
            services.join(t, user)  # the last sign-up starts the first round
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING

    def withdraw_two_in_round_three():
        t.refresh_from_db()
        if t.current_round == 3 and t.entries.filter(withdrawn_at__isnull=False).count() == 0:
            for user in players[:2]:
                services.withdraw(t, user, by="Olga", reason="asked to leave")
        return t.status == TournamentStatus.FINISHED

    run_the_workers(withdraw_two_in_round_three)
    assert t.round_set.count() == 5
    assert (
        not Match.objects.filter(tournament_table__round__tournament=t)
        .exclude(status=MatchStatus.FINISHED)
        .exists()
    )
    late = Table.objects.filter(round__tournament=t, round__number__gte=4)
    seated = {u for table in late for u in table.match.seats.values_list("user_id", flat=True)}
    assert not seated & {players[0].pk, players[1].pk}
    met = Counter()
    for table in Table.objects.filter(round__tournament=t):
        users = list(table.match.seats.values_list("user_id", flat=True))
        met.update(frozenset((a, b)) for i, a in enumerate(users) for b in users[i + 1 :])
    assert max(met.values()) <= 3  # spread: 5 rounds of 3 opponents among 23
    assert t.actions.filter(action__startswith="withdrew").count() == 2


def test_a_league_season_of_three_divisions_of_six_and_the_next_one(no_vacation_bank):
    with time_machine.travel(START, tick=False):
        league = leagues.create_league(
            organiser=make_user("Olga"),
            name="League 18",
            game_slug="sealed-cards",
            division_size=6,
            promoted=1,
            days_per_move=1,
        )
        players = [make_user(f"L{n:02}") for n in range(18)]
        for user in players:
            leagues.join_league(league, user)
        first = leagues.start_season(league.pk)
    assert first.divisions.count() == 3
    run_the_workers(lambda: Season.objects.filter(league=league, number=2).exists())
    second = Season.objects.get(league=league, number=2)
    for level in (1, 2, 3):
        old = Division.objects.get(season=first, level=level).tournament
        rows = services.current_standings(old)
        new = {
            level: set(
                Division.objects.get(season=second, level=level).tournament.entries.values_list(
                    "user_id", flat=True
                )
            )
            for level in (1, 2, 3)
        }
        if level > 1:
            assert rows[0].player in new[level - 1]  # promoted
        if level < 3:
            assert rows[-1].player in new[level + 1]  # relegated
        stayed = [r.player for r in rows[1:-1]]
        assert set(stayed) <= new[level]
