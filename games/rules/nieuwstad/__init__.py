"""De Poorters van Nieuwstad (Tycho van den Broek, 999 Games 2013): the rules package."""

from games.engine import register

from .game import Nieuwstad

GAME = register(Nieuwstad())

__all__ = ["GAME", "Nieuwstad"]
