"""The event generator: the draws a log's replay depends on, and what changing seq keeps."""

import hashlib
import random

import pytest

from games.engine.rng import EventRng


def reference(seed: str, seq: int) -> random.Random:
    """How the generator was built before the draws were written in `games.engine.rng`."""
    material = hashlib.sha256(f"{seed}:{seq}".encode()).digest()
    return random.Random(int.from_bytes(material, "big"))


@pytest.mark.parametrize("seed", ["bench-replay:0", "f3a9c1d2e4b5a6978877665544332211"])
def test_every_draw_is_the_one_random_random_makes(seed):
    for seq in range(0, 120, 7):
        ours, theirs = EventRng(seed, seq), reference(seed, seq)
        for size in (1, 2, 3, 5, 6, 17, 40, 64, 65, 100):
            mine, expected = list(range(size)), list(range(size))
            ours.shuffle(mine)
            theirs.shuffle(expected)
            assert mine == expected
            assert ours.choice(mine) == theirs.choice(expected)
            assert ours.randrange(size) == theirs.randrange(size)
        assert ours.getrandbits(128) == theirs.getrandbits(128)
        assert ours.random() == theirs.random()


def test_the_draws_are_frozen():
    """A match's log must replay on any later Python: these are the draws logs hold
    (taken from `random.Random` on CPython 3.11, before the draws were written here)."""
    rng = EventRng("pinned", 3)
    deck = list(range(10))
    rng.shuffle(deck)
    assert deck == [1, 5, 9, 4, 3, 8, 6, 7, 2, 0]
    assert [rng.choice("abcdef") for _ in range(6)] == ["b", "e", "f", "c", "a", "b"]
    assert rng.randrange(1000) == 168
    assert rng.getrandbits(32) == 3678852231


def test_one_generator_moved_from_event_to_event_draws_as_fresh_ones():
    moved = EventRng("seed", 0)
    for seq in (1, 2, 5, 9, 12):
        moved.seq = seq
        fresh = EventRng("seed", seq)
        assert [moved.randrange(97) for _ in range(5)] == [fresh.randrange(97) for _ in range(5)]


def test_drawn_says_whether_this_event_drew():
    rng = EventRng("seed", 4)
    assert not rng.drawn
    rng.choice([1, 2, 3])
    assert rng.drawn
    rng.seq = 5  # the next event has drawn nothing yet
    assert not rng.drawn


def test_an_empty_choice_or_range_is_refused():
    rng = EventRng("seed", 1)
    with pytest.raises(IndexError):
        rng.choice([])
    with pytest.raises(ValueError):
        rng.randrange(0)
