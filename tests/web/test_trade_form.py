"""A trade as one small form at the market (issue 28, item 2): Nieuwstad's sales and
Blankenburg's market trades, each choice of the trade a row of chips in one form tagged
`data-component="market"`; without JavaScript the form's GET builds the move as the step
links would, to its Confirm."""

import html
import random
import re

import pytest
from django.urls import reverse

from games import builder, selectors, services
from games.builder import TRADE_ACTIONS
from tests.web.conftest import logged_in, seat_of

pytestmark = pytest.mark.django_db


def to_a_trade(match, seat: int):
    """Play the player's moves as a bot would until a trade is offered; the state then."""
    game, rng = match.game, random.Random(3)
    for _ in range(400):
        match.refresh_from_db()
        state = selectors.load_state(match)
        assert not match.is_over, "the match ended before a trade was offered"
        built = builder.build(game, state, seat, [])
        if any(c.target in TRADE_ACTIONS for c in built.choices):
            return state
        move = game.bot_move(state, seat, rng)
        services.submit_move(match_id=match.pk, seat=seat, move=move, source="web")
    raise AssertionError("no trade offered in 400 moves")


@pytest.mark.parametrize("slug", ["nieuwstad", "blankenburg"])
def test_a_trade_is_one_form_at_the_market_that_builds_the_move_without_javascript(anna, slug):
    match = services.create_match(
        creator=anna, game_slug=slug, players=2, bots=1, seed=f"trade-{slug}"
    )
    seat = seat_of(match, anna)
    state = to_a_trade(match, seat)
    game, client = match.game, logged_in(anna)
    url = reverse("match_detail", args=[match.pk])
    page = client.get(url).content.decode()
    form = re.search(r'<form [^>]*class="trade" data-component="market".*?</form>', page, re.S)
    assert form, "no trade form at the market"
    form = form.group(0)
    action = re.search(r'name="s" value="([^"]+)"', form).group(1)
    assert action in TRADE_ACTIONS
    # The action is the form's, not a piece of its own; the step panel still lists it.
    pieces = page[page.index('id="pieces"') :]
    assert f'data-target="{action}"' not in pieces
    assert f'data-target="{action}"' in page[page.index('id="builder"') : page.index('id="pieces"')]
    fields: dict[str, list[str]] = {}
    for name, value in re.findall(r'type="radio" name="(s\d)" value="([^"]+)"', form):
        fields.setdefault(name, []).append(html.unescape(value))
    assert fields and all(len(values) > 1 for values in fields.values())
    # Every legal trade of that action: its chips, sent by the form, give its Confirm.
    trades = []
    for move in game.legal_moves(state, seat):
        targets = [s.target for s in game.move_steps(state, seat, move)]
        if action in targets:
            trades.append((move, targets))
    assert trades
    for move, targets in trades[:6]:
        query = [("s", action)] + [
            (name, next(v for v in values if v in targets)) for name, values in fields.items()
        ]
        built = client.get(url, query).content.decode()
        assert 'id="confirm-form"' in built, query
        command = re.search(r'name="command" value="([^"]*)"', built).group(1)
        assert html.unescape(command) == game.format_move(state, seat, move)
