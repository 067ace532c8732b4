"""Randomness for rules: one generator per logged event, derived from the match seed.

The rng for the event at sequence number n is `random.Random` seeded with
SHA-256(seed ":" n), so a replay reproduces every shuffle and die roll. Seq 0 is the setup.
The generator is built only when a rule first draws from it: most moves never do.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import Any


def new_seed() -> str:
    return secrets.token_hex(16)


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
        if self._random_seq != self.seq:
            material = hashlib.sha256(f"{self._seed}:{self.seq}".encode()).digest()
            self._random = random.Random(int.from_bytes(material, "big"))
            self._random_seq = self.seq
        return self._random

    @property
    def drawn(self) -> bool:
        """Whether a rule drew from this event's generator (a takeback is refused after
        chance)."""
        return self._random_seq == self.seq

    def __getattr__(self, name: str) -> Any:
        # random(), randint(), choice(), shuffle(), sample()...
        return getattr(self._generator(), name)


def event_rng(seed: str, seq: int) -> EventRng:
    return EventRng(seed, seq)
