"""Random bot playouts: games end, invariants hold after every move, replays match."""

import pytest

from games.engine import playout
from games.rules.blankenburg import GAME


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_fast_playouts_with_full_contract_checks(players):
    for n in range(6):
        options = {"board": "back"} if n % 2 else {}
        if players == 2 and n % 3 == 2:
            options["master_builder"] = True
        game = playout.play(GAME, players, seed=f"fast-{players}-{n}", options=options, check=True)
        assert game.result is not None
        assert playout.replay(GAME, game) == game.final
