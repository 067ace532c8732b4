"""Ratings: updated when a match ends, in the same transaction, with shared places; matches
with bots or not rated by their creator change nothing; the rebuild gives the same numbers."""

import pytest
from django.core.management import call_command
from django.db import transaction
from openskill.models import PlackettLuce

from community.models import Rating, RatingChange
from community.ratings import places_of, record_finished
from games import services
from tests.community.helpers import finished_rows, people_match, play_to_the_end, users

pytestmark = pytest.mark.django_db


def test_places_read_the_ranking_and_share_a_place_for_a_group():
    assert places_of({"ranking": [2, 0, 1]}, 3) == [2, 3, 1]
    assert places_of({"ranking": [0, 2, 1], "shared": [[0, 2]]}, 3) == [1, 3, 1]
    assert places_of({"ranking": [0, 1]}, 3) == [1, 2, 3]  # a seat left out ranks last


def test_a_finished_rated_match_rates_its_players_when_it_ends():
    anna, bram = users("Anna", "Bram")
    match = play_to_the_end(people_match([anna, bram]))
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert set(changes) == {anna.pk, bram.pk}
    places = places_of(match.result, 2)
    seats = {s.user_id: s.number for s in match.seats.all()}
    expected = PlackettLuce().rate(
        [[PlackettLuce().rating()], [PlackettLuce().rating()]],
        ranks=[places[seats[anna.pk]], places[seats[bram.pk]]],
    )
    assert changes[anna.pk].mu_after == pytest.approx(expected[0][0].mu)
    assert changes[bram.pk].mu_after == pytest.approx(expected[1][0].mu)
    winner = min(changes.values(), key=lambda c: c.place)
    loser = max(changes.values(), key=lambda c: c.place)
    if winner.place != loser.place:
        assert winner.mu_after > 25 > loser.mu_after
    assert Rating.objects.get(user=anna, game_slug="sealed-cards").matches == 1


def test_unrated_and_bot_matches_change_no_rating():
    anna, bram = users("Anna", "Bram")
    play_to_the_end(people_match([anna, bram], rated=False))
    with_bot = services.create_match(
        creator=anna, game_slug="sealed-cards", players=2, bots=1, rated=True
    )
    assert not with_bot.rated  # a match with bots is never rated, whatever was asked
    play_to_the_end(with_bot)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_count_is_rated_and_the_winner_gains_most(players):
    people = users(*[f"P{players}x{n}" for n in range(players)])
    match = finished_rows(people, list(range(players)))
    record_finished(match, match.seats.all())
    after = {c.user_id: c.mu_after for c in RatingChange.objects.filter(match=match)}
    mus = [after[u.pk] for u in people]
    assert mus == sorted(mus, reverse=True) and mus[0] > 25 > mus[-1]


def test_players_sharing_a_place_gain_the_same():
    a, b, c = users("Ada", "Bob", "Cy")
    match = finished_rows([a, b, c], [[0, 1], 2])  # Ada and Bob share first place
    record_finished(match, match.seats.all())
    change = {ch.user_id: ch for ch in RatingChange.objects.filter(match=match)}
    assert change[a.pk].place == change[b.pk].place == 1 and change[c.pk].place == 3
    assert change[a.pk].mu_after == pytest.approx(change[b.pk].mu_after)
    assert change[a.pk].mu_after > change[c.pk].mu_after


def test_the_rebuild_gives_the_same_ratings_as_the_incremental_updates():
    people = users("Ann", "Ben", "Cat", "Dan")
    orders = [[0, 1, 2, 3], [[1, 2], 0, 3], [3, 2, 1, 0], [2, [0, 3], 1]]
    for days_ago, ranking in zip([9, 7, 5, 3], orders, strict=True):
        match = finished_rows(people, ranking, days_ago=days_ago)
        record_finished(match, match.seats.all())
    play_to_the_end(people_match(people[:2], seed="rebuild"))  # one more, rated at its end
    incremental = {
        (r.user_id, r.game_slug): (r.mu, r.sigma, r.matches) for r in Rating.objects.all()
    }
    history = list(RatingChange.objects.values_list("match_id", "user_id", "mu_after"))
    call_command("rebuild_ratings", stdout=open("/dev/null", "w"))
    rebuilt = {(r.user_id, r.game_slug): (r.mu, r.sigma, r.matches) for r in Rating.objects.all()}
    assert rebuilt.keys() == incremental.keys()
    for key, (mu, sigma, matches) in incremental.items():
        assert rebuilt[key][0] == pytest.approx(mu)
        assert rebuilt[key][1] == pytest.approx(sigma)
        assert rebuilt[key][2] == matches
    rebuilt_history = {
        (m, u): mu
        for m, u, mu in RatingChange.objects.values_list("match_id", "user_id", "mu_after")
    }
    for match_id, user_id, mu in history:
        assert rebuilt_history[(match_id, user_id)] == pytest.approx(mu)


def test_a_resigned_player_is_rated_last():
    anna, bram, cor = users("Anna", "Bram", "Cor")
    match = people_match([anna, bram, cor])
    seat_of = {s.user_id: s.number for s in match.seats.all()}
    services.resign(match_id=match.pk, seat=seat_of[anna.pk], source="web")
    play_to_the_end(match)
    change = RatingChange.objects.get(match=match, user=anna)
    assert change.place == 3 and change.mu_after < change.mu_before


@pytest.mark.django_db(transaction=True)  # the workers are forked and read what is committed
def test_the_rebuild_in_two_processes_gives_what_one_gives():
    people = users("Ann", "Ben", "Cat")
    for game_slug in ("sealed-cards", "nieuwstad"):
        for days_ago, ranking in zip([9, 6, 3], [[0, 1, 2], [[1, 2], 0], [2, 0, 1]], strict=True):
            match = finished_rows(people, ranking, days_ago=days_ago, game_slug=game_slug)
            with transaction.atomic():
                record_finished(match, match.seats.all())

    def ratings():
        return sorted(
            (r.user_id, r.game_slug, round(r.mu, 9), round(r.sigma, 9), r.matches)
            for r in Rating.objects.all()
        )

    def changes():
        return sorted(RatingChange.objects.values_list("match_id", "user_id", "place", "mu_after"))

    incremental = (ratings(), changes())
    call_command("rebuild_ratings", "--jobs", "1", stdout=open("/dev/null", "w"))
    one = (ratings(), changes())
    call_command("rebuild_ratings", "--jobs", "2", stdout=open("/dev/null", "w"))
    assert one == (ratings(), changes()) and one[0] == incremental[0] and len(one[0]) == 6
