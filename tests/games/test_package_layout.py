"""Every game's rules package names the same kinds of file the same way (docs/platform.md), so
whoever knows one game knows where to look in the others."""

import importlib

import pytest

from games.engine.registry import GAME_PACKAGES

MODULES = ("data", "rules", "moves", "text", "view", "board", "reference", "bots", "game")


@pytest.mark.parametrize("package", sorted(GAME_PACKAGES.values()))
def test_each_game_has_the_same_modules(package):
    missing = []
    for name in MODULES:
        try:
            importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{package}.{name}":
                raise
            missing.append(name)
    assert missing == [], f"{package} lacks {missing}"
