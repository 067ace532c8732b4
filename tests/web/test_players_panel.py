"""The players panel (issue 28, item 5): each seat's colour, name, score, money and a hand as
a count, from the viewer's own view. Every seat's match page and board fragment are searched
for another seat's secrets (the game's `secrets(state)`: a hand, a purse behind its screen)
at several positions of a match between people."""

import random
import re

import pytest
from django.urls import reverse

from games import selectors, services
from games.engine import get_game
from tests.factories import make_user
from tests.hidden import _normalise, _others
from tests.web.conftest import logged_in

pytestmark = pytest.mark.django_db

GAMES = [("nieuwstad", 2), ("new-england", 3), ("blankenburg", 2)]


def panel(page: str) -> str:
    return re.search(r'<section class="card players-panel".*?</section>', page, re.S).group(0)


@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_every_seats_panel_and_fragments_keep_the_others_secrets(slug, players):
    users = [make_user(f"panel-{slug}-{n}@example.com") for n in range(players)]
    match = services.create_match(
        creator=users[0],
        game_slug=slug,
        players=players,
        invite_emails=[u.email for u in users[1:]],
        seed=f"s33d-{slug}-q9",
    )
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    match.refresh_from_db()
    assert match.status == "active"
    game, rng = get_game(slug), random.Random(1)
    seat_of = {s.user_id: s.number for s in match.seats.all()}
    clients = {seat_of[u.pk]: logged_in(u) for u in users}
    url = reverse("match_detail", args=[match.pk])
    checked = secrets_seen = 0
    for step in range(60):
        match.refresh_from_db()
        if match.is_over:
            break
        state = selectors.load_state(match)
        if step % 6 == 0:
            secrets = game.secrets(state)
            for seat, client in clients.items():
                page = client.get(url).content.decode()
                fragment = client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="board")
                texts = {"page": page, "board fragment": fragment.content.decode()}
                rows = re.findall(r"<li[^>]*>.*?</li>", panel(page), re.S)
                assert len(rows) == players
                assert "Points" in panel(page) or "Prestige" in panel(page)
                forbidden = _others(secrets, seat) + [match.seed]
                secrets_seen += len(forbidden)
                for where, text in texts.items():
                    shown = _normalise(text)
                    leaked = [s for s in forbidden if s in shown]
                    assert not leaked, f"seat {seat}'s {where} at move {match.head_seq}: {leaked}"
            checked += 1
        seat = game.to_act(state)[0]
        move = game.bot_move(state, seat, rng)
        services.submit_move(match_id=match.pk, seat=seat, move=move, source="web")
    assert checked >= 3
    assert secrets_seen > 0 or slug == "new-england"
