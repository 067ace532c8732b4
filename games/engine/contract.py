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
import functools
import pickle
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .menus import MenuLine, MenuParts, ReferenceSection, group_moves
from .words import joined, pgettext

State = dict[str, Any]
Move = dict[str, Any]
View = dict[str, Any]


class Step(NamedTuple):
    """One click of a move built on the board: what is chosen (`kind`: "building", "cell"),
    the id of the thing clicked (`target`: "cell:D7", the `data-target` of an SVG element or
    a button) and its words for the player (`label`: "D7"). Consecutive steps of one move
    with the same `group` are one set, clicked in any order (the parcels of a development);
    clicking a picked one again takes it out. `note` says what choosing it costs or gives
    ("2 guilders + 3 wood; 2 points"), shown with the choice."""

    kind: str
    target: str
    label: str
    group: str = ""
    note: str = ""


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
    choice_labels: tuple[str, ...] = ()  # what a person reads for each choice, in its order

    def applies_to(self, players: int) -> bool:
        return not self.player_counts or players in self.player_counts

    def choice_label(self, choice: Any) -> str:
        """The words for `choice` (a Text the platform says), else the choice itself."""
        labels = dict(zip(self.choices, self.choice_labels, strict=False))
        return labels.get(choice, str(choice))


@dataclass(frozen=True)
class StandingOrder:
    """An instruction a player may leave so the game need not wait for them."""

    key: str
    label: str


@dataclass
class Result:
    """The end of a match. `scores[seat]`; `ranking` lists seats best first.

    `shared` lists groups of seats the rulebook cannot separate: they share a place (each
    group is a run of neighbours in `ranking`). `places(result)` reads the places back."""

    scores: list[int]
    ranking: list[int]
    notes: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    shared: list[list[int]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "scores": self.scores,
            "ranking": self.ranking,
            "notes": self.notes,
            "details": self.details,
            "shared": self.shared,
        }


def score_line(name: str, parts: list[tuple[str, int]]):
    """One seat's final score as a sum a player can check: "Anna: 12 points + 3 Painting =
    15". `parts` are (what, points); a part that takes points away is subtracted."""
    total = sum(points for _what, points in parts)
    terms = []
    for index, (what, points) in enumerate(parts):
        sign = "- " if points < 0 else ("+ " if index else "")
        terms.append(joined([f"{sign}{abs(points)}", what], " "))  # `what` may be a Text
    return joined([name, ": ", joined(terms, " "), f" = {total}"], "")


def shared_groups(ranking: list[int], same) -> list[list[int]]:
    """Runs of neighbours in `ranking` that `same(a, b)` cannot separate, two or more long."""
    groups: list[list[int]] = []
    run: list[int] = []
    for seat in ranking:
        if run and same(run[-1], seat):
            run.append(seat)
        else:
            if len(run) > 1:
                groups.append(run)
            run = [seat]
    if len(run) > 1:
        groups.append(run)
    return groups


def places(result: dict[str, Any]) -> list[tuple[int, int, bool]]:
    """(place, seat, shared) for each seat of a result's ranking, best first.

    Seats in one `shared` group take the place of the first of them, and the next seat the
    place after all of them (1, 1, 3). A result stored before places could be shared has no
    `shared` and ranks everybody apart."""
    group_of = {}
    for group in result.get("shared") or []:
        for seat in group:
            group_of[seat] = tuple(group)
    out: list[tuple[int, int, bool]] = []
    for index, seat in enumerate(result.get("ranking") or []):
        group = group_of.get(seat)
        if out and group is not None and group_of.get(out[-1][1]) == group:
            out.append((out[-1][0], seat, True))
        else:
            out.append((index + 1, seat, group is not None))
    return out


# Bounds on a move's values: far above anything a game needs, far below what could cost time.
MAX_WHOLE_NUMBER = 10**9
MAX_TEXT = 500
MAX_ITEMS = 200
MAX_DEPTH = 6


def _whole(v: Any) -> bool:
    return type(v) is int and -MAX_WHOLE_NUMBER <= v <= MAX_WHOLE_NUMBER


def _word(v: Any) -> bool:
    return type(v) is str and len(v) <= MAX_TEXT


# Kinds a game may declare for a move's fields (Game.move_fields), with the same bounds as
# the generic check, so a declared move is walked once.
FIELD_KINDS = {
    "int": ("a whole number", _whole),
    "str": ("a word", _word),
    "bool": ("true or false", lambda v: type(v) is bool),
    "str?": ("a word or null", lambda v: v is None or _word(v)),
    "ints": (
        "a list of whole numbers",
        lambda v: type(v) is list and len(v) <= MAX_ITEMS and all(_whole(x) for x in v),
    ),
    "strs": (
        "a list of words",
        lambda v: type(v) is list and len(v) <= MAX_ITEMS and all(_word(x) for x in v),
    ),
}

# What a game's own code raises when a move's values are of a shape it did not expect.
SHAPE_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError)


def _check_value(value: Any, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise IllegalMove("That move is nested too deeply to be a move.")
    if value is None or type(value) is bool or type(value) is str and len(value) <= MAX_TEXT:
        return
    if type(value) is int:
        if abs(value) > MAX_WHOLE_NUMBER:
            raise IllegalMove(f"{value} is too large a number for any move.")
        return
    if type(value) is float:
        raise IllegalMove(f"Numbers in a move are whole numbers; {value!r} is not.")
    if type(value) is str:
        raise IllegalMove(f"That move holds a text longer than {MAX_TEXT} characters.")
    if type(value) is list:
        if len(value) > MAX_ITEMS:
            raise IllegalMove(f"That move lists more than {MAX_ITEMS} things.")
        for item in value:
            _check_value(item, depth + 1)
        return
    if type(value) is dict:
        if len(value) > MAX_ITEMS:
            raise IllegalMove(f"That move has more than {MAX_ITEMS} fields.")
        for key, item in value.items():
            if type(key) is not str:
                raise IllegalMove("The fields of a move are named by words.")
            _check_value(item, depth + 1)
        return
    raise IllegalMove("A move holds only JSON values: objects, lists, words, numbers, true/false.")


def check_move(game: Game, move: Any) -> None:
    """The shape every move must have before a game's own rules look at it: a JSON object
    with a "type" naming a move, holding only JSON values of bounded size, whole numbers and
    no floats; and, where the game declares its `move_fields`, only those fields, each of its
    kind. Raises IllegalMove with a sentence for the player."""
    if type(move) is not dict:
        raise IllegalMove('A move is a JSON object with a "type", such as {"type": "pass"}.')
    kind = move.get("type")
    if type(kind) is not str:
        raise IllegalMove('A move needs a "type" naming it, such as {"type": "pass"}.')
    if not game.move_fields:
        _check_value(move, 0)
        return
    fields = game.move_fields.get(kind)
    if fields is None:
        known = ", ".join(sorted(game.move_fields))
        raise IllegalMove(f"{game.title} has no {kind[:40]!r} move; the moves are {known}.")
    for key, value in move.items():
        if key == "type":
            continue
        spec = fields.get(key)
        if spec is None:
            raise IllegalMove(f"A {kind!r} move has no field {str(key)[:40]!r}.")
        description, fits = FIELD_KINDS[spec]
        if not fits(value):
            raise IllegalMove(f"The {key!r} of a {kind!r} move is {description}.")


def _narrating(apply):
    """A rules class's unguarded `apply` as its `replay_move`: it narrates every move."""

    def replay_move(self, state, seat, move, rng, narrate=True):
        return apply(self, state, seat, move, rng)

    return replay_move


def _guarded(apply):
    """Wrap a game's `apply` so that any JSON value as a move gets IllegalMove and nothing
    else: the shape is checked first (`check_move`), and an error the game's own code raises
    on a value it did not expect becomes IllegalMove. The rules still check what they need
    before they change the state, so a refused move leaves it as it was."""

    @functools.wraps(apply)
    def guarded_apply(self, state, seat, move, rng):
        check_move(self, move)
        try:
            return apply(self, state, seat, move, rng)
        except IllegalMove:
            raise
        except SHAPE_ERRORS as error:
            raise IllegalMove(
                "That move is not one this game understands now; send one of the listed moves."
            ) from error

    guarded_apply.guarded = True
    return guarded_apply


class Game:
    """Base class for a game's rules. Subclasses override every method that raises.

    Every subclass's `apply` is wrapped by `_guarded`: see `check_move`."""

    slug: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    version: int = 1
    options: tuple[Option, ...] = ()
    standing_orders: tuple[StandingOrder, ...] = ()
    # Move type -> field -> kind (a key of FIELD_KINDS). Empty: only the generic checks.
    move_fields: dict[str, dict[str, str]] = {}
    # The English words and phrases of its commands, marked for the catalogue
    # (games.engine.words): the platform reads and writes them in the player's language.
    command_words: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        apply = cls.__dict__.get("apply")
        if apply is not None and not getattr(apply, "guarded", False):
            cls.apply = _guarded(apply)
            if "replay_move" not in cls.__dict__:
                cls.replay_move = _narrating(apply)

    def replay_move(
        self, state: State, seat: int | None, move: Move, rng, narrate: bool = True
    ) -> State:
        """`apply` for a move read back from the log, which `apply` accepted when it was
        appended: the shape check (`check_move`) is not repeated; the rules' own checks run
        as in `apply`. Replaying the same log gives the same positions either way
        (tests/games/test_trusted_replay.py); `verify_match` replays through `apply`.

        `narrate` False: no one will read this move's `news`, because the replay goes on to
        a later move that writes its own (`games.replay.replay_rows` says which). Rules whose
        every move starts a fresh `news` may then skip writing it; every other key of the
        state must be exactly as `apply` leaves it. The default narrates every move."""
        return self.apply(state, seat, move, rng)

    # What the rulebook calls one pass of the game's cycle ("Round", Blankenburg's "Turn"),
    # as the replay's jump list and score chart name it; see `round_of`.
    round_name: str = pgettext("round", "Round")
    # The names of the goods a player entry of the view counts (its "goods" or "res" keys),
    # as the players panel says them; a key without one is shown as it is.
    goods_names: dict[str, str] = {}

    # Prefixes of the step targets its board template draws ("cell" for "cell:D7"); the
    # page offers the other targets as buttons beside the board.
    board_targets: tuple[str, ...] = ()

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

    def only_move(self, state: State, seat: int) -> Move | None:
        """The one legal move of `seat` now, or None when it has several or none.

        The driver asks this for every seat to act after every move, only to learn whether
        the rulebook leaves that seat a choice. The default lists `legal_moves`; a game whose
        menus are long (every proposal a builder could make) answers without listing them,
        and must answer exactly as the default would (tests/games/test_only_move.py)."""
        legal = self.legal_moves(state, seat)
        return legal[0] if len(legal) == 1 else None

    def apply(self, state: State, seat: int, move: Move, rng) -> State:
        """Play `move` for `seat`; raise IllegalMove if it is not legal. May mutate `state`,
        but only once the move is known to be legal: a refused move leaves it unchanged."""
        raise NotImplementedError

    def default_move(self, state: State, seat: int) -> Move:
        """What a deadline plays for a seat that did not answer."""
        raise NotImplementedError

    def bot_move(self, state: State, seat: int, rng) -> Move:
        raise NotImplementedError

    def asks_when_forced(self, state: State, seat: int) -> bool:
        """True when `seat` has one legal move only because of what it alone knows (a purse
        behind a screen): it is then asked like anyone, alone or in a simultaneous decision,
        since playing the move for it would tell the table why. See games.engine.driver."""
        return False

    def reads_numbers(self, state: State, seat: int) -> bool:
        """True when a bare number is itself a command now (New England's "7" for chip 7):
        the platform then numbers no menu, so a number never means two things."""
        return False

    def standing_move(self, state: State, seat: int, orders: frozenset[str]) -> Move | None:
        """The move a seat's standing orders make for it now, if any."""
        return None

    def result(self, state: State) -> Result | None:
        """The end: scores, ranking, shared places, and `notes` for the players, which begin
        with each seat's final score as a sum (`score_line`) where the score has parts."""
        raise NotImplementedError

    def round_of(self, state: State) -> int | None:
        """The public number of the `round_name` being played, counting up from 1 over the
        whole match; None before the first (an opening the rulebook does not number) or for
        a game that does not count them."""
        return None

    # --- what people see ---------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        """What `seat` may see (None: a spectator). JSON. The only door to the outside."""
        raise NotImplementedError

    def seat_colours(self, state: State) -> list[str]:
        """Each seat's colour on the board ("#rrggbb"), for pages drawn beside it (the score
        chart); empty when the game has none."""
        return []

    def render_text(self, view: View) -> str:
        """The position as plain text for a fixed-width mail client."""
        raise NotImplementedError

    def format_move(self, state: State, seat: int, move: Move) -> str:
        """The command a person would type for `move`; `parse` reads it back."""
        raise NotImplementedError

    def parse(self, text: str, state: State, seat: int) -> Move:
        """Read one command; raise ParseError saying what was expected."""
        raise NotImplementedError

    def move_steps(self, state: State, seat: int, move: Move) -> list[Step]:
        """How `move` is built click by click on the board (games/builder.py). The default is
        one click on the move's command; a game splits its moves so each step names one thing
        on its board (a tile, then where it goes). Two legal moves never share all steps."""
        command = self.format_move(state, seat, move)
        return [Step("choice", f"cmd:{command}", command)]

    def not_open(self, state: State, seat: int, kind: str) -> list[tuple[str, str]]:
        """The things of a step's `kind` ("building") that `seat` cannot choose now, each
        with why in a sentence for the player ("costs 5 guilders + 5 wood; you have 2
        guilders and 3 wood"), shown beside that step's choices. Only what `seat` may know."""
        return []

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

    def menu_parts(self, state: State, seat: int, move: Move) -> MenuParts:
        """How `move`'s command is cut for a compact menu (see games.engine.menus): the
        words it shares with similar moves, what varies, an optional ending, and a note of
        the facts that help choose. By default each command stands alone."""
        return MenuParts(self.format_move(state, seat, move))

    def menu_lines(
        self, state: State, seat: int, moves: list[Move] | None = None
    ) -> list[MenuLine]:
        """Every legal move (or `moves`) on lines of commands that start alike."""
        moves = self.legal_moves(state, seat) if moves is None else moves
        return group_moves([(self.menu_parts(state, seat, m), m) for m in moves])

    def reference(self, view: View) -> list[ReferenceSection]:
        """The facts a player needs to decide (costs, cards, what codes mean), as tables
        built from what `view` shows. The email's text and the page render the same."""
        return []

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
