"""Community buildings and joint building: proposals, their terms (negotiated in version 2),
counter-offers and the answers.
"""

from __future__ import annotations

from collections.abc import Iterator

from games.engine import IllegalMove
from games.engine.words import Text, _, joined

from .. import geometry as B
from ..data import BUILDINGS, Building
from .building import base_cost, can_afford, check_place, cost_after, discount_options, place, where
from .helpers import (
    CLOCKWISE,
    change_burghers,
    clockwise,
    either,
    gain_points,
    name,
    next_actor,
    pay_wood,
    privilege_count,
    privileged,
    ruleset,
    say,
    wood_value,
)


def proposable(state, seat: int, building: Building) -> bool:
    if building.key == "boat":
        return False
    if state["supply"].get(building.key, 0) <= 0:
        return False
    if building.colour == "blue":
        return True
    if not state["options"].get("joint"):
        return False
    player = state["players"][seat]
    return player["light"] > 0 and (not building.stall or player["dark"] > 0)


def shares(state, seat: int, building: Building, partners: list[int]) -> dict[int, dict]:
    """Even split of cost and points; the proposer pays and takes the remainders."""
    return split_evenly([seat, *partners], even_cost(state, seat, building), building.points)


def even_cost(state, seat: int, building: Building) -> tuple[int, int]:
    """What the even split shares out: the cost after the Master Builder's discount, taken
    in guilders first."""
    discount = ""
    if state["phase"] == "act" and privileged(state, seat):
        k = privilege_count(state, seat)
        g, w = base_cost(state, building)
        dg = min(g, k)
        discount = "g" * dg + "w" * min(w, k - dg)
    return cost_after(state, building, discount)


def split_evenly(people: list[int], cost: tuple[int, int], points: int) -> dict[int, dict]:
    """`shares` for a cost already worked out: the first of `people` takes the remainders."""
    g, w = cost
    k = len(people)
    result = {}
    for i, s in enumerate(people):
        result[s] = {
            "guilders": g // k + (g % k if i == 0 else 0),
            "wood": w // k + (w % k if i == 0 else 0),
            "points": points // k + (points % k if i == 0 else 0),
        }
    return result


def allowed_costs(state, proposer: int, building: Building) -> list[tuple[int, int]]:
    """The totals a proposal's shares may add up to: one per discount the proposer may take."""
    return [cost_after(state, building, d) for d in discount_options(state, proposer, building)]


def partner_sets(state, seat: int) -> list[list[int]]:
    others = [s for s in clockwise(state, seat)[1:]]
    sets: list[list[int]] = []
    for mask in range(1, 1 << len(others)):
        sets.append([s for i, s in enumerate(others) if mask >> i & 1])
    return sets


# The community (blue) buildings: the only ones proposed unless the match plays "joint".
COMMUNITY_BUILDINGS = tuple(b for b in BUILDINGS.values() if b.colour == "blue")


def can_propose_any(state, seat: int) -> bool:
    if seat in state["act"]["proposed"]:
        return False
    kinds = BUILDINGS.values() if state["options"].get("joint") else COMMUNITY_BUILDINGS
    return any(proposable(state, seat, b) for b in kinds)


def menu_partners(state, seat: int, building: Building) -> Iterator[tuple[list[int], dict]]:
    """Each partner set the menu proposes `building` with, clockwise, and the terms it names:
    version 1 the even split, which everyone must afford; version 2 `menu_split`. One at a
    time, so that `any_proposal` stops at the first."""
    if ruleset(state) >= 2:
        costs = even_cost(state, seat, building), allowed_costs(state, seat, building)
        for partners in partner_sets(state, seat):
            split = menu_split(state, seat, building, partners, costs)
            if split is not None:
                yield partners, split
        return
    cost = even_cost(state, seat, building)
    players = state["players"]
    for partners in partner_sets(state, seat):
        split = split_evenly([seat, *partners], cost, building.points)
        if all(can_afford(players[s], d["guilders"], d["wood"]) for s, d in split.items()):
            yield partners, split


def proposal_moves(state, seat: int, memo: dict | None = None) -> list[dict]:
    if seat in state["act"]["proposed"]:
        return []
    moves = []
    named = ruleset(state) >= 2  # version 2 moves name the terms; version 1 the partners
    for key, building in BUILDINGS.items():
        if not proposable(state, seat, building):
            continue
        spots = None
        for partners, split in menu_partners(state, seat, building):
            if spots is None:
                spots = B.placements(state, building, memo)
                if not spots:
                    break
            if not named:
                for cells, facing in spots:
                    moves.append(
                        {
                            "type": "propose",
                            "building": key,
                            "cells": cells,
                            "facing": facing,
                            "partners": partners,
                        }
                    )
                continue
            seats = list(split)
            guilders = [d["guilders"] for d in split.values()]
            wood = [d["wood"] for d in split.values()]
            points = [d["points"] for d in split.values()]
            for cells, facing in spots:  # each move its own lists, as terms_fields makes them
                moves.append(
                    {
                        "type": "propose",
                        "building": key,
                        "cells": cells,
                        "facing": facing,
                        "seats": list(seats),
                        "guilders": list(guilders),
                        "wood": list(wood),
                        "points": list(points),
                    }
                )
    return moves


def any_proposal(state, seat: int) -> bool:
    """bool(proposal_moves(...)), stopping at the first proposal found."""
    if seat in state["act"]["proposed"]:
        return False
    return any(
        proposable(state, seat, building)
        and next(menu_partners(state, seat, building), None) is not None
        and B.has_placement(state, building)
        for building in BUILDINGS.values()
    )


# Free negotiation (version 2). "The players may negotiate about everything: how the payment
# is shared, how the victory points are shared, location, and so on" [rulebook Exceptions]:
# a proposal names each partner's guilders, wood and points and the place; partners accept,
# decline or counter (each once per negotiation, so it ends); any decline ends it.

TERMS = ("guilders", "wood", "points")


def terms_fields(split: dict[int, dict]) -> dict:
    """A split as a move's fields: parallel lists in the split's (clockwise) order."""
    seats = list(split)
    return {"seats": seats, **{k: [split[s][k] for s in seats] for k in TERMS}}


def move_terms(state, seat: int, move: dict) -> dict[int, dict]:
    """Who pays and takes what under a proposal move (version 1: the even split)."""
    if "seats" in move:
        return {s: {k: move[k][i] for k in TERMS} for i, s in enumerate(move["seats"])}
    building = BUILDINGS[move["building"]]
    return shares(state, seat, building, move["partners"])


def menu_split(
    state,
    seat: int,
    building: Building,
    partners: list[int],
    costs: tuple[tuple[int, int], list[tuple[int, int]]] | None = None,
) -> dict | None:
    """The terms the menu offers for these partners: the even split if it is within the
    limits, else a split where everyone pays what they can (each at least one guilder or
    wood, the proposer most), so the menu lists a proposal whenever these partners can build
    it together at all. Any other terms may be typed. Keyed clockwise from `seat`, as
    `check_terms` returns them. `costs`: (even_cost, allowed_costs), when the caller asks
    for many partner sets."""
    people = [seat, *partners]
    n = state["n"]
    if not partners or len(set(people)) != len(people) or not all(0 <= s < n for s in partners):
        return None  # terms check_terms refuses, whatever they are
    if costs is None:
        costs = even_cost(state, seat, building), allowed_costs(state, seat, building)
    total, allowed = costs
    players = state["players"]
    even = split_evenly(people, total, building.points)
    if within_limits(players, building, even, allowed):
        return clockwise_terms(state, seat, even)
    points = {s: even[s]["points"] for s in people}
    for cost in allowed:  # one split per discount: the first within the limits
        need = dict(zip(("guilders", "wood"), cost, strict=True))
        have = {
            s: {"guilders": players[s]["guilders"], "wood": wood_value(players[s])} for s in people
        }
        pay = {s: {"guilders": 0, "wood": 0} for s in people}
        for s in [*partners, seat]:  # everyone pays something, partners first
            key = next((k for k in ("guilders", "wood") if need[k] and have[s][k]), None)
            if key is None:
                break
            pay[s][key] += 1
            have[s][key] -= 1
            need[key] -= 1
        for s in people:  # the rest, the proposer first
            for key in ("guilders", "wood"):
                part = min(need[key], have[s][key])
                pay[s][key] += part
                need[key] -= part
        split = {s: {**pay[s], "points": points[s]} for s in people}
        if within_limits(players, building, split, allowed):
            return clockwise_terms(state, seat, split)
    return None


def within_limits(
    players: list[dict], building: Building, split: dict[int, dict], allowed: list[tuple[int, int]]
) -> bool:
    """Whether `check_terms` accepts terms the menu made (distinct seats, the proposer among
    them, no share below 0): they add up to an allowed cost and to the building's points,
    and everyone pays something they can pay."""
    guilders = wood = points = 0
    for s, share in split.items():
        g, w = share["guilders"], share["wood"]
        if not (g or w) or not can_afford(players[s], g, w):
            return False
        guilders += g
        wood += w
        points += share["points"]
    return (guilders, wood) in allowed and points == building.points


def clockwise_terms(state, proposer: int, split: dict[int, dict]) -> dict[int, dict]:
    """A split keyed clockwise from the proposer, as `check_terms` returns it."""
    return {s: split[s] for s in CLOCKWISE[state["n"]][proposer] if s in split}


def named_terms(state, proposer: int, move: dict) -> dict[int, dict]:
    """The shares a proposal or counter-offer names, keyed by seat clockwise from the
    proposer (as they were checked: `check_terms`)."""
    seats = move["seats"]
    guilders, wood, points = move["guilders"], move["wood"], move["points"]
    split = {}
    for s in CLOCKWISE[state["n"]][proposer]:
        if s in seats:
            i = seats.index(s)
            split[s] = {"guilders": guilders[i], "wood": wood[i], "points": points[i]}
    return split


def check_terms(state, proposer: int, building: Building, move: dict) -> dict[int, dict]:
    """The shares a proposal or counter-offer names, checked against the rulebook's limits,
    keyed by seat clockwise from the proposer; or IllegalMove saying what is wrong."""
    seats = move.get("seats")
    if not seats:
        raise IllegalMove(_("Name who builds together, each with guilders, wood and points."))
    if any(len(move.get(k) or []) != len(seats) for k in TERMS):
        raise IllegalMove(_("Give each partner's share: guilders, wood and points."))
    if any(s < 0 or s >= state["n"] for s in seats) or len(set(seats)) != len(seats):
        raise IllegalMove(_("Name each player once, from this game's players."))
    if proposer not in seats or len(seats) < 2:
        raise IllegalMove(
            _(
                "A community building is built together: {who} and one or more others.",
                who=name(state, proposer),
            )
        )
    split = named_terms(state, proposer, move)
    if any(v < 0 for d in split.values() for v in d.values()):
        raise IllegalMove(_("Shares are 0 or more guilders, wood and points."))
    paid = (sum(d["guilders"] for d in split.values()), sum(d["wood"] for d in split.values()))
    costs = allowed_costs(state, proposer, building)
    if paid not in costs:
        raise IllegalMove(
            _(
                "The {building} costs {costs}; the shares add up to {guilders} guilders and "
                "{wood} wood.",
                building=building.name,
                costs=either(
                    _("{guilders} guilders and {wood} wood", guilders=g, wood=w) for g, w in costs
                ),
                guilders=paid[0],
                wood=paid[1],
            )
        )
    points = sum(d["points"] for d in split.values())
    if points != building.points:
        raise IllegalMove(
            _(
                "The {building} gives {points} points; the shares add up to {shares}.",
                building=building.name,
                points=building.points,
                shares=points,
            )
        )
    for s, d in split.items():
        if not d["guilders"] + d["wood"]:
            raise IllegalMove(
                _(
                    "{who} pays nothing: a community building is paid for together, so everyone "
                    "in it pays some guilders or wood.",
                    who=name(state, s),
                )
            )
        if not can_afford(state["players"][s], d["guilders"], d["wood"]):
            raise IllegalMove(
                _(
                    "{who} cannot pay {guilders} guilders and {wood} wood.",
                    who=name(state, s),
                    guilders=d["guilders"],
                    wood=d["wood"],
                )
            )
    return split


def terms_text(state, split: dict) -> Text:
    names = state["names"]
    return joined(
        [
            _(
                "{who} pays {guilders} g and {wood} wood for {points} point(s)",
                who=names[int(s)],
                guilders=d["guilders"],
                wood=d["wood"],
                points=d["points"],
            )
            for s, d in split.items()
        ],
        "; ",
    )


def counter_moves(state, seat: int) -> list[dict]:
    """The menu's counter-offer: the menu's terms for these partners (the even split when it
    is within the limits) at the same place, when they differ from the terms on the table.
    Any other terms, or another place, may be typed."""
    pending = state["pending"]
    if seat in pending["countered"]:
        return []
    building = BUILDINGS[pending["building"]]
    proposer = pending["by"]
    partners = [int(s) for s in pending["split"] if int(s) != proposer]
    split = menu_split(state, proposer, building, partners)
    if split is None or split == {int(s): d for s, d in pending["split"].items()}:
        return []
    return [
        {
            "type": "counter",
            "cells": pending["cells"],
            "facing": pending["facing"],
            **terms_fields(split),
        }
    ]


def check_counter(state, seat: int, move: dict) -> None:
    """IllegalMove unless `seat` may make a counter-offer now, to the same partners."""
    pending = state["pending"]
    if ruleset(state) < 2:
        raise IllegalMove(_("Answer the proposal: 'accept' or 'decline'."))
    if seat in pending["countered"]:
        raise IllegalMove(
            _("You made your counter-offer in this negotiation: now accept or decline.")
        )
    if sorted(move.get("seats") or []) != sorted(int(s) for s in pending["split"]):
        raise IllegalMove(
            _(
                "A counter-offer keeps the partners: {names}.",
                names=", ".join(name(state, int(s)) for s in pending["split"]),
            )
        )


def counter(state, seat: int, move: dict, checked: bool = True) -> None:
    pending = state["pending"]
    building = BUILDINGS[pending["building"]]
    proposer = pending["by"]
    if checked:
        check_counter(state, seat, move)
        split = check_terms(state, proposer, building, move)
    else:
        split = named_terms(state, proposer, move)
    cells, facing = pending["cells"], pending["facing"]
    if "cells" in move or "facing" in move:
        cells, facing = check_place(
            state, building, move.get("cells") or [], move.get("facing"), checked
        )
    if (
        checked
        and split == {int(s): d for s, d in pending["split"].items()}
        and cells == pending["cells"]
    ):
        raise IllegalMove(_("Those are the terms on the table: accept them, or change something."))
    pending["countered"].append(seat)
    pending["offered_by"] = seat
    pending["split"] = {str(s): d for s, d in split.items()}
    pending["cells"], pending["facing"] = cells, facing
    pending["waiting"] = [s for s in split if s != seat]
    pending["answers"] = {}
    if state["news"] is not None:
        say(
            state,
            _(
                "{who} made a counter-offer: the {building} {where}; {terms}.",
                who=name(state, seat),
                building=building.name,
                where=where(cells, facing),
                terms=terms_text(state, split),
            ),
        )


def check_proposal(state, seat: int, key, building: Building | None) -> None:
    """IllegalMove unless `seat` may propose to build `building` (named `key`) now."""
    if building is None or not proposable(state, seat, building):
        if building is not None and building.colour != "blue":
            raise IllegalMove(
                _(
                    "Only community (blue) buildings are built together, unless the match plays "
                    "the variant 'everything may be built together'."
                )
            )
        raise IllegalMove(_("You cannot propose to build {key} now.", key=str(key)))
    if seat in state["act"]["proposed"]:
        raise IllegalMove(_("You already made a proposal in this Master Builder phase."))


def propose(state, seat: int, move: dict, checked: bool = True) -> None:
    key = move.get("building")
    building = BUILDINGS.get(key)
    if checked:
        check_proposal(state, seat, key, building)
    if ruleset(state) >= 2:
        propose_terms(state, seat, building, move, checked)
        return
    partners = move.get("partners")
    if (
        not isinstance(partners, list)
        or not partners
        or seat in partners
        or len(set(partners)) != len(partners)
        or any(not isinstance(s, int) or not 0 <= s < state["n"] for s in partners)
    ):
        raise IllegalMove(_("Name one or more other players to build with."))
    partners = [s for s in clockwise(state, seat) if s in partners]
    cells, facing = check_place(
        state, building, move.get("cells") or [], move.get("facing"), checked
    )
    split = shares(state, seat, building, partners)
    for s, d in split.items():
        if checked and not can_afford(state["players"][s], d["guilders"], d["wood"]):
            if s == seat:
                raise IllegalMove(
                    _(
                        "You cannot pay {guilders} guilders and {wood} wood.",
                        guilders=d["guilders"],
                        wood=d["wood"],
                    )
                )
            raise IllegalMove(
                _(
                    "{who} cannot pay {guilders} guilders and {wood} wood.",
                    who=name(state, s),
                    guilders=d["guilders"],
                    wood=d["wood"],
                )
            )
    state["act"]["proposed"].append(seat)
    state["pending"] = {
        "kind": "proposal",
        "by": seat,
        "building": key,
        "cells": cells,
        "facing": facing,
        "split": {str(s): d for s, d in split.items()},
        "waiting": partners,
        "answers": {},
    }
    if state["news"] is not None:
        terms = joined(
            [
                _(
                    "{who} pays {guilders} g {wood} wood for {points} pt",
                    who=name(state, s),
                    guilders=d["guilders"],
                    wood=d["wood"],
                    points=d["points"],
                )
                for s, d in split.items()
            ],
            "; ",
        )
        say(
            state,
            _(
                "{who} proposed a {building} {where}: {terms}.",
                who=name(state, seat),
                building=building.name,
                where=where(cells, facing),
                terms=terms,
            ),
        )


def propose_terms(state, seat: int, building: Building, move: dict, checked: bool = True) -> None:
    """Version 2: the proposer names the place and every partner's share."""
    if "partners" in move:
        raise IllegalMove(
            _(
                "Name each partner's share: 'propose hospice at D3 facing south: Cor pays 2 g "
                "and 2 wood for 2 points, Emily pays 2 g and 2 wood for 2 points'."
            )
        )
    cells, facing = check_place(
        state, building, move.get("cells") or [], move.get("facing"), checked
    )
    if checked:
        split = check_terms(state, seat, building, move)
    else:
        split = named_terms(state, seat, move)
    state["act"]["proposed"].append(seat)
    by_seat, waiting = {}, []  # one loop, no comprehension's frame: proposals are many at 4
    for s, d in split.items():
        by_seat[str(s)] = d
        if s != seat:
            waiting.append(s)
    state["pending"] = {
        "kind": "proposal",
        "by": seat,
        "building": building.key,
        "cells": cells,
        "facing": facing,
        "split": by_seat,
        "waiting": waiting,
        "answers": {},
        "offered_by": seat,
        "countered": [],
    }
    if state["news"] is not None:
        say(
            state,
            _(
                "{who} proposed a {building} {where}: {terms}.",
                who=name(state, seat),
                building=building.name,
                where=where(cells, facing),
                terms=terms_text(state, split),
            ),
        )


def resolve_proposal(state) -> None:
    pending = state["pending"]
    state["pending"] = None
    seat = pending["by"]
    building = BUILDINGS[pending["building"]]
    declined = []  # a loop, not a comprehension's frame: every proposal ends here
    for s, a in pending["answers"].items():
        if a != "accept":
            declined.append(int(s))
    if declined:
        if state["news"] is not None:
            say(
                state,
                _(
                    "The {building} was not built: {names} declined.",
                    building=building.name,
                    names=", ".join(name(state, s) for s in sorted(declined)),
                ),
            )
        return  # the proposer's turn goes on
    for s, d in pending["split"].items():
        player = state["players"][int(s)]
        player["guilders"] -= d["guilders"]
        pay_wood(player, d["wood"])
        gain_points(player, d["points"])
    owner = None if building.colour == "blue" else seat
    place(state, owner, building, pending["cells"], pending["facing"])
    moved = change_burghers(state, building.burghers)
    if state["news"] is not None:
        say(
            state,
            _(
                "The {building} was built together {where}; Burghers {moved}.",
                building=building.name,
                where=where(pending["cells"], pending["facing"]),
                moved=f"{moved:+d}",
            ),
        )
    next_actor(state)  # it cost the proposer his build [rulebook Exceptions]
