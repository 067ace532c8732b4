"""The event generator of every match made since `rng.HASH_STREAM`: SHA-256 in counter mode."""

from __future__ import annotations

import hashlib


class StreamRng:
    """The generator of every match made since HASH_STREAM: the draws of the event at seq n
    are SHA-256 in counter mode: block i (from 0) is SHA-256(seed ":" n ":" i, i in
    decimal); each block is read as a little-endian number and its bits are used from the
    lowest up, so `getrandbits(k)` takes the next k bits of the stream. Each block hashes the
    secret seed, so a draw a rule shows (Blankenburg's bid salts are raw bits) tells nothing
    of the event's other draws. Anyone holding the revealed seed can
    recompute every draw. The same interface as
    EventRng (a replay moves it from event to event by setting `seq`), and the same draws
    over `getrandbits`: `choice`, `randrange` and `shuffle` reject as `random.Random` does."""

    def __init__(self, seed: str, seq: int):
        self._seed = seed
        self.seq = seq
        self._stream_seq: int | None = None

    def _start(self) -> None:
        self._stream_seq = self.seq
        self._block = -1
        self._pool = self._next_block()
        self._bits = 256

    @property
    def drawn(self) -> bool:
        return self._stream_seq == self.seq

    def _next_block(self) -> int:
        self._block += 1
        block = hashlib.sha256(f"{self._seed}:{self._stream_seq}:{self._block}".encode()).digest()
        return int.from_bytes(block, "little")

    def getrandbits(self, k: int) -> int:
        if self._stream_seq != self.seq:
            self._start()
        if self._bits < k:
            if k < 0:
                raise ValueError("number of bits must be non-negative")
            while self._bits < k:
                self._pool |= self._next_block() << self._bits
                self._bits += 256
        value = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._bits -= k
        return value

    def random(self) -> float:
        """A float in [0, 1) from 53 bits, as `random.random`."""
        return self.getrandbits(53) * 2.0**-53

    def randrange(self, stop: int) -> int:
        if stop <= 0:
            raise ValueError(f"empty range for randrange({stop})")
        return self.choice(range(stop))

    def choice(self, seq):
        n = len(seq)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return seq[r]

    def shuffle(self, x: list) -> None:
        """Fisher-Yates from the end, as `random.shuffle`, each index drawn as
        `getrandbits` would draw it, with the stream kept in locals (a setup shuffles a few
        hundred cards; a call per card would cost it more than the rest of the setup)."""
        if self._stream_seq != self.seq:
            self._start()
        pool, bits = self._pool, self._bits
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            mask = (1 << k) - 1
            while True:  # rejection sampling, as `random.Random._randbelow`
                if bits < k:
                    pool |= self._next_block() << bits
                    bits += 256
                j = pool & mask
                pool >>= k
                bits -= k
                if j < n:
                    break
            x[i], x[j] = x[j], x[i]
        self._pool, self._bits = pool, bits
