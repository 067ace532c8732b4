"""templates/games/_reference.html renders every game's reference sections as tables: the same
facts the turn email prints as text (one source: Game.reference)."""

import pytest
from django.template.loader import render_to_string

from games.engine import get_game
from tests.games.rules.menus_check import positions


@pytest.mark.parametrize(
    ("slug", "players"), [("nieuwstad", 3), ("new-england", 3), ("blankenburg", 4)]
)
def test_each_games_reference_renders_as_tables(slug, players):
    game = get_game(slug)
    state, seat = next(p for n, p in enumerate(positions(game, players, "partial")) if n == 30)
    sections = [s.as_json() for s in game.reference(game.view(state, seat))]
    html = render_to_string("games/_reference.html", {"sections": sections})
    assert html.count("<section") == len(sections) > 2
    for section in sections:
        assert f'id="reference-{section["key"]}"' in html
        assert html.count("<tr>") >= len(section["rows"])
    assert "<script" not in html and "style=" not in html
