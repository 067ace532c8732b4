"""Setup: the board, the forest tiles, the supply, the deck and the players' starting goods."""

from __future__ import annotations

from functools import cache

from ..data import (
    BOARDS,
    BUILDINGS,
    BURGHERS_MIN,
    DARK_SEALS,
    FOREST_REMOVED_2P,
    FOREST_TILES,
    GOODS,
    LIGHT_SEALS,
    REMOVED_2P,
    START_GUILDERS,
    deck_for,
)


def new_player(players: int) -> dict:
    player = dict(_new_player(players))  # the keys in the template's order
    player["hand"] = []  # a list of its own
    return player


@cache
def _new_player(players: int) -> dict:  # copied by new_player, never changed
    player = {"guilders": START_GUILDERS, "points": 0, "hand": [], "knowledge": False}
    for good in GOODS:
        player[good] = 0
    player["light"] = LIGHT_SEALS[players]
    player["dark"] = DARK_SEALS
    return player


# What a setup starts from, per player count: worked out once (every replay sets up).
@cache
def _forest_tiles(n: int) -> tuple[str, ...]:
    tiles: list[str] = []
    for kind, count in FOREST_TILES.items():
        tiles += [kind] * (count - (FOREST_REMOVED_2P[kind] if n == 2 else 0))
    return tuple(tiles)


@cache
def _supply(n: int) -> dict[str, int]:  # copied by setup, never changed
    return {k: b.count - (REMOVED_2P.get(k, 0) if n == 2 else 0) for k, b in BUILDINGS.items()}


def setup(names: list[str], options: dict, rng, ruleset: int = 1) -> dict:
    n = len(names)
    board = BOARDS["small" if n == 2 else "large"]
    tiles = list(_forest_tiles(n))
    rng.shuffle(tiles)
    forest = {}
    for (a, b), kind in zip(board.tiles, tiles, strict=False):  # 3 left over, unseen
        forest[a] = forest[b] = kind
    supply = dict(_supply(n))
    deck = deck_for(n)
    rng.shuffle(deck)
    state = {
        "names": list(names),
        "n": n,
        "options": dict(options),
        "board": board.key,
        "round": 1,
        "start": 0,  # the eldest player: seat 0 [rulebook setup 7]
        "players": [new_player(n) for _ in range(n)],
        "forest": forest,
        "cells": {},
        "buildings": {},
        "next_id": 1,
        "supply": supply,
        "boats": [None] * board.boat_spots,
        "loose_boats": [],
        "burghers": BURGHERS_MIN,
        "deck": deck,
        "discard": [],
        "stalls": {},
        "slots": {},
        "phase": "opening_forest",
        "order": list(range(n)),
        "idx": 0,
        "picks": [],
        "pick": 0,
        "chosen": [],
        "act": None,
        "pending": None,
        "news": [],
        "final": None,
    }
    if ruleset > 1:  # version 1 states carry no key, so their stored digests still match
        state["ruleset"] = ruleset
    return state
