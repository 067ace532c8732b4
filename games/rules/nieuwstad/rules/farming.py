"""The Farmer: harvesting and sowing the fields, fishing, and the privilege's extra."""

from __future__ import annotations

from itertools import combinations_with_replacement

from games.engine import IllegalMove
from games.engine.words import Text, _, joined

from ..data import GOOD_NAMES
from .helpers import boats_of, either, name, privilege_count, privileged, ruleset, say


def farmer_extras(state, seat: int) -> list[list[str]]:
    """The privilege's choices: an extra of something the player also produces."""
    if not privileged(state, seat):
        return [[]]
    grain = pasture = False
    for b in state["buildings"].values():
        if b["owner"] == seat:
            kind = b["kind"]
            if kind == "grainfield":
                grain = True
            elif kind == "pasture":
                pasture = True
    kinds = []
    if boats_of(state, seat):
        kinds.append("fish")
    if grain:
        kinds.append("grain")
    if pasture:
        kinds.append("livestock")
    if not kinds:
        return [[]]
    k = privilege_count(state, seat)
    return [list(c) for c in combinations_with_replacement(kinds, k)]


def farmer_has_extra(state, seat: int) -> bool:
    """farmer_extras(...) != [[]]: the seat is the privileged chooser and produces something
    (a Boat first: no search of the buildings)."""
    if not privileged(state, seat):
        return False
    if state["boats"].count(seat) or state["loose_boats"].count(seat):  # boats_of()
        return True
    for b in state["buildings"].values():
        kind = b["kind"]
        if (kind == "grainfield" or kind == "pasture") and b["owner"] == seat:
            return True
    return False


def produce(state, seat: int, extras: list[str]) -> None:
    """[rulebook Farmer], read in its order: grain and livestock go onto the empty fields;
    tokens placed in an earlier turn come off into stock, so a field yields every other
    Farmer phase. Version 1, and the balance variant 'resow', harvest and sow every field."""
    produce_all(state, {seat: extras})


def produce_all(state, extras_of: dict[int, list[str] | tuple[()]]) -> None:
    """`produce` for each seat of `extras_of` (with its extras) in one pass over the
    buildings: a seat's fields and stock are its own, so each seat produces what it would
    alone; narrated seat by seat in the dict's order."""
    players = state["players"]
    resow = ruleset(state) < 2 or bool(state["options"].get("resow"))
    # Per seat: what came into stock (fish first, as the history tells it), fields sown.
    received: dict[int, dict[str, int]] = {}
    sown: dict[int, int] = {}
    planted: dict[int, list[dict]] = {}
    for seat in extras_of:  # a loop, not comprehensions' frames
        received[seat] = {"fish": 0, "grain": 0, "livestock": 0}
        sown[seat] = 0
        planted[seat] = []
    for b in state["buildings"].values():
        kind = b["kind"]  # most buildings are no field: the kind is tested first
        if kind == "grainfield":
            good = "grain"
        elif kind == "pasture":
            good = "livestock"
        else:
            continue
        seat = b["owner"]
        if seat not in extras_of:  # another's
            continue
        harvest = b["crop"]
        if harvest > 0:  # placed in an earlier turn: into stock
            players[seat][good] += harvest
            received[seat][good] += harvest
            b["crop"] = 0
        if harvest == 0 or resow:  # an empty field is sown
            b["crop"] = 1
            planted[seat].append(b)
            sown[seat] += 1
    boats, loose_boats = state["boats"], state["loose_boats"]
    for seat, extras in extras_of.items():
        player = players[seat]
        got = received[seat]
        fish = boats.count(seat) + loose_boats.count(seat)  # boats_of(), written out
        player["fish"] += fish
        got["fish"] = fish
        for good in extras:
            if good == "fish" or got[good] > 0:
                player[good] += 1
                got[good] += 1
            else:  # only sown: the extra goes onto the fields too [rulebook Farmer], the
                # first in the order of their first spaces' names (as they were once sorted)
                field = "grainfield" if good == "grain" else "pasture"
                fields = [b for b in planted[seat] if b["kind"] == field]
                min(fields, key=lambda b: b["cells"][0])["crop"] += 1
        if state["news"] is not None:
            say(state, farmed_text(name(state, seat), got, sown[seat], extras))


def farmed_text(who: str, got: dict[str, int], sown: int, extras) -> Text:
    """'Anna farmed: 1 fish, 2 grain; sowed 2 field(s) (extra fish).'"""
    parts = [_("{count} {good}", count=a, good=GOOD_NAMES[g]) for g, a in got.items() if a]
    harvest = joined(parts, ", ") if parts else _("nothing harvested")
    extra = joined([GOOD_NAMES[g] for g in extras], ", ")
    if sown and extras:
        return _(
            "{who} farmed: {harvest}; sowed {count} field(s) (extra {extra}).",
            who=who,
            harvest=harvest,
            count=sown,
            extra=extra,
        )
    if sown:
        return _(
            "{who} farmed: {harvest}; sowed {count} field(s).", who=who, harvest=harvest, count=sown
        )
    if extras:
        return _("{who} farmed: {harvest} (extra {extra}).", who=who, harvest=harvest, extra=extra)
    return _("{who} farmed: {harvest}.", who=who, harvest=harvest)


def farm_unasked(state, act: dict) -> bool:
    """The Farmer's phase from its actor to act on: when none of them has an extra to
    choose (only a privileged chooser, the first in order, may), each produces, all in one
    pass over the buildings, and their turns are over; False when the actor must choose."""
    order = act["order"]
    if farmer_has_extra(state, order[act["idx"]]):
        return False
    produce_all(state, dict.fromkeys(order[act["idx"] :], ()))  # no extras: read, never changed
    act["idx"] = len(order)
    act["turn"] = {}
    return True


def farm(state, seat: int, move: dict, checked: bool = True) -> None:
    extras = move.get("extra", [])
    if checked:
        options = farmer_extras(state, seat)
        if not isinstance(extras, list) or sorted(extras) not in [sorted(o) for o in options]:
            raise IllegalMove(
                _(
                    "Choose the Farmer's extra: {options} (something you also produce).",
                    options=either(
                        joined([GOOD_NAMES[g] for g in o], "+") if o else _("nothing")
                        for o in options
                    ),
                )
            )
    # Only the privileged chooser (the first in order) chooses: the actors after him choose
    # nothing, so they produce now, all in one pass over the buildings (see farm_unasked).
    act = state["act"]
    later = act["order"][act["idx"] + 1 :]
    extras_of = {seat: sorted(extras)}
    for s in later:
        extras_of[s] = ()  # no extras: read, never changed
    produce_all(state, extras_of)
    act["idx"] = len(act["order"])
    act["turn"] = {}
