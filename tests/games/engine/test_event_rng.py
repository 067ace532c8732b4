"""The event generator: the draws a log's replay depends on, and what changing seq keeps."""

import hashlib
import random

import pytest

from games.engine.rng import HASH_STREAM, EventRng, StreamRng, event_rng, new_seed


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


# --- the hash stream (seeds made since HASH_STREAM) -----------------------------------------


def stream_bits(seed: str, seq: int, count: int) -> int:
    """The first `count` bits of an event's stream, worked out from its definition: block i
    (from 0) is SHA-256(seed:seq:i), each read as a little-endian number, the blocks laid end
    to end from the lowest bit."""
    blocks = [
        hashlib.sha256(f"{seed}:{seq}:{i}".encode()).digest() for i in range(count // 256 + 2)
    ]
    stream = sum(int.from_bytes(b, "little") << (256 * i) for i, b in enumerate(blocks))
    return stream & ((1 << count) - 1)


def draw_below(take, n):
    """`random.Random._randbelow` over a stream of bits."""
    k = n.bit_length()
    while (r := take(k)) >= n:
        pass
    return r


class Bits:
    def __init__(self, value):
        self.value = value

    def take(self, k):
        taken = self.value & ((1 << k) - 1)
        self.value >>= k
        return taken


def test_new_seeds_draw_from_the_hash_stream():
    seed = new_seed()
    assert seed.startswith(HASH_STREAM)
    assert isinstance(event_rng(seed, 1), StreamRng)
    assert isinstance(event_rng("f3a9c1d2e4b5a6978877665544332211", 1), EventRng)


@pytest.mark.parametrize("seq", [0, 1, 7, 250])
def test_the_stream_is_sha256_in_counter_mode(seq):
    seed = HASH_STREAM + "f3a9c1d2e4b5a6978877665544332211"
    rng = StreamRng(seed, seq)
    widths = [3, 128, 1, 64, 200, 7, 300, 0, 53]  # crosses several block edges
    drawn = [rng.getrandbits(k) for k in widths]
    bits = Bits(stream_bits(seed, seq, sum(widths)))
    assert drawn == [bits.take(k) for k in widths]


@pytest.mark.parametrize("size", [1, 2, 3, 5, 6, 17, 40, 64, 65, 100, 300])
def test_shuffle_choice_and_randrange_draw_as_random_random_does_over_the_stream(size):
    seed = HASH_STREAM + "pinned"
    rng = StreamRng(seed, 3)
    deck = list(range(size))
    rng.shuffle(deck)
    picked = rng.choice(deck)
    below = rng.randrange(size)
    bits = Bits(stream_bits(seed, 3, 8 * 4096))
    expected = list(range(size))
    for i in range(size - 1, 0, -1):  # Fisher-Yates from the end, as random.shuffle
        j = draw_below(bits.take, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert deck == expected
    assert picked == expected[draw_below(bits.take, size)]
    assert below == draw_below(bits.take, size)


def test_the_stream_draws_are_frozen():
    """What logs made since HASH_STREAM hold: pinned, so no change can move them."""
    rng = StreamRng(HASH_STREAM + "pinned", 3)
    deck = list(range(10))
    rng.shuffle(deck)
    assert deck == [5, 7, 0, 9, 1, 8, 3, 6, 2, 4]
    assert [rng.choice("abcdef") for _ in range(6)] == ["d", "f", "c", "b", "e", "f"]
    assert rng.randrange(1000) == 836


def test_the_stream_moves_from_event_to_event_and_says_whether_it_drew():
    moved = StreamRng(HASH_STREAM + "seed", 0)
    for seq in (1, 2, 5, 9):
        moved.seq = seq
        assert not moved.drawn
        fresh = StreamRng(HASH_STREAM + "seed", seq)
        assert [moved.randrange(97) for _ in range(5)] == [fresh.randrange(97) for _ in range(5)]
        assert moved.drawn
    assert 0 <= moved.random() < 1
    with pytest.raises(IndexError):
        moved.choice([])
    with pytest.raises(ValueError):
        moved.randrange(0)


def test_a_shown_draw_tells_nothing_of_the_event_s_next_block():
    """Blankenburg shows raw drawn bits (a bid's salt, revealed with the bids): the next block
    must not follow from a block drawn (it would, were block i+1 a hash of block i or of a
    digest among the draws)."""
    seed = HASH_STREAM + "secret"
    rng = StreamRng(seed, 4)
    first = rng.getrandbits(256).to_bytes(32, "little")
    second = rng.getrandbits(256).to_bytes(32, "little")
    assert first == hashlib.sha256(f"{seed}:4:0".encode()).digest()
    assert second == hashlib.sha256(f"{seed}:4:1".encode()).digest()
    assert hashlib.sha256(f"{seed}:4".encode()).digest() not in (first, second)
    assert second not in (hashlib.sha256(first).digest(), hashlib.sha256(first + b"1").digest())
