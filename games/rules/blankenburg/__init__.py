"""Builders of Blankenburg (Peter Schultz, Cobblestone Games 2016) for play by mail."""

from games.engine import register

from .game import Blankenburg

GAME = register(Blankenburg())
