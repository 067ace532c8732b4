"""Challenges by name (issue 42): made, seen in the stream and in GET /challenges, accepted
(the match starts with both seated), declined with a reason, cancelled; names that fit no
one or several, and who may answer which."""

import pytest

from api.stream import events_after, open_stream
from games.models import Challenge, MatchStatus
from tests.api.conftest import token_client
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def kinds(user) -> list[str]:
    return [e["type"] for e in events_after(user.pk, 0)]


def test_a_challenge_by_name_accepted_declined_and_cancelled():
    robo, anna = make_user("Robo"), make_user("Anna")
    for user in (robo, anna):
        open_stream(user.pk)
    robot, annas = token_client(robo), token_client(anna)
    made = robot.post(
        "/challenges",
        {"player": "anna", "game": "sealed-cards", "players": 2, "days_per_move": 2},
    )
    assert made.status_code == 201, made.content
    challenge = made.json()
    assert challenge["status"] == "open" and challenge["challenged"]["name"] == "Anna"
    assert kinds(anna) == ["challenge"] and kinds(robo) == []
    assert [c["challenge"] for c in annas.get("/challenges").json()["received"]] == [
        challenge["challenge"]
    ]
    assert robot.get("/challenges").json()["made"][0]["challenge"] == challenge["challenge"]
    # Only Anna may accept it; she does, and the match starts with both seated.
    assert robot.post(f"/challenges/{challenge['challenge']}/accept").status_code == 409
    accepted = annas.post(f"/challenges/{challenge['challenge']}/accept")
    assert accepted.status_code == 200, accepted.content
    match = accepted.json()
    assert match["status"] == MatchStatus.ACTIVE and match["your_seat"]
    assert {p["name"] for p in match["players"]} == {"Robo", "Anna"}
    assert "challenge_accepted" in kinds(robo) and "match_started" in kinds(robo)
    assert annas.post(f"/challenges/{challenge['challenge']}/accept").status_code == 409
    # Declined, with a reason the challenger reads.
    second = robot.post("/challenges", {"player": "Anna", "game": "sealed-cards"}).json()
    declined = annas.post(f"/challenges/{second['challenge']}/decline", {"reason": "busy"})
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    told = [e for e in events_after(robo.pk, 0) if e["type"] == "challenge_declined"]
    assert told[-1]["reason"] == "busy"
    # Cancelled by the challenger, before any answer; then it cannot be accepted.
    third = robot.post("/challenges", {"player": f"#{anna.pk}", "game": "sealed-cards"}).json()
    assert annas.post(f"/challenges/{third['challenge']}/cancel").status_code == 409
    assert robot.post(f"/challenges/{third['challenge']}/cancel").json()["status"] == "cancelled"
    assert "challenge_cancelled" in kinds(anna)
    assert annas.post(f"/challenges/{third['challenge']}/accept").status_code == 409
    assert Challenge.objects.filter(status="open").count() == 0


def test_names_that_fit_nobody_or_several_and_settings_the_game_refuses():
    robot = token_client(make_user("Robo"))
    make_user("Cor")
    twin = make_user("Dora")
    other = make_user("Dora2")
    other.first_name = "Dora"
    other.save()
    for player, said in (("Nobody", "Nobody plays"), ("Dora", "Several players")):
        refused = robot.post("/challenges", {"player": player, "game": "sealed-cards"})
        assert refused.status_code == 409 and said in refused.json()["error"]["message"]
    too_many = robot.post("/challenges", {"player": "Cor", "game": "sealed-cards", "players": 9})
    assert too_many.status_code == 409
    unknown = robot.post("/challenges", {"player": "Cor", "game": "chess"})
    assert unknown.status_code == 409
    by_number = robot.post("/challenges", {"player": f"#{twin.pk}", "game": "sealed-cards"})
    assert by_number.status_code == 201
    assert Challenge.objects.count() == 1


def test_a_nul_or_odd_digits_in_a_name_are_answered_not_a_500():
    robot = token_client(make_user("Robo"))
    make_user("Cor")
    for player in ("C\x00or", "\x00", "#٣", "#²"):
        answer = robot.post("/challenges", {"player": player, "game": "sealed-cards"})
        assert answer.status_code in (201, 400, 409), (player, answer.content)
    assert Challenge.objects.count() <= 1
