"""Events drawn from the deck: the Birth Waves, the Crusade, the Vikings and the Black Death,
and the pledges against the last two.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from games.engine.words import _, joined

from .. import geometry as B
from ..data import (
    BLACK_DEATH_COST,
    CARDS,
    CRUSADE_BURGHERS,
    GOOD_NAMES,
    PRODUCTS,
    VIKING_BURGHERS,
)
from .helpers import built, change_burghers, clockwise, gain_points, houses_on_board, name, say


def viking_targets(state) -> tuple[int, list[str]]:
    """Boats, and city buildings by the water."""
    geo = B.geometry(state["board"])
    boats = sum(1 for s in state["boats"] if s is not None) + len(state["loose_boats"])
    by_water = geo.by_water
    shore = [bid for bid, b in state["buildings"].items() if not by_water.isdisjoint(b["cells"])]
    return boats, shore


def start_event(state, card: str, drawer: int) -> None:
    if card in ("smallbirth", "greatbirth"):
        per = 1 if card == "smallbirth" else 2
        moved = change_burghers(state, per * houses_on_board(state))
        if state["news"] is not None:
            say(state, _("{card}: Burghers {moved}.", card=CARDS[card].name, moved=f"{moved:+d}"))
    elif card == "crusade":
        moved = change_burghers(state, -CRUSADE_BURGHERS)
        if state["news"] is not None:
            say(state, _("Crusade: Burghers {moved}.", moved=f"{moved:+d}"))
    elif card == "vikings":
        if built(state, "watchtower"):
            say(state, _("Vikings: the Watchtower kept them away."))
            return
        boats, shore = viking_targets(state)
        cost = boats + len(shore)
        if cost == 0:
            say(state, _("Vikings: there was nothing for them to plunder."))
            return
        open_pledges(state, card, drawer, cost, 0)
    elif card == "blackdeath":
        if built(state, "hospice"):
            say(state, _("Black Death: the Hospice kept the city healthy."))
            return
        open_pledges(state, card, drawer, *BLACK_DEATH_COST)


def open_pledges(state, card: str, drawer: int, guilders: int, food: int) -> None:
    asked = [
        s
        for s in clockwise(state, drawer)
        if state["players"][s]["guilders"] > 0
        or (food and any(state["players"][s][p] for p in PRODUCTS))
    ]
    total_g = sum(state["players"][s]["guilders"] for s in asked)
    total_f = sum(state["players"][s][p] for s in asked for p in PRODUCTS)
    if state["news"] is not None:
        if food:
            said = _(
                "To prevent the {card} the players may pay together {guilders} guilder(s) "
                "and {food} food.",
                card=CARDS[card].name,
                guilders=guilders,
                food=food,
            )
        else:
            said = _(
                "To prevent the {card} the players may pay together {guilders} guilder(s).",
                card=CARDS[card].name,
                guilders=guilders,
            )
        say(state, said)
    if total_g < guilders or total_f < food:
        say(state, _("Together they could not pay it."))
        strike(state, card)
        return
    state["pending"] = {
        "kind": "pledge",
        "card": card,
        "by": drawer,
        "cost": [guilders, food],
        "waiting": asked,
        "answers": {},
    }


def pledge_moves(state, seat: int) -> list[dict]:
    pending = state["pending"]
    player = state["players"][seat]
    g_cost, f_cost = pending["cost"]
    foods = [[]]
    if f_cost:
        held = [p for p in PRODUCTS if player[p]]
        foods = []
        for k in range(f_cost + 1):
            for combo in combinations_with_replacement(held, k):
                if all(combo.count(p) <= player[p] for p in held):
                    foods.append(list(combo))
    return [
        {"type": "pledge", "guilders": g, "food": food}
        for g in range(min(g_cost, player["guilders"]) + 1)
        for food in foods
    ]


def resolve_pledges(state) -> None:
    pending = state["pending"]
    state["pending"] = None
    card = pending["card"]
    g_cost, f_cost = pending["cost"]
    pledged = {int(s): a for s, a in pending["answers"].items()}
    if sum(a["guilders"] for a in pledged.values()) >= g_cost and (
        sum(len(a["food"]) for a in pledged.values()) >= f_cost
    ):
        need_g, need_f = g_cost, f_cost
        paid = []
        for s in clockwise(state, pending["by"]):
            if s not in pledged:
                continue
            player = state["players"][s]
            g = min(need_g, pledged[s]["guilders"])
            food = pledged[s]["food"][:need_f]
            need_g -= g
            need_f -= len(food)
            player["guilders"] -= g
            for p in food:
                player[p] -= 1
            if g or food:
                paid.append((s, g, food))
        if state["news"] is not None:
            said = [
                _(
                    "{who} {guilders} g + {food}",
                    who=name(state, s),
                    guilders=g,
                    food=joined([GOOD_NAMES[f] for f in food], ", "),
                )
                if food
                else _("{who} {guilders} g", who=name(state, s), guilders=g)
                for s, g, food in paid
            ]
            say(
                state,
                _(
                    "The {card} was prevented: {paid}.",
                    card=CARDS[card].name,
                    paid=joined(said, ", "),
                ),
            )
        return
    if state["news"] is not None:
        say(state, _("Not enough was pledged against the {card}.", card=CARDS[card].name))
    strike(state, card)


def strike(state, card: str) -> None:
    if card == "vikings":
        _boats, shore = viking_targets(state)
        for i, owner in enumerate(state["boats"]):
            if owner is not None:
                state["players"][owner]["light"] += 1
                state["boats"][i] = None
        for owner in state["loose_boats"]:
            state["players"][owner]["light"] += 1
        state["loose_boats"] = []
        moved = change_burghers(state, -VIKING_BURGHERS * len(shore))
        if state["news"] is not None:
            say(state, _("The Vikings burned every Boat; Burghers {moved}.", moved=f"{moved:+d}"))
    elif card == "blackdeath":
        geo = B.geometry(state["board"])
        for b in state["buildings"].values():
            if b["owner"] is not None and geo.area[b["cells"][0]] == "city":
                gain_points(state["players"][b["owner"]], -1)
        moved = change_burghers(state, -(state["burghers"] - state["burghers"] // 2))
        if state["news"] is not None:
            say(
                state,
                _(
                    "The Black Death struck: owners lost a point per city building; "
                    "Burghers {moved}.",
                    moved=f"{moved:+d}",
                ),
            )
