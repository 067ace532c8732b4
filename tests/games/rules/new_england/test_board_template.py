"""The web board fragment renders from the view alone, with plain Django template tags."""

import re
from pathlib import Path
from xml.dom import minidom

import django
from django.conf import settings
from django.template import Context, Engine

from games.engine import event_rng, playout
from games.rules.new_england import GAME

TEMPLATES = Path(__file__).resolve().parents[4] / "templates"


def render(view, seat):
    if not settings.configured:  # run without pytest-django
        settings.configure()
        django.setup()
    engine = Engine(
        dirs=[str(TEMPLATES)],
        libraries={
            "board": "games.templatetags.board",
            "i18n": "django.templatetags.i18n",
            "game_words": "games.templatetags.game_words",
        },
    )
    template = engine.get_template("games/new-england/board.html")
    return template.render(Context({"view": view, "seat": seat, "legal_commands": []}))


def test_board_renders_grid_sea_selection_chips_and_families():
    game = playout.play(GAME, 4, seed="template")
    html = render(GAME.view(game.final, 1), 1)
    svgs = re.findall(r"<svg.*?</svg>", html, re.S)
    assert len([svg for svg in svgs if 'class="swatch"' not in svg]) == 2  # board, chips
    for svg in svgs:
        minidom.parseString(svg)  # well-formed
    assert html.count('width="40" height="40"') == 99  # 98 parcels and the sea corner
    assert "#7fb3d5" in html  # the sea
    assert "(you)" in html and "Final scores" in html


def test_board_renders_mid_round_with_a_selection():
    game = playout.play(GAME, 3, seed="template2")
    state = GAME.setup(playout.player_names(3), game.options, event_rng(game.seed, 0))
    for seq, (seat, move, _source) in enumerate(game.log[:3], start=1):
        state = GAME.apply(state, seat, move, event_rng(game.seed, seq))
    html = render(GAME.view(state, None), None)
    assert "Selection" in html and "land tile" in html
