"""The API's budget grows with the matches an account plays (issue 42): a bot in many matches
at once is not throttled for playing them, while reading one resource over and over, or
making match after match, still meets a 429 with Retry-After."""

import pytest
from django.core.cache import cache

from api.throttles import NEW_MATCHES_PER_HOUR, PER_MATCH_MINUTE, PER_MINUTE
from tests.api.conftest import token_client
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_the_budget_grows_with_each_match_in_play_and_new_matches_have_their_own():
    cache.clear()
    bot = make_user("Robo")
    client = token_client(bot)
    assert client.get("/me")["RateLimit-Limit"] == str(PER_MINUTE)
    for _ in range(20):  # twenty matches at once against the site's bots
        answer = client.post("/matches", {"game": "sealed-cards", "players": 2, "bots": 1})
        assert answer.status_code == 201, answer.content
    cache.delete(f"api-matches-in-play:{bot.pk}")  # counted again at once, not in 30 s
    answer = client.get("/me")
    assert answer["RateLimit-Limit"] == str(PER_MINUTE + 20 * PER_MATCH_MINUTE)
    # A minute of play in twenty matches: three requests a decision, five decisions each.
    answers = [client.get("/turns") for _ in range(20 * 5 * 3)]
    assert {a.status_code for a in answers} == {200}
    # Reading one resource over and over still meets the limit.
    left = int(answers[-1]["RateLimit-Remaining"])
    refused = [client.get("/me") for _ in range(left + 2)][-1]
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


def test_making_match_after_match_meets_its_own_limit():
    cache.clear()
    client = token_client(make_user("Maker"))
    answers = [
        client.post("/matches", {"game": "sealed-cards", "players": 2})
        for _ in range(NEW_MATCHES_PER_HOUR + 1)
    ]
    assert [a.status_code for a in answers[:NEW_MATCHES_PER_HOUR]] == [201] * NEW_MATCHES_PER_HOUR
    assert answers[-1].status_code == 429 and int(answers[-1]["Retry-After"]) > 0
    assert answers[-1].json()["error"]["code"] == "rate_limited"


def test_a_move_asked_for_is_never_refused_for_speed_but_refused_moves_are_counted(duel):
    from api.throttles import REFUSED_MOVES_PER_MINUTE

    cache.clear()
    match, _anna, bram = duel
    client = token_client(bram)
    while client.get("/me").status_code != 429:  # every other request's budget spent
        pass
    # Bram is asked: his move goes through all the same.
    seat = match.seats.get(user=bram).number
    match.refresh_from_db()
    assert seat in match.to_act
    legal = client.get(f"/matches/{match.pk}/legal")
    assert legal.status_code == 429  # a read is still refused
    from games.selectors import load_state

    card = min(load_state(match)["hands"][seat])
    played = client.post(f"/matches/{match.pk}/moves", {"move": {"type": "play", "card": card}})
    assert played.status_code == 200, played.content
    # Refused moves (not his turn now, or a card he no longer holds) are counted and limited.
    answers = [
        client.post(f"/matches/{match.pk}/moves", {"command": "play 99"})
        for _ in range(REFUSED_MOVES_PER_MINUTE + 2)
    ]
    assert {a.status_code for a in answers[:REFUSED_MOVES_PER_MINUTE]} <= {409, 422, 400}
    assert answers[-1].status_code == 429 and int(answers[-1]["Retry-After"]) > 0
