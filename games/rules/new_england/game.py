"""New England behind the rules contract."""

from __future__ import annotations

from games.engine import Game, Option, Result, StandingOrder, places, score_line, shared_groups

from . import bots, reference, rules, text
from .board import BOARD_TARGETS, move_steps
from .data import (
    CARDS,
    CELL_NAMES,
    CHIPS,
    COLUMNS,
    HEIGHT,
    LAND_NAMES,
    MAX_PURCHASES,
    MISSING,
    ROTATIONS,
    WIDTH,
    shillings,
)
from .moves import MOVE_FIELDS, apply_move, legal_moves

CELL_SIZE = 40
LAND_FILLS = {"S": "#b5651d", "F": "#4a4a4a", "P": "#6aa84f"}
DEVELOPED_FILLS = {"S": "#e8a25c", "F": "#9c8f4a", "P": "#b6e08a"}
# 3:1 against white and the board's paper (a ring on a white disc, a chip on the page, a
# starter tile's outline on a white halo), and unlike any land, the sea or each other
# (tests/web/test_svg_contrast.py).
FAMILY_COLOURS = {
    "Annable": "#d62728",
    "Howland": "#1f77b4",
    "Palomer": "#00796b",
    "Winslow": "#8e44ad",
}


EMPTY_CELL = {
    "fill": "#f3ead2",
    "land": "",
    "letter": "",
    "colour": "",
    "developed": False,
    "figure": "",
}
SEA_CELL = {**EMPTY_CELL, "fill": "#7fb3d5", "sea": True}


class NewEngland(Game):
    slug = "new-england"
    title = "New England"
    min_players = 3
    max_players = 4
    version = 1
    options = (
        Option(
            "setup",
            "Starting position",
            "fixed",
            choices=("fixed", "placed"),
            help="fixed: the predetermined layout; placed: players lay their starter tiles "
            "in three rounds, counter-clockwise from the start player's right.",
        ),
    )
    move_fields = MOVE_FIELDS
    board_targets = BOARD_TARGETS
    standing_orders = (
        StandingOrder("pass-when-broke", "End my buying turn when I cannot afford a purchase"),
    )

    # --- setting up and playing -----------------------------------------------------------

    def setup(self, players, options, rng):
        return rules.new_state(players, options, rng)

    def to_act(self, state):
        return rules.to_act(state)

    def prompt(self, state, seat):
        phase = state["phase"]
        if phase == "setup":
            return "place a starter tile"
        if phase == "select":
            return "choose how many development cards (3 to 6) go into the selection"
        if phase == "bid":
            return "take a bidding chip"
        if phase == "buy":
            cost = rules.price(state, seat)
            left = MAX_PURCHASES - state["purchases"]
            if left <= 0:
                return "play a stored card, move a figure, or pass"
            items = "item" if left == 1 else "items"
            return f"buy up to {left} more {items} at {shillings(cost)} each, or pass"
        return "the game is over"

    def legal_moves(self, state, seat):
        return legal_moves(state, seat)

    def apply(self, state, seat, move, rng):
        return apply_move(state, seat, move)

    def default_move(self, state, seat):
        phase = state["phase"]
        if phase == "select":
            return {"type": "select", "cards": 3}
        if phase == "bid":
            return {"type": "chip", "chip": rules.free_chips(state)[0]}
        if phase == "buy":
            return {"type": "pass"}
        return legal_moves(state, seat)[0]

    def reads_numbers(self, state, seat):
        # "7" is chip 7 and "4" four cards: a numbered menu would make "7" mean two things.
        return state["phase"] in ("bid", "select")

    def bot_move(self, state, seat, rng):
        return bots.bot_move(state, seat, rng)

    def standing_move(self, state, seat, orders):
        if "pass-when-broke" not in orders or state["phase"] != "buy" or state["turn"] != seat:
            return None
        player = state["players"][seat]
        if rules.playable_stored(state, seat) or rules.can_reveal(state, seat):
            return None
        if state["purchases"] < 2 and player["money"] >= rules.price(state, seat):
            return None
        return {"type": "pass"}

    def round_of(self, state):
        # Round 0 is the placing of the starter tiles, before the first numbered round.
        return state["round"] or None

    def result(self, state):
        if state["phase"] != "over":
            return None
        total, details = rules.scores(state)
        order = rules.ranking(state, total)
        money = [p["money"] for p in state["players"]]
        names = state["names"]
        # "Victory point ties are won by the player with the most money" [rulebook, line 26]
        # and nothing more: a tie on both is a shared place, not seat order.
        shared = shared_groups(order, lambda a, b: (total[a], money[a]) == (total[b], money[b]))
        breakdown = [
            [("from cards", details["cards"][s]), ("figure majorities", details["bonus"][s])]
            for s in range(len(total))
        ]
        notes = [score_line(names[s], parts) for s, parts in enumerate(breakdown)]
        for a, b in zip(order, order[1:]):
            if total[a] == total[b] and money[a] != money[b]:
                notes.append(
                    f"{names[a]} and {names[b]} tie on {total[a]} points; money decides "
                    f"({money[a]} to {shillings(money[b])})."
                )
        for group in shared:
            who = " and ".join(names[s] for s in group)
            notes.append(
                f"{who} tie on {total[group[0]]} points and {shillings(money[group[0]])}: "
                f"they share a place."
            )
        details["money"] = money
        details["breakdown"] = breakdown
        return Result(scores=total, ranking=order, notes=notes, details=details, shared=shared)

    # --- what people see ---------------------------------------------------------------

    def seat_colours(self, state):
        return [FAMILY_COLOURS[f] for f in state["families"]]

    def view(self, state, seat):
        families = state["families"]
        letters = [f[0] for f in families]
        colours = [FAMILY_COLOURS[f] for f in families]
        cells = []
        tiles = state["tiles"]
        for index, tile_id in enumerate(state["cells"]):
            tile = tiles[tile_id] if tile_id != rules.EMPTY else None
            if tile:
                fills = DEVELOPED_FILLS if tile["developed"] else LAND_FILLS
                owner = tile["owner"]
                cell = {
                    "fill": fills[tile["land"]],
                    "land": tile["land"],
                    "letter": letters[owner],
                    "colour": colours[owner],
                    "developed": tile["developed"],
                    "figure": tile["figure"] or "",
                }
            else:
                cell = dict(SEA_CELL if index in MISSING else EMPTY_CELL)
            cell["name"] = CELL_NAMES[index]
            cell["x"] = (index % WIDTH) * CELL_SIZE + 20
            cell["y"] = (index // WIDTH) * CELL_SIZE + 40
            cells.append(cell)
        # starter tiles: an outline around both halves, in the family's colour
        joins = []
        starters = []
        for tile in tiles:
            if len(tile["cells"]) == 2:
                a, b = tile["cells"]
                starters.append(
                    f"{letters[tile['owner']]} {LAND_NAMES[tile['land']]} "
                    f"{CELL_NAMES[a]}+{CELL_NAMES[b]}"
                    + (" (developed)" if tile["developed"] else "")
                )
                joins.append(
                    {
                        "x": (a % WIDTH) * CELL_SIZE + 21,
                        "y": (a // WIDTH) * CELL_SIZE + 41,
                        "w": ((b % WIDTH) - (a % WIDTH) + 1) * CELL_SIZE - 2,
                        "h": ((b // WIDTH) - (a // WIDTH) + 1) * CELL_SIZE - 2,
                        "colour": colours[tile["owner"]],
                    }
                )
        selection = []
        for slot, item in enumerate(state["selection"], start=1):
            entry = {"slot": slot, "taken": item is None}
            if item is not None:
                entry["text"] = self._item_text(item)
                if "tile" in item:
                    entry.update(kind="tile", land=item["tile"], fill=LAND_FILLS[item["tile"]])
                else:
                    card = CARDS[item["card"]]
                    entry.update(
                        kind="card",
                        land=card.land,
                        fill=LAND_FILLS.get(card.land, "#ffffff"),
                        points=card.points,
                        figure="" if card.kind == "land" else card.kind,
                    )
                    if card.kind == "land":
                        # The shape as the page draws it: a 10 px square per parcel.
                        laid = ROTATIONS[card.shape][0]
                        entry.update(
                            shape=card.shape,
                            parcels=card.size,
                            shape_cells=[[c * 10, r * 10] for c, r in laid],
                            shape_width=max(c for c, _ in laid) * 10 + 10,
                            shape_height=max(r for _, r in laid) * 10 + 10,
                        )
            selection.append(entry)
        chips = []
        for value in CHIPS:
            holder = state["chips"].index(value) if value in state["chips"] else None
            chips.append(
                {
                    "value": value,
                    "x": value * 36 - 14,
                    "seat": holder,
                    "letter": letters[holder] if holder is not None else "",
                    "colour": FAMILY_COLOURS[families[holder]] if holder is not None else "",
                }
            )
        to_act = rules.to_act(state)
        players = []
        for s, player in enumerate(state["players"]):
            players.append(
                {
                    "seat": s,
                    "name": state["names"][s],
                    "family": families[s],
                    "letter": letters[s],
                    "colour": FAMILY_COLOURS[families[s]],
                    "money": player["money"],
                    "points": sum(CARDS[c].points for c in player["cards"]),
                    "cards": [CARDS[c].name for c in player["cards"]],
                    "stored": [CARDS[c].name for c in player["stored"]],
                    "figures": dict(player["figures"]),
                    "income": rules.income(state, s),
                    "chip": state["chips"][s],
                    "to_act": s in to_act,
                    "start": s == state["start"],
                }
            )
        view = {
            "seat": seat,
            "round": state["round"],
            "phase": state["phase"],
            "status": self._status(state),
            "cells": cells,
            "joins": joins,
            "starters": starters,
            "selection": selection,
            "chips": chips,
            "players": players,
            "supply": dict(state["supply"]),
            "columns": [{"label": c, "x": i * CELL_SIZE + 40} for i, c in enumerate(COLUMNS)],
            "rows": [{"label": r + 1, "y": r * CELL_SIZE + 65} for r in range(HEIGHT)],
            "width": WIDTH * CELL_SIZE + 60,
            "height": HEIGHT * CELL_SIZE + 60,
            "result": None,
        }
        result = self.result(state)
        if result is not None:
            lines = []
            for rank, s, tied in places(result.as_json()):
                lines.append(
                    f"{rank}.{'=' if tied else ''} {state['names'][s]} ({families[s]}): "
                    f"{result.scores[s]} points "
                    f"({result.details['cards'][s]} from cards, {result.details['bonus'][s]} "
                    f"bonus), {shillings(state['players'][s]['money'])}"
                )
            view["result"] = lines
        return view

    @staticmethod
    def _item_text(item: dict) -> str:
        if "tile" in item:
            return f"land tile: {LAND_NAMES[item['tile']]}"
        card = CARDS[item["card"]]
        if card.kind == "land":
            return (
                f"card: {LAND_NAMES[card.land]} {card.shape} [{text.shape_picture(card.shape)}]"
                f" {card.points} points"
            )
        return f"card: {card.kind}, {card.points} point{'s' if card.points != 1 else ''}"

    def _status(self, state) -> str:
        phase = state["phase"]
        names = state["names"]
        if phase == "over":
            short = "development cards" if state["ended_by"] == "cards" else "land tiles"
            return f"game over (not enough {short} for the selection)"
        who = names[state["turn"]]
        if phase == "setup":
            return f"setup: {who} places a starter tile"
        if phase == "select":
            return f"phase 1: {who} chooses the selection"
        if phase == "bid":
            return f"phase 2: {who} takes a bidding chip"
        cost = rules.price(state, state["turn"])
        return f"phase 3: {who} buys at {shillings(cost)} ({state['purchases']} of 2 bought)"

    def render_text(self, view):
        return text.render_text(view)

    def format_move(self, state, seat, move):
        return text.format_move(move)

    def move_steps(self, state, seat, move):
        return move_steps(move, self.format_move(state, seat, move))

    def parse(self, text_in, state, seat):
        return text.parse(text_in, state, seat)

    def describe(self, before, after, seat, move, viewer):
        return text.describe(before, after, seat, move)

    def help_text(self):
        return text.HELP

    def menu_parts(self, state, seat, move):
        return reference.menu_parts(state, seat, move)

    def reference(self, view):
        return reference.reference(view)

    # --- checks ------------------------------------------------------------------------

    def secrets(self, state):
        hidden = []
        if state["bag"]:
            hidden.append("bag order " + "".join(state["bag"]))
            hidden.append(f"{len(state['bag'])} land tiles left in the bag")
        if state["deck"]:
            hidden.append("deck order " + " / ".join(CARDS[c].name for c in state["deck"]))
            hidden.append(f"{len(state['deck'])} development cards left in the deck")
        return {None: hidden}

    def check_invariants(self, state):
        rules.check_invariants(state)


class NewEnglandV2(NewEngland):
    """Version 2 (issue 12): a card stored in a barn is played only in a later turn, and
    figure moves are not capped. The flag in the state selects the rules (rules.is_v2)."""

    version = 2

    def setup(self, players, options, rng):
        state = super().setup(players, options, rng)
        state["ruleset"] = 2
        state["stored_now"] = 0
        return state


__all__ = ["NewEngland", "NewEnglandV2"]
