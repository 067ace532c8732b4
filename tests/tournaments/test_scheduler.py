"""The scheduler treats each tournament as its own unit of work: one that cannot start or
cannot draw its next round is logged and its problem shown to its organiser, while the
others beside it start, draw and finish; the move that ends a broken round is saved and
answered as any other."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import make_user
from tests.tournaments.playing import play_by_bots
from tournaments import services
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)  # rounds follow on commit


def due_tournament(name: str, format: str, table_size: int, rounds: int, players: int):
    t = services.create_tournament(
        organiser=make_user(f"{name}-organiser"),
        name=name,
        game_slug="sealed-cards",
        format=format,
        table_size=table_size,
        rounds=rounds,
        signup_until=timezone.now() - timedelta(minutes=1),
    )
    for n in range(players):
        services.join(t, make_user(f"{name}{n}"))
    return t


def test_one_broken_tournament_beside_two_good_ones(monkeypatch, client):
    swiss = due_tournament("Swiss", "swiss", 2, 2, 4)
    gone = due_tournament("Gone", "swiss", 2, 2, 4)
    stuck = due_tournament("Stuck", "swiss", 2, 2, 4)
    tables = due_tournament("Tables", "tables", 3, 2, 7)
    # A game taken off the server: the tournament cannot start.
    Tournament.objects.filter(pk=gone.pk).update(game_slug="withdrawn-game")
    # A tournament whose next round cannot be drawn (whatever the reason).
    draw = services._draw

    def broken_draw(t, number, players):
        if t.pk == stuck.pk and number > 1:
            raise RuntimeError("the draw broke")
        return draw(t, number, players)

    monkeypatch.setattr(services, "_draw", broken_draw)
    assert services.start_due() == 3  # swiss, stuck and tables; gone is recorded
    gone.refresh_from_db()
    assert gone.status == TournamentStatus.SIGNUP and "withdrawn-game" in gone.problem
    # The move that ends Stuck's round 1 is saved and answered; the round's failure is
    # the tournament's, recorded for its organiser.
    results = play_by_bots(stuck)
    assert results and all(r.outcome == "applied" for r in results)
    stuck.refresh_from_db()
    assert stuck.current_round == 1 and "the draw broke" in stuck.problem
    client.force_login(stuck.organiser)
    assert "the draw broke" in client.get(f"/tournaments/{stuck.pk}/").content.decode()
    client.force_login(make_user("Passer-by"))  # only the organiser (and staff) sees it
    assert "the draw broke" not in client.get(f"/tournaments/{stuck.pk}/").content.decode()
    for _ in range(4):  # the jobs run again and again beside the broken ones
        for t in (swiss, tables):
            play_by_bots(t)
        services.start_due()
    for t in (swiss, tables):
        t.refresh_from_db()
        assert t.status == TournamentStatus.FINISHED and t.problem == ""
        assert t.round_set.count() == 2
    stuck.refresh_from_db()
    gone.refresh_from_db()
    assert stuck.status == TournamentStatus.RUNNING and gone.status == TournamentStatus.SIGNUP
    # Mended, the next run goes on and clears the problem.
    monkeypatch.setattr(services, "_draw", draw)
    services.start_due()
    stuck.refresh_from_db()
    assert stuck.current_round == 2 and stuck.problem == ""
