"""New England (Moon & Weissblum, 2003): land tiles, development cards, bidding chips."""

from games.engine import register

from .game import NewEngland, NewEnglandV2

GAME_V1 = register(NewEngland())
GAME = register(NewEnglandV2())

__all__ = ["GAME", "GAME_V1", "NewEngland", "NewEnglandV2"]
