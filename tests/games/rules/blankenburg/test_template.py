"""The board template renders every position without errors and leaks no secret."""

import pytest

from games.engine import event_rng, playout
from games.rules.blankenburg import GAME

django = pytest.importorskip("django")


def render(view, seat, commands):
    from django.conf import settings

    if not settings.configured:
        settings.configure(
            TEMPLATES=[
                {
                    "BACKEND": "django.template.backends.django.DjangoTemplates",
                    "DIRS": ["templates"],
                }
            ]
        )
        django.setup()
    from django.template.loader import render_to_string

    return render_to_string(
        "games/blankenburg/board.html",
        {"view": view, "seat": seat, "legal_commands": commands},
    )


def test_board_renders_and_keeps_secrets():
    game = playout.play(GAME, 4, "template", options={"board": "back"})
    state = GAME.setup(playout.player_names(4), game.options, event_rng("template", 0))
    for seq, (seat, move, _) in enumerate(game.log[:120], start=1):
        state = GAME.apply(state, seat, move, event_rng("template", seq))
        if seq % 7:
            continue
        secrets = GAME.secrets(state)
        for viewer in (None, 0, 1):
            html = render(GAME.view(state, viewer), viewer, [])
            assert "<svg" in html
            for owner, strings in secrets.items():
                if owner != viewer:
                    assert not any(s in html for s in strings)
            if viewer is not None:
                for s in secrets.get(viewer, []):
                    if s.startswith("Plans in hand"):
                        assert s in html
