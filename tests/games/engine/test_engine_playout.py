from games.engine import playout
from tests.sealed_cards import GAME


def test_playouts_end_and_replay_to_the_same_digests():
    for n in range(50):
        for players in (2, 3, 4):
            game = playout.play(GAME, players, seed=f"s{n}", check=True)
            assert game.result is not None
            assert playout.replay(GAME, game) == game.final


def test_last_card_is_forced_and_not_asked():
    game = playout.play(GAME, 2, seed="forced", check=True)
    assert game.forced == 2  # each player's third card
    assert game.asked == 4
