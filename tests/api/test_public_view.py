"""API v1 as a spectator and as a stranger, for every game: a match in play shows only the
public view (never a hand, a bid, the seed or the deck order) to whoever does not sit in it,
and only if its creator made it watchable; otherwise it does not exist for them."""

import json

import pytest

from games import services
from games.engine import available_games, get_game
from games.models import Match
from games.selectors import history, load_state
from tests.factories import make_user

from .conftest import token_client

pytestmark = pytest.mark.django_db
GAMES = [g.slug for g in available_games()]


def started(slug: str, watchable: bool) -> Match:
    """A person against bots, one decision in (the bots answer at once)."""
    game = get_game(slug)
    person = make_user(f"P{slug.replace('-', '')}{int(watchable)}")
    match = services.create_match(
        creator=person,
        game_slug=slug,
        players=game.min_players,
        bots=game.min_players - 1,
        watchable=watchable,
        seed=f"public-{slug}",
    )
    seat = match.seats.get(user=person).number
    state = load_state(Match.objects.get(pk=match.pk))
    move = game.legal_moves(state, seat)[-1]
    assert services.submit_move(match_id=match.pk, seat=seat, move=move, source="web").ok
    match.refresh_from_db()
    assert match.status == "active"
    return match


def strings_of(value) -> str:
    if isinstance(value, dict):
        return "\n".join(f"{k}\n{strings_of(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "\n".join(strings_of(v) for v in value)
    return "" if value is None else str(value)


@pytest.mark.parametrize("slug", GAMES)
def test_a_watcher_sees_the_public_view_and_nothing_private(slug):
    match = started(slug, watchable=True)
    game = match.game
    state = load_state(match)
    staff = make_user(f"Staff{slug.replace('-', '')}")
    staff.is_staff = True
    staff.save()
    for watcher in (make_user(f"W{slug.replace('-', '')}"), staff):
        client = token_client(watcher, scope="read")
        answer = client.get(f"/matches/{match.pk}")
        assert answer.status_code == 200
        data = answer.json()
        public = json.loads(json.dumps(game.view(state, None)))
        assert data["view"] == public and data["board_text"] == game.render_text(public)
        assert data["seed"] is None and data["result"] is None
        summary = data["match"]
        assert summary["your_seat"] is None and summary["your_turn"] is False
        assert summary["deadline_at"] is None and summary["prompt"] == ""
        assert [e["text"] for e in data["history"]] == [e["text"] for e in history(match, None)]
        assert client.get(f"/matches/{match.pk}/legal").json() == []
        seen = "\n".join(
            strings_of(client.get(path).json())
            for path in (
                f"/matches/{match.pk}",
                f"/matches/{match.pk}/history",
                f"/matches/{match.pk}/legal",
                f"/matches/{match.pk}/chat",
            )
        )
        secrets = [s for found in game.secrets(state).values() for s in found if s]
        assert secrets, "the game hides something at this point"
        assert [s for s in secrets if s in seen] == []
        assert match.seed not in seen
        person = match.created_by
        assert person.email not in seen  # players are shown by name


@pytest.mark.parametrize("slug", GAMES)
def test_a_match_in_play_that_is_not_watchable_does_not_exist_for_a_stranger(slug):
    match = started(slug, watchable=False)
    client = token_client(make_user(f"S{slug.replace('-', '')}"), scope="read")
    missing = token_client(make_user(f"T{slug.replace('-', '')}"), scope="read").get(
        "/matches/999999"
    )
    for path in ("", "/history", "/legal", "/chat"):
        answer = client.get(f"/matches/{match.pk}{path}")
        assert answer.status_code == 404, path
        assert answer.json() == missing.json()  # the same answer as for no match at all
    assert client.get("/turns").json()["matches"] == []
    assert client.get("/matches").json()["items"] == []
