"""New England (Moon & Weissblum, 2003): land tiles, development cards, bidding chips."""

from games.engine import register

from .game import NewEngland

GAME = register(NewEngland())

__all__ = ["GAME", "NewEngland"]
