"""A greedy bot: values every item in shillings' worth of victory points and buys what pays.

It reads only public information (the board, the selection, money, figures), never the bag
or the deck: the round number stands in for how much game is left.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import rules
from .data import CARD_CHOICES, CARDS, CELL_INDEX, COASTAL, MAJORITY_BONUS, NEIGHBOURS
from .moves import buying_moves, legal_moves

EXPECTED_ROUNDS = 12


@dataclass(frozen=True)
class Style:
    """How a bot leans: multipliers on what items are worth to it, and its chip habit.

    The platform's bot is BALANCED; the others exist for the balance simulations
    (docs/rules/new-england.md), which pit one leaning against balanced bots.
    """

    name: str = "balanced"
    weights: tuple[tuple[str, float], ...] = ()  # (land letter or figure, multiplier)
    chips: str = ""  # "", "low" (always the cheapest chip) or "high" (always the dearest)

    def weight(self, kind: str) -> float:
        return dict(self.weights).get(kind, 1.0)


BALANCED = Style()
STYLES = (
    BALANCED,
    Style("settler", (("S", 1.6),)),
    Style("farmer", (("F", 1.5), ("P", 1.5))),
    Style("pilgrims", (("pilgrim", 2.0),)),
    Style("barns", (("barn", 2.0),)),
    Style("ships", (("ship", 2.0),)),
    Style("tiles", (("tile", 1.6),)),
    Style("cheap", chips="low"),
    Style("dear", chips="high"),
)


def _rounds_left(state: dict) -> int:
    return max(1, EXPECTED_ROUNDS - state["round"])


def shilling(state: dict) -> float:
    """Victory points a shilling is worth to the bot: less as the end nears."""
    return 0.2 + 0.3 * min(1.0, _rounds_left(state) / EXPECTED_ROUNDS)


def _figure_value(state: dict, seat: int, figure: str) -> float:
    counts = [p["figures"][figure] for p in state["players"]]
    mine = counts[seat]
    best_other = max(c for s, c in enumerate(counts) if s != seat)
    chase = 0.0
    if mine + 1 >= best_other and mine <= best_other:
        chase = MAJORITY_BONUS[figure] * 0.6
    if figure == "pilgrim":
        return chase + shilling(state) * _rounds_left(state)
    if figure == "barn":
        return chase + 0.5
    return chase + 0.1 * _rounds_left(state)  # ship: the extra reveals


def _card_value(state: dict, seat: int, card_id: int) -> float:
    card = CARDS[card_id]
    if card.kind == "land":
        return float(card.points)
    return card.points + _figure_value(state, seat, card.kind)


def _tile_value(state: dict, seat: int, land: str, at: str) -> float:
    cell = CELL_INDEX[at]
    own = 0
    for n in NEIGHBOURS[cell]:
        tile = rules.tile_at(state, n)
        if tile and tile["owner"] == seat and tile["land"] == land and not tile["developed"]:
            own += 1
    free = sum(1 for n in NEIGHBOURS[cell] if rules.tile_at(state, n) is None)
    value = 2.0 + 0.4 * own + 0.15 * free
    if COASTAL[cell] and not rules.figure_spots(state, seat, "ship"):
        value += 0.6  # a berth for ships
    return value


def _placement_penalty(state: dict, move: dict) -> float:
    """Wasted starter halves, and figures on good land."""
    if "cells" in move:
        cells = {CELL_INDEX[c] for c in move["cells"]}
        wasted = 0
        for tile_id in {state["cells"][c] for c in cells}:
            wasted += sum(1 for c in state["tiles"][tile_id]["cells"] if c not in cells)
        return 1.2 * wasted
    if "at" in move:
        tile = rules.tile_at(state, CELL_INDEX[move["at"]])
        return 0.6 * len(tile["cells"])
    return 0.0


def move_value(state: dict, seat: int, move: dict, style: Style = BALANCED) -> float:
    """The bot's worth of a buying move, in victory points, price not included."""
    kind = move["type"]
    if kind == "buy_tile":
        land = state["selection"][move["slot"] - 1]["tile"]
        weight = style.weight(land) * style.weight("tile")
        return weight * _tile_value(state, seat, land, move["at"])
    if kind in ("buy_card", "play_stored"):
        if kind == "buy_card":
            card_id = state["selection"][move["slot"] - 1]["card"]
        else:
            card_id = state["players"][seat]["stored"][move["stored"] - 1]
        weight = style.weight(CARDS[card_id].land or CARDS[card_id].kind)
        if move.get("store"):
            return weight * _store_value(state, seat, card_id)
        return weight * _card_value(state, seat, card_id) - _placement_penalty(state, move)
    return 0.0


def _item_value(state: dict, seat: int, item: dict, style: Style = BALANCED) -> float:
    """What an item of the selection is worth to `seat` at best, ignoring its price."""
    if "tile" in item:
        return style.weight(item["tile"]) * style.weight("tile") * _best_tile(state, seat, item)
    card = CARDS[item["card"]]
    return style.weight(card.land or card.kind) * _card_item_value(state, seat, item["card"])


def _best_tile(state: dict, seat: int, item: dict) -> float:
    spots = rules.tile_spots(state, seat, item["tile"])
    if not spots:
        return 0.0
    return max(_tile_value(state, seat, item["tile"], rules.CELL_NAMES[c]) for c in spots)


def _card_item_value(state: dict, seat: int, card_id: int) -> float:
    if rules.usable_now(state, seat, card_id):
        return _card_value(state, seat, card_id)
    if rules.can_store(state, seat):
        return _store_value(state, seat, card_id)
    return 0.0


def _store_value(state: dict, seat: int, card_id: int) -> float:
    """A stored card scores only once played: worth something if the land can still grow."""
    card = CARDS[card_id]
    if card.kind != "land":
        return 0.5 * _card_value(state, seat, card_id)
    free = sum(
        len(t["cells"])
        for t in state["tiles"]
        if t["owner"] == seat and t["land"] == card.land and not t["developed"] and not t["figure"]
    )
    room = len(rules.tile_spots(state, seat, card.land))
    if room == 0 and free < card.size:
        return 0.0
    need = max(0, card.size - free)
    chance = max(0.0, 1.0 - 0.25 * need) * min(1.0, _rounds_left(state) / 4)
    return 0.6 * card.points * chance


def choose_chip(state: dict, seat: int, rng, style: Style = BALANCED) -> int:
    free = rules.free_chips(state)
    if style.chips == "low":
        return free[0]
    if style.chips == "high":
        return free[-1]
    values = sorted(
        (_item_value(state, seat, item, style) for item in state["selection"] if item),
        reverse=True,
    )
    taken = [c for c in state["chips"] if c is not None]
    count = len(state["names"])
    still_to_bid = count - 1 - len(taken)
    money = state["players"][seat]["money"]
    best, best_utility = free[0], -1.0
    for chip in free:
        above_free = sum(1 for c in free if c > chip)
        ahead = sum(1 for c in taken if c > chip)
        if len(free) > 1:
            ahead += above_free * still_to_bid / (len(free) - 1)
        skip = int(round(ahead * 1.2))
        pool = values[skip:]
        affordable = min(2, money // chip) if chip else 2
        utility = sum(max(0.0, v - 2.0 * shilling(state) * chip) for v in pool[:affordable])
        utility += rng.random() * 0.3
        if utility > best_utility:
            best, best_utility = chip, utility
    return best


def bot_move(state: dict, seat: int, rng, style: Style = BALANCED) -> dict:
    phase = state["phase"]
    if phase == "setup":
        moves = legal_moves(state, seat)
        return max(moves, key=lambda m: _setup_score(state, m) + rng.random())
    if phase == "select":
        return {"type": "select", "cards": rng.choice(CARD_CHOICES)}
    if phase == "bid":
        return {"type": "chip", "chip": choose_chip(state, seat, rng, style)}
    moves = buying_moves(state, seat)
    reveals = [m for m in moves if m["type"] == "reveal"]
    if reveals:
        return rng.choice(reveals)
    stored = [m for m in moves if m["type"] == "play_stored"]
    if stored:
        return max(stored, key=lambda m: move_value(state, seat, m, style))
    cost = rules.price(state, seat)
    best, best_gain = {"type": "pass"}, 0.0
    for move in moves:
        if move["type"] not in ("buy_tile", "buy_card"):
            continue
        gain = move_value(state, seat, move, style) - shilling(state) * cost + rng.random() * 0.2
        if gain > best_gain:
            best, best_gain = move, gain
    return best


def _setup_score(state: dict, move: dict) -> float:
    cells = [CELL_INDEX[c] for c in move["cells"]]
    room = 0
    for cell in cells:
        room += sum(1 for n in NEIGHBOURS[cell] if state["cells"][n] == rules.EMPTY)
    return room
