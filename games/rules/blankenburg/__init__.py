"""Builders of Blankenburg (Peter Schultz, Cobblestone Games 2016) for play by mail."""

from games.engine import register

from .game import Blankenburg, BlankenburgV2

GAME_V1 = register(Blankenburg())
GAME = register(BlankenburgV2())
