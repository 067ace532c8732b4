"""Randomness for rules: one generator per logged event, derived from the match seed.

The rng for the event at sequence number n is derived from SHA-256(seed ":" n), so a replay
reproduces every shuffle and die roll. Seq 0 is the setup. The generator is built only when a
rule first draws from it: most moves never do. Two kinds, told apart by the seed:

- A seed that starts with `HASH_STREAM` (every match made since issue 13) draws from SHA-256
  in counter mode (`games.engine.stream.StreamRng`): nothing to set up before the first draw.
- Any other seed (matches made before) draws from `random.Random` seeded with that digest
  (`EventRng`). Seeding the Mersenne Twister costs about 4 µs, and a Blankenburg turn draws
  in two events: a fifth of a two-player replay's rules time once the rules were compiled.

The draws the rules make (`shuffle`, `choice`, `randrange`) are written here over the
generator's `getrandbits`, as CPython 3.11 writes them: Python promises that a seed gives the
same `random()` and `getrandbits` stream in every version, but not the same shuffles, and a
match's log must replay for as long as it is kept. Written here they also cost about half
(no method call per element drawn).
"""

from __future__ import annotations

import _random
import hashlib
import random
import secrets
from typing import Any

from games.engine.stream import StreamRng

HASH_STREAM = "h1:"


def new_seed() -> str:
    return HASH_STREAM + secrets.token_hex(16)


def seed_commitment(seed: str) -> str:
    """What players see from the start: SHA-256 of the seed, hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


class EventRng:
    """A `random.Random` for one event, created on first use. A replay moves one EventRng
    from event to event by setting `seq` (cheaper than a new object per move), so a generator
    is built only for the events whose rules draw."""

    __slots__ = ("_seed", "seq", "_random", "_random_seq")

    def __init__(self, seed: str, seq: int):
        self._seed = seed
        self.seq = seq
        self._random: random.Random | None = None
        self._random_seq: int | None = None

    def _generator(self) -> random.Random:
        generator = self._random
        if self._random_seq != self.seq:
            material = hashlib.sha256(f"{self._seed}:{self.seq}".encode()).digest()
            if generator is None:
                generator = self._random = random.Random.__new__(random.Random)
            # The state `random.Random(n)` gives, seeded once: `random.Random(n)` seeds twice
            # (from the OS in __new__, then from n in __init__), and seeding is most of what
            # an event's generator costs. A replay reseeds one generator from event to event.
            _random.Random.seed(generator, int.from_bytes(material, "big"))
            generator.gauss_next = None
            self._random_seq = self.seq
        return generator

    @property
    def drawn(self) -> bool:
        """Whether a rule drew from this event's generator (a takeback is refused after
        chance)."""
        return self._random_seq == self.seq

    def getrandbits(self, k: int) -> int:
        return self._generator().getrandbits(k)

    def randrange(self, stop: int) -> int:
        """A whole number from 0 to stop - 1 (only the one-argument form is used)."""
        if stop <= 0:
            raise ValueError(f"empty range for randrange({stop})")
        return _below(self._generator().getrandbits, stop)

    def choice(self, seq):
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[_below(self._generator().getrandbits, len(seq))]

    def shuffle(self, x: list) -> None:
        """Fisher-Yates from the end, as `random.shuffle`."""
        getrandbits = self._generator().getrandbits
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:  # rejection sampling, as `random.Random._randbelow`
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]

    def __getattr__(self, name: str) -> Any:
        # random() and anything else a bot asks for, straight from the generator.
        return getattr(self._generator(), name)


def _below(getrandbits, n: int) -> int:
    """A uniform whole number in [0, n), n > 0: `random.Random._randbelow`."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def event_rng(seed: str, seq: int) -> EventRng | StreamRng:
    """The generator of the event at `seq`: its kind follows from the seed (module docstring)."""
    return StreamRng(seed, seq) if seed.startswith(HASH_STREAM) else EventRng(seed, seq)
