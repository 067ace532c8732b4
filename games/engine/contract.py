"""The rules contract: what every game provides and what the platform relies on.

A game is one object, a subclass of `Game`, registered under its slug. Everything here is pure
Python: no Django, no I/O, no global randomness.

State
    A JSON value: dicts with string keys, lists, str, int, bool, None. No tuples, no int keys,
    no floats that matter (the digest is taken over canonical JSON, and the state is stored and
    reloaded as JSON). `apply` may change the state it is given in place and must return the
    new state; a caller that still needs the old one passes a copy (`copy_state`).

Seats
    Seats are ints, 0 .. players - 1, in seating (clockwise) order as drawn at the start.

Moves
    A move is a JSON object `{"type": ..., ...}`. `legal_moves` enumerates them all;
    `format_move` writes one as the command a person would type, and `parse` reads such a
    command back: `parse(format_move(s, seat, m), s, seat) == m` for every legal move.

Public and private
    `to_act`, `prompt`, `result` and `describe(..., viewer=None)` are public: anyone may see
    them. `view(state, seat)` is the only way a player sees the state. `secrets(state)` lists,
    for the hidden-information checks, strings that must not reach the wrong eyes.
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass, field
from typing import Any

State = dict[str, Any]
Move = dict[str, Any]
View = dict[str, Any]


class IllegalMove(Exception):
    """A move the rules do not allow. The message is a sentence for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class ParseError(IllegalMove):
    """A command that could not be read. The message says what was expected."""


@dataclass(frozen=True)
class Option:
    """A variant a match can be created with."""

    key: str
    label: str
    default: Any
    choices: tuple[Any, ...] = (False, True)
    player_counts: tuple[int, ...] = ()  # empty: every player count
    help: str = ""

    def applies_to(self, players: int) -> bool:
        return not self.player_counts or players in self.player_counts


@dataclass(frozen=True)
class StandingOrder:
    """An instruction a player may leave so the game need not wait for them."""

    key: str
    label: str


@dataclass
class Result:
    """The end of a match. `scores[seat]`; `ranking` lists seats best first."""

    scores: list[int]
    ranking: list[int]
    notes: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "scores": self.scores,
            "ranking": self.ranking,
            "notes": self.notes,
            "details": self.details,
        }


class Game:
    """Base class for a game's rules. Subclasses override every method that raises."""

    slug: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    version: int = 1
    options: tuple[Option, ...] = ()
    standing_orders: tuple[StandingOrder, ...] = ()

    # --- setting up -------------------------------------------------------------------

    def option_defaults(self, players: int) -> dict[str, Any]:
        return {o.key: o.default for o in self.options if o.applies_to(players)}

    def validate_options(self, players: int, chosen: dict[str, Any]) -> dict[str, Any]:
        """The full option set for a match, or IllegalMove naming what is wrong."""
        if not self.min_players <= players <= self.max_players:
            raise IllegalMove(
                f"{self.title} is for {self.min_players} to {self.max_players} players, "
                f"not {players}."
            )
        known = {o.key: o for o in self.options}
        for key in chosen:
            if key not in known:
                raise IllegalMove(f"{self.title} has no option {key!r}.")
        result = self.option_defaults(players)
        for key, value in chosen.items():
            option = known[key]
            if value not in option.choices:
                raise IllegalMove(f"{option.label}: choose one of {list(option.choices)}.")
            if not option.applies_to(players) and value != option.default:
                raise IllegalMove(f"{option.label} is not available with {players} players.")
            if option.applies_to(players):
                result[key] = value
        return result

    def setup(self, players: list[str], options: dict[str, Any], rng) -> State:
        """The state before the first move. `players` are display names in seat order."""
        raise NotImplementedError

    # --- playing ---------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        """Seats that owe a decision now; several means simultaneous, in any order."""
        raise NotImplementedError

    def prompt(self, state: State, seat: int) -> str:
        """What `seat` is asked now, short: 'choose a character', 'place your bid'."""
        raise NotImplementedError

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        raise NotImplementedError

    def apply(self, state: State, seat: int, move: Move, rng) -> State:
        """Play `move` for `seat`; raise IllegalMove if it is not legal. May mutate `state`."""
        raise NotImplementedError

    def default_move(self, state: State, seat: int) -> Move:
        """What a deadline plays for a seat that did not answer."""
        raise NotImplementedError

    def bot_move(self, state: State, seat: int, rng) -> Move:
        raise NotImplementedError

    def standing_move(self, state: State, seat: int, orders: frozenset[str]) -> Move | None:
        """The move a seat's standing orders make for it now, if any."""
        return None

    def result(self, state: State) -> Result | None:
        raise NotImplementedError

    # --- what people see ---------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        """What `seat` may see (None: a spectator). JSON. The only door to the outside."""
        raise NotImplementedError

    def render_text(self, view: View) -> str:
        """The position as plain text for a fixed-width mail client."""
        raise NotImplementedError

    def format_move(self, state: State, seat: int, move: Move) -> str:
        """The command a person would type for `move`; `parse` reads it back."""
        raise NotImplementedError

    def parse(self, text: str, state: State, seat: int) -> Move:
        """Read one command; raise ParseError saying what was expected."""
        raise NotImplementedError

    def describe(
        self, before: State, after: State, seat: int | None, move: Move, viewer: int | None
    ) -> str:
        """One line of history for `viewer` (None: a spectator) about `move` by `seat`.

        `before` and `after` are the states around the move, so the narration can name what
        a move revealed (the card drawn, the bids opened) — but only what `viewer` may know.
        """
        raise NotImplementedError

    def help_text(self) -> str:
        """The commands this game understands, for 'help' by email and the match page."""
        return ""

    # --- checks ------------------------------------------------------------------------

    def secrets(self, state: State) -> dict[int | None, list[str]]:
        """Distinctive strings that only one seat may see (key: seat) or nobody (key: None).

        The hidden-information checks render everything a player can receive and fail if
        another seat's string, or a None string, appears. Strings must be distinctive enough
        that they cannot appear by chance (not '3', but e.g. the names of the cards in a hand
        in hand order, when that hand is not public).
        """
        return {}

    def check_invariants(self, state: State) -> None:
        """Raise AssertionError if the state breaks a rule that must always hold."""


def copy_state(state: State) -> State:
    """A deep copy of a JSON state (pickle round trip: several times faster than deepcopy)."""
    try:
        return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    except Exception:  # pragma: no cover - only for exotic values a state must not hold
        return copy.deepcopy(state)
