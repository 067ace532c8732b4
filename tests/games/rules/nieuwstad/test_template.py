"""The web board renders from the view alone with plain Django template tags."""

from pathlib import Path

import django
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.template import Context, Engine

from games.engine import event_rng, playout
from games.rules.nieuwstad import GAME
from games.rules.nieuwstad.data import BOARDS

TEMPLATE = Path(__file__).parents[4] / "templates" / "games" / "nieuwstad" / "board.html"


def render(view, seat, commands):
    try:
        settings.USE_I18N  # noqa: B018 - configured by pytest-django when it runs
    except ImproperlyConfigured:
        settings.configure()
        django.setup()
    engine = Engine(
        libraries={
            "board": "games.templatetags.board",
            "i18n": "django.templatetags.i18n",
            "game_words": "games.templatetags.game_words",
        }
    )
    template = engine.from_string(TEMPLATE.read_text())
    return template.render(Context({"view": view, "seat": seat, "legal_commands": commands}))


def test_board_renders_map_supplies_and_commands():
    game = playout.play(GAME, 4, seed="template")
    state = game.final
    html = render(GAME.view(state, 0), 0, ["pass", "build house at D3 facing south"])
    assert "<svg" in html and "MARKET" in html and "Light seals" in html
    assert html.count("<rect") > 60
    start = GAME.setup(playout.player_names(2), {}, event_rng("t", 0))
    html = render(GAME.view(start, None), None, [])
    assert "<svg" in html and "Your hand" not in html


def test_each_face_down_forest_tile_is_drawn_joining_its_two_spaces():
    start = GAME.setup(playout.player_names(2), {}, event_rng("t", 0))
    tiles = GAME.view(start, 0)["svg"]["tiles"]
    face_down = {frozenset((a, b)) for a, b in BOARDS[start["board"]].tiles if a in start["forest"]}
    assert {frozenset(t["title"].split()[-1].split("/")) for t in tiles} == face_down
    html = render(GAME.view(start, 0), 0, [])
    assert html.count('stroke="#a8d89a"') == len(face_down) > 0
    assert "light green bar joins" in html
