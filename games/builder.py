"""Building a move click by click on the board, over the list of legal moves.

Each game says how a legal move splits into steps (`Game.move_steps`: a building, then the
space, then the facing). The builder keeps the legal moves whose steps start with what was
clicked so far, offers the next step's targets, takes a step by itself when every move left
agrees on it, and stops when one move remains: that move is shown and confirmed. The clicks
so far travel in the URL (`?s=building:house&s=cell:E1`), so without JavaScript every step is
a plain link the server renders, and any step can be undone by following a shorter link.
Steps of one `group` (a development's parcels) are a set: clicked in any order, and a picked
one clicked again is taken out of the clicks. A trade (a sale, a purchase) is also offered as
one form of all its choices (`trade_forms`), whose answers arrive as the same clicks; a click
on a step the builder took by itself is passed over. Pure Python: the page (games/pages.py)
adds the URLs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import pgettext_lazy

from games.engine import Game, Move, State, Step

# Target of the extra choice offered when one move ends where longer ones go on.
AS_IS = "end:as-is"


@dataclass(frozen=True)
class Choice:
    """A target that may be clicked now, and the clicks that choosing it makes."""

    kind: str
    target: str
    label: str
    picked: tuple[str, ...]
    note: str = ""  # what choosing it costs or gives (Step.note)


@dataclass(frozen=True)
class Taken:
    """A step already taken: clicked (`undo` is the clicks before it) or forced (`undo` None).
    `deselect`, for a clicked step of a group, is the clicks without it (the others stay
    picked); None for any other step, which is undone instead."""

    step: Step
    undo: tuple[str, ...] | None
    deselect: tuple[str, ...] | None = None


@dataclass
class Builder:
    taken: list[Taken] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    move: Move | None = None  # the one move left, to confirm
    remaining: int = 0  # legal moves still possible
    error: str = ""  # the clicks asked for could not be followed (the position moved on)

    @property
    def targets(self) -> dict[str, Choice]:
        return {c.target: c for c in self.choices}

    @property
    def picked_targets(self) -> set[str]:
        return {t.step.target for t in self.taken}

    @property
    def deselect(self) -> dict[str, tuple[str, ...]]:
        """Target -> the clicks that take it out again, for each clicked step of a group."""
        return {t.step.target: t.deselect for t in self.taken if t.deselect is not None}


def build(game: Game, state: State, seat: int, picked: Sequence[str]) -> Builder:
    """The builder after the clicks `picked` (target ids), for `seat` in `state`."""
    legal = game.legal_moves(state, seat)
    candidates = [(move, list(game.move_steps(state, seat, move))) for move in legal]
    return narrow(candidates, list(picked))


def narrow(candidates: list[tuple[Move, list[Step]]], picked: list[str]) -> Builder:
    """Follow `picked` through the candidates' steps; unknown clicks start again."""
    if not candidates:
        return Builder()
    taken: list[Taken] = []
    position = 0
    clicks: list[str] = []
    for target in picked:
        forced_from = len(taken)
        position = _forced(candidates, position, taken)
        if any(t.step.target == target for t in taken[forced_from:]):
            continue  # a click on a step that was taken by itself (a trade's form sends it)
        if target == AS_IS:
            kept = [c for c in candidates if len(c[1]) == position]
        else:
            kept = []
            for move, steps in candidates:
                fitting = _clicked(steps, position, target)
                if fitting is not None:
                    kept.append((move, fitting))
        if not kept:
            fresh = narrow(candidates, [])
            fresh.error = "That choice is no longer open; start the move again."
            return fresh
        step = Step("end", AS_IS, "as it is") if target == AS_IS else kept[0][1][position]
        deselect = tuple(t for t in picked if t != target) if step.group else None
        taken.append(Taken(step, tuple(clicks), deselect))
        clicks.append(target)
        candidates = kept
        if target != AS_IS:
            position += 1
    position = _forced(candidates, position, taken)
    builder = Builder(taken=taken, remaining=len(candidates))
    if len(candidates) == 1:
        move, steps = candidates[0]
        builder.taken += [Taken(step, None) for step in steps[position:]]
        builder.move = move
        return builder
    seen: set[str] = set()
    for _move, steps in candidates:
        offered = [Step("end", AS_IS, "as it is")] if len(steps) == position else []
        offered += steps[position : _group_end(steps, position)]
        for step in offered:
            if step.target not in seen:
                seen.add(step.target)
                builder.choices.append(
                    Choice(step.kind, step.target, step.label, (*clicks, step.target), step.note)
                )
    return builder


def _group_end(steps: list[Step], position: int) -> int:
    """Where the run of steps from `position` that may be clicked now ends: one step, or
    the rest of its group."""
    if position >= len(steps):
        return position
    end = position + 1
    group = steps[position].group
    while group and end < len(steps) and steps[end].group == group:
        end += 1
    return end


def _clicked(steps: list[Step], position: int, target: str) -> list[Step] | None:
    """The steps with `target` clicked at `position` (a step of the group there moved to the
    front), or None if the move cannot take that click now."""
    for index in range(position, _group_end(steps, position)):
        if steps[index].target == target:
            if index == position:
                return steps
            return [*steps[:position], steps[index], *steps[position:index], *steps[index + 1 :]]
    return None


def _forced(candidates: list[tuple[Move, list[Step]]], position: int, taken: list[Taken]) -> int:
    """Take every step all candidates agree on (while more than one move is left)."""
    while len(candidates) > 1:
        if any(len(steps) <= position for _move, steps in candidates):
            return position
        first = candidates[0][1][position]
        if any(steps[position].target != first.target for _move, steps in candidates):
            return position
        taken.append(Taken(first, None))
        position += 1
    return position


@dataclass
class TradeField:
    kind: str  # the steps' kind: good, resource, at, count
    options: list[tuple[str, str]]  # (target, label)

    @property
    def title(self) -> str:
        return TRADE_FIELDS.get(self.kind, self.kind.capitalize())


@dataclass
class TradeForm:
    """A trade (a sale, a purchase) as one small form at the market (issue 28): every choice
    of it at once, each a row of chips to tap, sent as the clicks the steps would make (`s`),
    so that without JavaScript the page builds the move from them as from links. A choice
    that all the trades left agree on is taken by the builder itself."""

    action: Choice  # act:sell or act:buy
    fields: list[TradeField]


TRADE_ACTIONS = ("act:sell", "act:buy")
TRADE_FIELDS = {
    "good": pgettext_lazy("trade", "Good"),
    "resource": pgettext_lazy("trade", "Resource"),
    "at": pgettext_lazy("trade", "Where"),
    "count": pgettext_lazy("trade", "How many"),
}


def trade_forms(game: Game, state: State, seat: int, built: Builder) -> list[TradeForm]:
    """A form for each trade action offered now, with the choices of every legal trade."""
    forms = []
    for choice in built.choices:
        if choice.target not in TRADE_ACTIONS:
            continue
        rows: list[list] = []
        for move in game.legal_moves(state, seat):
            targets = [step.target for step in game.move_steps(state, seat, move)]
            if choice.target in targets:
                steps = list(game.move_steps(state, seat, move))
                rows.append(steps[targets.index(choice.target) + 1 :])
        fields: list[TradeField] = []
        for position in range(max((len(r) for r in rows), default=0)):
            options: dict[str, str] = {}
            for steps in rows:
                if position < len(steps):
                    options.setdefault(steps[position].target, steps[position].label)
            kinds = {steps[position].kind for steps in rows if position < len(steps)}
            if len(options) > 1 and len(kinds) == 1:
                fields.append(TradeField(kinds.pop(), list(options.items())))
        if fields:
            forms.append(TradeForm(choice, fields))
    return forms
