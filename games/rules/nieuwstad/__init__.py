"""De Poorters van Nieuwstad (Tycho van den Broek, 999 Games 2013): the rules package."""

from games.engine import register

from .game import Nieuwstad, NieuwstadV2

GAME_V1 = register(Nieuwstad())  # matches created before rules version 2 replay with it
GAME = register(NieuwstadV2())  # new matches

__all__ = ["GAME", "GAME_V1", "Nieuwstad", "NieuwstadV2"]
