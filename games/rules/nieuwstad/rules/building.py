"""Building: the Master Builder's discount, what a building costs, where it may stand, and a
build alone (a starting building or in the Master Builder phase).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from games.engine import IllegalMove
from games.engine.words import Text, _

from .. import geometry as B
from ..data import BOAT, BUILDINGS, DIR_NAMES, STARTING_BUILDINGS, Building
from .helpers import (
    change_burghers,
    either,
    gain_points,
    guilders_text,
    name,
    next_actor,
    pay_wood,
    privilege_count,
    privileged,
    say,
    wood_value,
)


def discount_options(state, seat: int, building: Building) -> list[str]:
    """The Master Builder's privilege: 1 guilder or 1 wood off (twice with Knowledge)."""
    if state["phase"] != "act" or not privileged(state, seat):
        return [""]
    g, w = base_cost(state, building)
    k = privilege_count(state, seat)
    found: dict[tuple[int, int], str] = {}
    for letters in combinations_with_replacement("gw", k):
        dg = min(g, letters.count("g"))
        dw = min(w, letters.count("w"))
        found.setdefault((dg, dw), "g" * dg + "w" * dw)
    best = max(dg + dw for dg, dw in found)
    return [s for (dg, dw), s in found.items() if dg + dw == best]


def base_cost(state, building: Building) -> tuple[int, int]:
    g, w = building.guilders, building.wood
    act = state["act"]
    if act and act["turn"].get("housebuilding") and building.key in ("house", "manor"):
        g, w = max(0, g - 2), max(0, w - 2)  # [card House Building]
    return g, w


def cost_after(state, building: Building, discount: str) -> tuple[int, int]:
    g, w = base_cost(state, building)
    if not discount:  # most builds: the costs are never below 0
        return g, w
    return max(0, g - discount.count("g")), max(0, w - discount.count("w"))


def can_afford(player: dict, g: int, w: int) -> bool:
    return player["guilders"] >= g and wood_value(player) >= w


def build_error(state, seat: int, building: Building) -> Text | str:
    """Why `seat` may not build this kind alone now (payment aside)."""
    player = state["players"][seat]
    if building.colour == "blue" and not blue_alone(state):
        return _(
            "The {building} is a community building: propose it to the others "
            "('propose ... with NAME').",
            building=building.name,
        )
    if building.colour != "blue" and player["light"] <= 0:
        return _("You have no light seals left, so you can no longer build.")
    if building.key == "boat":
        return "" if None in state["boats"] else _("Both Boats on the lake are taken.")
    if state["supply"].get(building.key, 0) <= 0:
        return _("No {building} is left to build.", building=building.name)
    if building.stall and player["dark"] <= 0:
        return _(
            "You have no dark seal left to mark the {building}'s market stall.",
            building=building.name,
        )
    return ""


def buildings_not_open(state, seat: int) -> list[tuple[Text, Text | str]]:
    """Each kind `seat` cannot build alone now, and why: the rule that forbids it, the price
    against the purse, or no space where it may stand (the builder's choices are the rest)."""
    player = state["players"][seat]
    closed = []
    memo: dict = {}
    for key, building in list(BUILDINGS.items()) + [("boat", BOAT)]:
        why = build_error(state, seat, building)
        if not why and not any(
            can_afford(player, *cost_after(state, building, d))
            for d in discount_options(state, seat, building)
        ):
            g, w = base_cost(state, building)
            why = _(
                "It costs {guilders} + {wood} wood; you have {purse} and {wood_held} wood "
                "(a plank counts 2).",
                guilders=guilders_text(g),
                wood=w,
                purse=guilders_text(player["guilders"]),
                wood_held=wood_value(player),
            )
        if not why and key != "boat" and not B.placements(state, building, memo):
            why = _("There is no free space where it may stand.")
        if why:
            closed.append((building.name, why))
    return closed


def blue_alone(state) -> bool:
    return bool(state["options"].get("blue_alone")) and state["n"] == 2


def check_build(
    state, seat: int, move: dict, free: bool, checked: bool = True
) -> tuple[Building, list[str], str | None]:
    key = move.get("building")
    building = BOAT if key == "boat" else BUILDINGS.get(key)
    if building is None:
        raise IllegalMove(_("There is no building called {key}.", key=str(key)))
    cells = move.get("cells") or []
    facing = move.get("facing")
    if free:
        if key not in STARTING_BUILDINGS:
            raise IllegalMove(_("Choose a starting building: a House, a Grain field or a Boat."))
    elif checked:
        error = build_error(state, seat, building)
        if error:
            raise IllegalMove(error)
    if key == "boat":
        if None not in state["boats"]:
            raise IllegalMove(_("Both Boats on the lake are taken."))
        if cells or facing is not None:
            raise IllegalMove(_("A Boat goes on the lake: name no spaces and no facing."))
        return building, [], None
    if free and state["supply"][key] <= 0:
        raise IllegalMove(_("No {building} is left.", building=building.name))
    cells, facing = check_place(state, building, cells, facing, checked)
    return building, cells, facing


def logged_build(state, move: dict) -> tuple[Building, list[str], str | None]:
    """What `check_build` returns for a logged build (not `checked`), without the calls
    that could only refuse it: the builds are most of a replay's moves."""
    key = move["building"]
    if key == "boat":
        return BOAT, [], None
    cells = B.sort_spaces(move["cells"])
    facing = move.get("facing")
    if B.geometry(state["board"]).area[cells[0]] == "country":
        facing = None  # as check_place keeps it
    return BUILDINGS[key], cells, facing


def check_place(
    state, building: Building, cells, facing, checked: bool = True
) -> tuple[list[str], str | None]:
    """The spaces and facing of a building as the state keeps them (sorted; no facing in the
    outer area), or IllegalMove saying what is wrong with the place (unless not `checked`:
    a logged move's place was checked when it was made)."""
    geo = B.geometry(state["board"])
    if checked:
        if not isinstance(cells, list) or len(cells) != building.size:
            raise IllegalMove(
                _(
                    "The {building} covers {size} space(s).",
                    building=building.name,
                    size=building.size,
                )
            )
        for cell in cells:
            if not isinstance(cell, str) or cell not in geo.area:
                if str(cell)[:10]:
                    raise IllegalMove(
                        _("{cell} is not a space on this board.", cell=str(cell)[:10])
                    )
                raise IllegalMove(_("That is not a space on this board."))
        if facing is not None and facing not in DIR_NAMES:
            raise IllegalMove(_("A building faces north, east, south or west (N, E, S or W)."))
    cells = B.sort_spaces(cells)
    # A building stands wholly in one area (placement_error refuses it otherwise, whatever
    # the facing): its first space tells which.
    if geo.area.get(cells[0]) == "country":
        facing = None
    if checked:
        error = B.placement_error(state, building, cells, facing)
        if error:
            raise IllegalMove(error)
    return cells, facing


def place(state, seat: int | None, building: Building, cells: list[str], facing) -> None:
    """Put a building on the board with its owner's seals."""
    if building.key == "boat":
        state["boats"][state["boats"].index(None)] = seat
        state["players"][seat]["light"] -= 1
        return
    bid = f"b{state['next_id']}"
    state["next_id"] += 1
    state["buildings"][bid] = {
        "kind": building.key,
        "cells": cells,
        "facing": facing,
        "owner": seat,
        "crop": 0,
    }
    for cell in cells:
        state["cells"][cell] = bid
    state["supply"][building.key] -= 1
    if building.colour == "blue":
        state["buildings"][bid]["owner"] = None  # it belongs to the city [rulebook]
    elif seat is not None:
        state["players"][seat]["light"] -= 1
        if building.stall:
            state["players"][seat]["dark"] -= 1
    if building.stall:
        state["stalls"][building.key] = seat  # the specialist joins the Market


def where(cells: list[str], facing) -> Text:
    if not cells:
        return _("on the lake")
    if facing:
        return _(
            "at {cells} facing {direction}", cells="+".join(cells), direction=DIR_NAMES[facing]
        )
    return _("at {cells}", cells="+".join(cells))


def build_start(state, seat: int, move: dict, checked: bool = True) -> None:
    if checked:
        building, cells, facing = check_build(state, seat, move, free=True)
    else:  # a logged starting building: the place was checked when it was made
        building, cells, facing = logged_build(state, move)
    place(state, seat, building, cells, facing)
    if state["news"] is not None:
        say(
            state,
            _(
                "{who} placed a starting {building} {where}.",
                who=name(state, seat),
                building=building.name,
                where=where(cells, facing),
            ),
        )
    state["idx"] += 1


def check_discount(state, seat: int, building: Building, discount: str) -> None:
    options = discount_options(state, seat, building)
    if discount not in options:
        if options == [""]:
            raise IllegalMove(_("Only the player who chose the Master Builder has a discount."))
        raise IllegalMove(
            _(
                "Choose your Master Builder discount: {options}.",
                options=either(discount_said(d) for d in options),
            )
        )


def discount_said(discount: str) -> Text:
    """'1 guilder', '1 guilder and 1 wood', '2 wood': a discount as the refusal names it."""
    g, w = discount.count("g"), discount.count("w")
    if g and w:
        return _("{g} guilder and {w} wood", g=g, w=w)
    if g:
        return _("{g} guilder", g=g)
    return _("{w} wood", w=w)


def build(state, seat: int, move: dict, checked: bool = True) -> None:
    if checked:
        building, cells, facing = check_build(state, seat, move, free=False)
    else:
        building, cells, facing = logged_build(state, move)
    player = state["players"][seat]
    discount = move.get("discount", "")
    if checked:
        check_discount(state, seat, building, discount)
    g, w = cost_after(state, building, discount)
    if checked and not can_afford(player, g, w):
        raise IllegalMove(
            _(
                "The {building} costs {guilders} guilders and {wood} wood; you have "
                "{purse} guilders and {wood_held} wood.",
                building=building.name,
                guilders=g,
                wood=w,
                purse=player["guilders"],
                wood_held=wood_value(player),
            )
        )
    player["guilders"] -= g
    pay_wood(player, w)
    place(state, seat, building, cells, facing)
    moved = change_burghers(state, building.burghers)
    gain_points(player, building.points)
    if state["news"] is not None:
        say(  # "a Office": put right in the history (text.worded), as the "acceptd" below
            state,
            _(
                "{who} built a {building} {where} for {guilders} g and {wood} wood: "
                "{points} point(s), Burghers {moved}.",
                who=name(state, seat),
                building=building.name,
                where=where(cells, facing),
                guilders=g,
                wood=w,
                points=building.points,
                moved=f"{moved:+d}",
            ),
        )
    next_actor(state)
