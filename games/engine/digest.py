"""Chained digests of positions: each move's digest covers the state after it and the
previous digest, so a replay proves it reproduces the positions and a changed row shows."""

from __future__ import annotations

import hashlib
import json

from .contract import State

GENESIS = "0" * 64


def canonical_json(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_digest(previous: str, state: State) -> str:
    return hashlib.sha256((previous + canonical_json(state)).encode()).hexdigest()
