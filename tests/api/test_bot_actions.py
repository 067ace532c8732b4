"""What a person does that a bot does by the API too (issue 42): abort before the first
move, list the open matches it may join and join one, and turn its account into a bot
account, for good, refused for an account that has played."""

import pytest

from community.models import Rating
from games import services
from games.models import MatchStatus
from tests.api.conftest import token_client
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_abort_before_the_first_move_and_not_after(duel):
    match, anna, bram = duel
    client = token_client(bram)
    answer = client.post(f"/matches/{match.pk}/abort")
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == MatchStatus.ABANDONED
    match.refresh_from_db()
    assert match.status == MatchStatus.ABANDONED
    assert not Rating.objects.filter(user__in=[anna, bram]).exists()  # nobody rated, nobody lost
    # In another match, once a move is played, abort is refused and nothing changes.
    other = services.create_match(
        creator=anna, game_slug="sealed-cards", players=2, invite_emails=[bram.email]
    )
    services.join_match(match_id=other.pk, user=bram)
    other.refresh_from_db()
    seat = other.to_act[0]
    api_of = {s.number: s.user for s in other.seats.all()}
    legal = token_client(api_of[seat]).get(f"/matches/{other.pk}/legal").json()
    played = token_client(api_of[seat]).post(
        f"/matches/{other.pk}/moves", {"move": legal[0]["move"]}
    )
    assert played.status_code == 200, played.content
    refused = client.post(f"/matches/{other.pk}/abort")
    assert refused.status_code == 409 and "resign" in refused.json()["error"]["message"]
    other.refresh_from_db()
    assert other.status == MatchStatus.ACTIVE
    # Nor may someone without a seat abort a match.
    third = services.create_match(creator=anna, game_slug="sealed-cards", players=2)
    stranger = token_client(make_user("Cor"))
    assert stranger.post(f"/matches/{third.pk}/abort").status_code in (404, 409)
    third.refresh_from_db()
    assert third.status == MatchStatus.OPEN


def test_the_open_matches_a_bot_may_join_are_listed(duel):
    _match, anna, _bram = duel
    dora = make_user("Dora")
    made = [
        services.create_match(creator=anna, game_slug="sealed-cards", players=2)
        for _ in range(27)
    ]
    invited_elsewhere = services.create_match(
        creator=anna, game_slug="sealed-cards", players=2, invite_emails=["eve@example.com"]
    )
    client = token_client(dora)
    first = client.get("/matches/open").json()
    assert len(first["matches"]) == 25 and first["next"]
    rest = client.get("/matches/open", before=first["next"]).json()
    listed = [m["id"] for m in first["matches"] + rest["matches"]]
    assert listed == sorted((m.pk for m in made), reverse=True)  # each once, newest first
    assert invited_elsewhere.pk not in listed and rest["next"] is None
    joined = client.post(f"/matches/{listed[0]}/join")
    assert joined.status_code == 200 and joined.json()["your_seat"]
    assert listed[0] not in [m["id"] for m in client.get("/matches/open").json()["matches"]]


def test_an_account_becomes_a_bot_by_the_api_unless_it_has_played(duel):
    _match, anna, _bram = duel
    fresh = token_client(make_user("Robo"))
    assert fresh.get("/me").json()["bot"] is False
    answer = fresh.post("/me/bot")
    assert answer.status_code == 200 and answer.json()["bot"] is True
    assert fresh.post("/me/bot").json()["bot"] is True  # asked twice: still one bot
    refused = token_client(anna).post("/me/bot")
    assert refused.status_code == 409 and "never played" in refused.json()["error"]["message"]
    assert token_client(anna).get("/me").json()["bot"] is False


def test_an_invitation_declined_by_the_api_calls_the_match_off_and_tells_its_players():
    from api.stream import events_after, open_stream

    anna, robo = make_user("Anna"), make_user("Robo")
    open_stream(anna.pk)
    open_stream(robo.pk)
    match = services.create_match(
        creator=anna, game_slug="sealed-cards", players=2, invite_emails=[robo.email]
    )
    invited = [e for e in events_after(robo.pk, 0) if e["type"] == "invitation"]
    assert invited and invited[0]["match"] == match.pk
    stranger = token_client(make_user("Cor"))
    assert stranger.post(f"/matches/{match.pk}/decline").status_code == 409  # not theirs
    answer = token_client(robo).post(f"/matches/{match.pk}/decline")
    assert answer.status_code == 200, answer.content
    match.refresh_from_db()
    assert match.status == MatchStatus.ABANDONED
    assert [e["type"] for e in events_after(anna.pk, 0)][-1] == "match_over"
    assert token_client(robo).post(f"/matches/{match.pk}/decline").status_code == 409
