"""Games by slug and rules version. Game packages register themselves on import."""

from __future__ import annotations

import importlib

from .contract import Game

# The real games, imported on first use so a missing one cannot break the others.
GAME_PACKAGES = {
    "nieuwstad": "games.rules.nieuwstad",
    "new-england": "games.rules.new_england",
    "blankenburg": "games.rules.blankenburg",
}

_games: dict[str, dict[int, Game]] = {}
_loaded = False


def register(game: Game) -> Game:
    """Register a game object (one per slug and version). Returns it, for use at module level."""
    _games.setdefault(game.slug, {})[game.version] = game
    return game


def _load_packages() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in GAME_PACKAGES.values():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:  # a real import error inside the package
                raise


def get_game(slug: str, version: int | None = None) -> Game:
    """The game for `slug` at `version` (the newest if None). KeyError if unknown."""
    _load_packages()
    versions = _games[slug]
    return versions[max(versions) if version is None else version]


def available_games() -> list[Game]:
    """The newest version of every registered game, by title."""
    _load_packages()
    return sorted((v[max(v)] for v in _games.values()), key=lambda g: g.title)
