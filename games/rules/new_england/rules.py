"""New England's rules: setup, the four phases of a round, placement legality and scoring.

The state is plain JSON (see `new_state`). Every move type has one function here that checks
its preconditions and raises IllegalMove with a sentence for the player, then enacts it.
"""

from __future__ import annotations

from typing import Any

from games.engine import IllegalMove
from games.engine.words import _, joined

from .data import (
    CARD_CHOICES,
    CARDS,
    CELL_INDEX,
    CELL_NAMES,
    CELLS,
    CHIPS,
    COASTAL,
    FAMILIES_BY_COUNT,
    FIGURE_NAMES,
    FIGURE_SUPPLY,
    FIGURES,
    FIXED_SETUP_BY_COUNT,
    HEIGHT,
    INCOME,
    LAND,
    LAND_NAMES,
    LAND_TYPES,
    MAJORITY_BONUS,
    MAX_FIGURE_MOVES,
    MAX_PURCHASES,
    MOVABLE,
    NEIGHBOURS,
    ROTATIONS,
    SELECTION_SPACES,
    SHAPE_NAMES,
    START_MONEY,
    TILE_COUNTS,
    WIDTH,
    shillings,
)

State = dict[str, Any]

EMPTY = -1


def is_v2(state: State) -> bool:
    """Rules version 2 (issue 12): a card stored in a barn waits for a later turn, and figure
    moves are not capped. Version 1 matches replay as they were played."""
    return state.get("ruleset", 1) >= 2


# --- setup -----------------------------------------------------------------------------


def new_state(names: list[str], options: dict[str, Any], rng) -> State:
    count = len(names)
    families = list(FAMILIES_BY_COUNT[count])
    bag = [land for land in LAND_TYPES for _ in range(TILE_COUNTS[land])]
    rng.shuffle(bag)
    deck = [card.id for card in CARDS]
    rng.shuffle(deck)
    state: State = {
        "names": list(names),
        "families": families,
        "options": dict(options),
        "phase": "setup",
        "round": 0,
        "start": 0,  # seat 0 is the start player (Annable) [rulebook]
        "turn": 0,
        "cells": [EMPTY] * CELLS,
        "tiles": [],
        "starters": [list(LAND_TYPES) for _ in range(count)],
        "setup_order": [],
        "bag": bag,
        "deck": deck,
        "selection": [],
        "chips": [None] * count,
        "order": [],
        "purchases": 0,
        "revealed": False,
        "figure_moves": 0,
        "players": [
            {
                "money": START_MONEY,
                "cards": [],
                "stored": [],
                "figures": {f: 0 for f in FIGURES},
            }
            for _ in range(count)
        ],
        "supply": dict(FIGURE_SUPPLY),
        "discarded_cards": [],
        "discarded_tiles": 0,
        "ended_by": None,
    }
    if options.get("setup", "fixed") == "fixed":
        for seat, family in enumerate(families):
            for land, (a, b) in FIXED_SETUP_BY_COUNT[count][family].items():
                _lay_tile(state, seat, land, [CELL_INDEX[a], CELL_INDEX[b]])
            state["starters"][seat] = []
        _begin_round(state)
    else:
        # Counter-clockwise from the player to the start player's right, three times.
        state["setup_order"] = [seat for _ in range(3) for seat in range(count - 1, -1, -1)]
        state["turn"] = state["setup_order"][0]
    return state


def _lay_tile(state: State, seat: int, land: str, cells: list[int]) -> int:
    tile_id = len(state["tiles"])
    state["tiles"].append(
        {"owner": seat, "land": land, "cells": sorted(cells), "developed": False, "figure": None}
    )
    for cell in cells:
        state["cells"][cell] = tile_id
    return tile_id


# --- whose turn --------------------------------------------------------------------------


def to_act(state: State) -> list[int]:
    if state["phase"] == "over":
        return []
    return [state["turn"]]


def _require_turn(state: State, seat: int, phase: str) -> None:
    if state["phase"] != phase or state["turn"] != seat:
        raise IllegalMove(
            _("It is not your turn to {action}.", action=PHASE_VERBS.get(phase, _("act")))
        )


PHASE_VERBS = {
    "setup": _("place a starter tile"),
    "select": _("choose the selection"),
    "bid": _("take a bidding chip"),
    "buy": _("buy"),
}

# --- parsing cell names -----------------------------------------------------------------


def cell_of(name: Any) -> int:
    if not isinstance(name, str) or name.upper() not in CELL_INDEX:
        raise IllegalMove(
            _("{name} is not a parcel of the board (A1 to K9, K1 is sea).", name=name)
        )
    return CELL_INDEX[name.upper()]


def tile_at(state: State, cell: int) -> dict | None:
    tile_id = state["cells"][cell]
    return None if tile_id == EMPTY else state["tiles"][tile_id]


def anchor(state: State, cell: int) -> str:
    """The name of a tile's first parcel: how moves name a tile (a starter tile has two)."""
    tile = tile_at(state, cell)
    return CELL_NAMES[tile["cells"][0]] if tile else CELL_NAMES[cell]


# --- setup by placement (option) --------------------------------------------------------


def _touches_starter(state: State, cell: int) -> bool:
    return any(state["cells"][n] != EMPTY for n in NEIGHBOURS[cell])


def _touches_land(state: State, cell: int, land: str) -> bool:
    cells, tiles = state["cells"], state["tiles"]
    return any(cells[n] != EMPTY and tiles[cells[n]]["land"] == land for n in NEIGHBOURS[cell])


def starter_pairs(state: State, land: str) -> list[tuple[int, int]]:
    """Pairs of parcels a starter tile may cover now (never touching another orthogonally).

    Interpretation: should the board leave no such pair, a pair touching no starter tile of
    the same land will do, and failing that any free pair (see docs).
    """
    cells = state["cells"]
    free = [c for c in LAND if cells[c] == EMPTY]
    tests = (
        lambda c: not _touches_starter(state, c),
        lambda c: not _touches_land(state, c, land),
        lambda c: True,
    )
    for test in tests:
        pairs = [
            (c, n)
            for c in free
            if test(c)
            for n in NEIGHBOURS[c]
            if n > c and cells[n] == EMPTY and test(n)
        ]
        if pairs:
            return pairs
    return []


def place_starter(state: State, seat: int, land: Any, names: Any) -> None:
    _require_turn(state, seat, "setup")
    if land not in state["starters"][seat]:
        left = joined([LAND_NAMES[x] for x in state["starters"][seat]], ", ")
        raise IllegalMove(_("Your starter tiles left to place are: {left}.", left=left))
    if not isinstance(names, list) or len(names) != 2:
        raise IllegalMove(_("A starter tile covers two neighbouring parcels, e.g. B2 C2."))
    a, b = sorted(cell_of(n) for n in names)
    if (a, b) not in set(starter_pairs(state, land)):
        raise IllegalMove(
            _(
                "A starter tile must cover two free neighbouring parcels that touch no "
                "other starter tile (corners may touch); {cell} {cell2} do not.",
                cell=CELL_NAMES[a],
                cell2=CELL_NAMES[b],
            )
        )
    _lay_tile(state, seat, land, [a, b])
    state["starters"][seat].remove(land)
    state["setup_order"].pop(0)
    if state["setup_order"]:
        state["turn"] = state["setup_order"][0]
    else:
        _begin_round(state)


# --- phase 1: the selection ---------------------------------------------------------------


def _begin_round(state: State) -> None:
    state["round"] += 1
    state["phase"] = "select"
    state["turn"] = state["start"]


def choose_selection(state: State, seat: int, cards: Any) -> None:
    _require_turn(state, seat, "select")
    if cards not in CARD_CHOICES:
        raise IllegalMove(_("Choose 3, 4, 5 or 6 development cards for the selection."))
    tiles = SELECTION_SPACES - cards
    if len(state["deck"]) < cards or len(state["bag"]) < tiles:
        # The game ends at once when the selection cannot be completed [rulebook].
        state["ended_by"] = "cards" if len(state["deck"]) < cards else "tiles"
        state["phase"] = "over"
        return
    state["selection"] = [{"card": state["deck"].pop()} for _ in range(cards)] + [
        {"tile": state["bag"].pop()} for _ in range(tiles)
    ]
    state["phase"] = "bid"
    state["turn"] = state["start"]


# --- phase 2: bidding chips --------------------------------------------------------------


def take_chip(state: State, seat: int, chip: Any) -> None:
    _require_turn(state, seat, "bid")
    if chip not in CHIPS or chip in state["chips"]:
        free = ", ".join(str(c) for c in free_chips(state))
        raise IllegalMove(_("Take one of the free bidding chips: {free}.", free=free))
    state["chips"][seat] = chip
    count = len(state["names"])
    nxt = (seat + 1) % count
    if nxt == state["start"]:
        state["order"] = sorted(range(count), key=lambda s: -state["chips"][s])
        state["phase"] = "buy"
        _begin_buying_turn(state, state["order"][0])
    else:
        state["turn"] = nxt


def free_chips(state: State) -> list[int]:
    return [c for c in CHIPS if c not in state["chips"]]


# --- phase 3: buying and settling --------------------------------------------------------


def _begin_buying_turn(state: State, seat: int) -> None:
    state["turn"] = seat
    state["purchases"] = 0
    state["revealed"] = False
    state["figure_moves"] = 0
    if is_v2(state):
        state["stored_now"] = 0


def playable_stored(state: State, seat: int) -> int:
    """How many of the seat's stored cards may be played now: the first ones. "Stored
    development cards can be played at later turns" [rulebook, line 21]: in version 2 the
    cards stored this turn, last in the list, wait."""
    count = len(state["players"][seat]["stored"])
    if is_v2(state) and state["turn"] == seat:
        count -= state["stored_now"]
    return count


def end_buying_turn(state: State, seat: int) -> None:
    _require_turn(state, seat, "buy")
    order = state["order"]
    index = order.index(seat) + 1
    if index < len(order):
        _begin_buying_turn(state, order[index])
    else:
        _end_round(state)


def _after_purchase(state: State, seat: int) -> None:
    # By-mail shortcut: after a second purchase nothing is left to do unless a stored card
    # may still be played, so the turn ends by itself.
    if state["purchases"] >= MAX_PURCHASES and not playable_stored(state, seat):
        end_buying_turn(state, seat)


def price(state: State, seat: int) -> int:
    return state["chips"][seat] or 0


def _pay(state: State, seat: int) -> None:
    if state["purchases"] >= MAX_PURCHASES:
        raise IllegalMove(_("You have made your two purchases this round."))
    cost = price(state, seat)
    money = state["players"][seat]["money"]
    if money < cost:
        raise IllegalMove(
            _(
                "You have {money}; each purchase costs you {cost}.",
                money=shillings(money),
                cost=cost,
            )
        )


def _slot(state: State, slot: Any, kind: str) -> dict:
    selection = state["selection"]
    if not isinstance(slot, int) or not 1 <= slot <= len(selection) or selection[slot - 1] is None:
        raise IllegalMove(_("There is nothing to buy on space {slot} of the selection.", slot=slot))
    item = selection[slot - 1]
    if kind not in item:
        other = _("land tile") if "tile" in item else _("development card")
        raise IllegalMove(_("Space {slot} holds a {other}.", slot=slot, other=other))
    return item


def can_place_tile(state: State, seat: int, land: str, cell: int) -> bool:
    cells, tiles = state["cells"], state["tiles"]
    if cells[cell] != EMPTY:
        return False
    own = False
    for n in NEIGHBOURS[cell]:
        tile_id = cells[n]
        if tile_id != EMPTY:
            tile = tiles[tile_id]
            if tile["land"] == land:
                if tile["owner"] != seat:
                    return False
                own = True
    return own


def tile_spots(state: State, seat: int, land: str) -> list[int]:
    """Free parcels where `seat` may lay a tile of `land`; empty once that land is blocked."""
    cells = state["cells"]
    candidates = set()
    for tile in state["tiles"]:
        if tile["owner"] == seat and tile["land"] == land:
            for cell in tile["cells"]:
                candidates.update(n for n in NEIGHBOURS[cell] if cells[n] == EMPTY)
    return sorted(c for c in candidates if can_place_tile(state, seat, land, c))


def buy_tile(state: State, seat: int, slot: Any, at: Any) -> None:
    _require_turn(state, seat, "buy")
    item = _slot(state, slot, "tile")
    _pay(state, seat)
    land = item["tile"]
    cell = cell_of(at)
    if not can_place_tile(state, seat, land, cell):
        if not tile_spots(state, seat, land):
            raise IllegalMove(
                _(
                    "Your {land} can no longer grow: there is no parcel left for it.",
                    land=LAND_NAMES[land],
                )
            )
        raise IllegalMove(
            _(
                "A {land} tile must go on a free parcel beside your own {land} and "
                "beside no opponent's {land}; {cell} is not such a parcel.",
                land=LAND_NAMES[land],
                cell=CELL_NAMES[cell],
            )
        )
    state["players"][seat]["money"] -= price(state, seat)
    state["purchases"] += 1
    state["selection"][slot - 1] = None
    _lay_tile(state, seat, land, [cell])
    _after_purchase(state, seat)


def _free_tile(state: State, seat: int, cell: int) -> dict | None:
    tile = tile_at(state, cell)
    if tile and tile["owner"] == seat and not tile["developed"] and tile["figure"] is None:
        return tile
    return None


def example_cells(card_id: int) -> str:
    """The card's shape laid from E5, for an example with the right number of parcels."""
    col, row = CELL_INDEX["E5"] % WIDTH, CELL_INDEX["E5"] // WIDTH
    cells = sorted((row + dr) * WIDTH + col + dc for dc, dr in ROTATIONS[CARDS[card_id].shape][0])
    return " ".join(CELL_NAMES[c] for c in cells)


def development_cells(state: State, seat: int, card_id: int, names: Any) -> list[int]:
    """Check a land development's parcels; return them as indices or raise IllegalMove."""
    card = CARDS[card_id]
    if not isinstance(names, list) or not names:
        raise IllegalMove(
            _(
                "Name the {size} parcels to develop, e.g. 'develop {cells}'.",
                size=card.size,
                cells=example_cells(card_id),
            )
        )
    cells = sorted({cell_of(n) for n in names})
    kind = LAND_NAMES[card.land]
    if len(cells) != card.size or len(names) != card.size:
        raise IllegalMove(
            _("The {name} card develops exactly {size} parcels.", name=card.name, size=card.size)
        )
    for cell in cells:
        tile = _free_tile(state, seat, cell)
        if tile is None or tile["land"] != card.land:
            raise IllegalMove(
                _(
                    "{cell} is not one of your undeveloped {kind} parcels free of figures.",
                    cell=CELL_NAMES[cell],
                    kind=kind,
                )
            )
    if _normalise(cells) not in ROTATION_SETS[card.shape]:
        raise IllegalMove(
            _(
                "{cells} is not a {shape}.",
                cells=" ".join(CELL_NAMES[c] for c in cells),
                shape=SHAPE_NAMES[card.shape],
            )
        )
    return cells


def _normalise(cells: list[int]) -> tuple[tuple[int, int], ...]:
    min_c = min(c % WIDTH for c in cells)
    min_r = min(c // WIDTH for c in cells)
    return tuple(sorted(((c % WIDTH - min_c, c // WIDTH - min_r) for c in cells), key=_row_major))


def _row_major(point: tuple[int, int]) -> tuple[int, int]:
    return point[1], point[0]


ROTATION_SETS = {name: frozenset(rotations) for name, rotations in ROTATIONS.items()}


def development_placements(state: State, seat: int, card_id: int) -> list[list[int]]:
    """Every set of parcels on which `seat` may lay this land development now."""
    card = CARDS[card_id]
    own = set()
    for tile in state["tiles"]:
        if (
            tile["owner"] == seat
            and tile["land"] == card.land
            and not tile["developed"]
            and tile["figure"] is None
        ):
            own.update(tile["cells"])
    found = []
    for cell in sorted(own):
        col, row = cell % WIDTH, cell // WIDTH
        for rotation in ROTATIONS[card.shape]:
            # the rotation's first offset is its top-left-most parcel: anchor it on `cell`
            dc0, dr0 = rotation[0]
            chosen = []
            for dc, dr in rotation:
                c, r = col + dc - dc0, row + dr - dr0
                target = r * WIDTH + c
                if not (0 <= c < WIDTH and 0 <= r < HEIGHT) or target not in own:
                    break
                chosen.append(target)
            else:
                found.append(sorted(chosen))
    return found


def figure_spots(state: State, seat: int, figure: str, exclude: int = -1) -> list[int]:
    """Tiles (by first parcel) where `seat` may put a figure: own, undeveloped, empty."""
    spots = []
    for tile_id, tile in enumerate(state["tiles"]):
        if tile_id == exclude or tile["owner"] != seat or tile["developed"] or tile["figure"]:
            continue
        if figure == "ship" and not any(COASTAL[c] for c in tile["cells"]):
            continue
        spots.append(tile["cells"][0])
    return spots


def _figure_tile(state: State, seat: int, figure: str, at: Any) -> dict:
    cell = cell_of(at)
    tile = _free_tile(state, seat, cell)
    if tile is None:
        raise IllegalMove(
            _(
                "A {figure} goes on one of your own undeveloped tiles with no figure; "
                "{cell} is not one.",
                figure=figure,
                cell=CELL_NAMES[cell],
            )
        )
    if figure == "ship" and not any(COASTAL[c] for c in tile["cells"]):
        raise IllegalMove(
            _("A ship must stand on a tile beside the sea; {cell} is not.", cell=CELL_NAMES[cell])
        )
    return tile


def usable_now(state: State, seat: int, card_id: int) -> bool:
    card = CARDS[card_id]
    if card.kind == "land":
        return bool(development_placements(state, seat, card_id))
    return state["supply"][card.kind] > 0 and bool(figure_spots(state, seat, card.kind))


def can_store(state: State, seat: int) -> bool:
    player = state["players"][seat]
    return len(player["stored"]) < player["figures"]["barn"]


def _settle_card(state: State, seat: int, card_id: int, move: dict) -> None:
    """Use a card now (land development or figure) or store it in an empty barn."""
    card = CARDS[card_id]
    player = state["players"][seat]
    if move.get("store"):
        if not can_store(state, seat):
            raise IllegalMove(_("You have no empty barn to store a card in."))
        player["stored"].append(card_id)
        if is_v2(state):
            state["stored_now"] += 1
        return
    if card.kind == "land":
        cells = development_cells(state, seat, card_id, move.get("cells"))
        for tile_id in {state["cells"][c] for c in cells}:
            # a starter tile's two halves are developed together; an unused half is wasted
            state["tiles"][tile_id]["developed"] = True
    else:
        if "at" not in move:
            raise IllegalMove(
                _("Say where the {kind} goes, e.g. 'place at E5'.", kind=FIGURE_NAMES[card.kind])
            )
        if state["supply"][card.kind] <= 0:
            raise IllegalMove(
                _("No {kind} figures are left in the supply.", kind=FIGURE_NAMES[card.kind])
            )
        tile = _figure_tile(state, seat, card.kind, move["at"])
        tile["figure"] = card.kind
        state["supply"][card.kind] -= 1
        player["figures"][card.kind] += 1
    player["cards"].append(card_id)


def buy_card(state: State, seat: int, move: dict) -> None:
    _require_turn(state, seat, "buy")
    slot = move.get("slot")
    item = _slot(state, slot, "card")
    _pay(state, seat)
    _settle_card(state, seat, item["card"], move)
    state["players"][seat]["money"] -= price(state, seat)
    state["purchases"] += 1
    state["selection"][slot - 1] = None
    _after_purchase(state, seat)


def play_stored(state: State, seat: int, move: dict) -> None:
    _require_turn(state, seat, "buy")
    stored = state["players"][seat]["stored"]
    index = move.get("stored")
    if not isinstance(index, int) or not 1 <= index <= len(stored):
        raise IllegalMove(
            _("You have no stored card with that number.")
            if stored
            else _("You have no card stored in a barn.")
        )
    if index > playable_stored(state, seat):
        raise IllegalMove(
            _("A card stored in a barn this turn can be played only in a later turn.")
        )
    if move.get("store"):
        raise IllegalMove(_("That card is already stored."))
    card_id = stored[index - 1]
    _settle_card(state, seat, card_id, move)
    stored.pop(index - 1)
    if state["purchases"] >= MAX_PURCHASES and not playable_stored(state, seat):
        end_buying_turn(state, seat)


def move_figure(state: State, seat: int, figure: Any, source: Any, target: Any) -> None:
    _require_turn(state, seat, "buy")
    if figure not in MOVABLE:
        raise IllegalMove(_("Only pilgrims and ships may be moved; barns stay where they are."))
    if not is_v2(state) and state["figure_moves"] >= MAX_FIGURE_MOVES:
        raise IllegalMove(
            _(
                "You have moved figures {count} times this turn.",
                count=MAX_FIGURE_MOVES,
            )
        )
    origin = tile_at(state, cell_of(source))
    if origin is None or origin["owner"] != seat or origin["figure"] != figure:
        raise IllegalMove(
            _("You have no {figure} on {source}.", figure=FIGURE_NAMES[figure], source=source)
        )
    tile = _figure_tile(state, seat, figure, target)
    origin["figure"] = None
    tile["figure"] = figure
    state["figure_moves"] += 1


def ship_leaders(state: State) -> list[int]:
    """Seats with the most ships on the board (at least one)."""
    counts = [p["figures"]["ship"] for p in state["players"]]
    most = max(counts)
    return [s for s, c in enumerate(counts) if c == most and most > 0]


def can_reveal(state: State, seat: int) -> bool:
    return (
        state["phase"] == "buy"
        and state["turn"] == seat
        and state["purchases"] == 0
        and not state["revealed"]
        and seat in ship_leaders(state)
    )


def reveal(state: State, seat: int, what: Any) -> None:
    _require_turn(state, seat, "buy")
    if not can_reveal(state, seat):
        if state["revealed"]:
            raise IllegalMove(_("You have already used your ships this turn."))
        if state["purchases"]:
            raise IllegalMove(_("Ships reveal an extra item only before your first purchase."))
        raise IllegalMove(_("Only the player or players with the most ships may reveal an item."))
    if what == "tile":
        if not state["bag"]:
            raise IllegalMove(_("The bag is empty: no tile can be revealed."))
        state["selection"].append({"tile": state["bag"].pop()})
    elif what == "card":
        if not state["deck"]:
            raise IllegalMove(_("The deck is empty: no card can be revealed."))
        state["selection"].append({"card": state["deck"].pop()})
    else:
        raise IllegalMove(_("Reveal a 'tile' or a 'card'."))
    state["revealed"] = True


# --- phase 4: income -----------------------------------------------------------------------


def income(state: State, seat: int) -> int:
    return INCOME + state["players"][seat]["figures"]["pilgrim"]


def _end_round(state: State) -> None:
    for seat, player in enumerate(state["players"]):
        player["money"] += income(state, seat)
    for item in state["selection"]:
        # Interpretation: what nobody bought leaves the game (see docs).
        if item is None:
            continue
        if "card" in item:
            state["discarded_cards"].append(item["card"])
        else:
            state["discarded_tiles"] += 1
    state["selection"] = []
    # The highest bidder starts the next round [DATA-NOTES 2.6, S19].
    state["start"] = max(range(len(state["chips"])), key=lambda s: state["chips"][s])
    state["chips"] = [None] * len(state["chips"])
    state["order"] = []
    _begin_round(state)


# --- the end -----------------------------------------------------------------------------


def figure_majorities(state: State) -> dict[str, list[int]]:
    """For each figure, the seats holding the most (at least one) of it."""
    found = {}
    for figure in FIGURES:
        counts = [p["figures"][figure] for p in state["players"]]
        most = max(counts)
        found[figure] = [s for s, c in enumerate(counts) if c == most and most > 0]
    return found


def scores(state: State) -> tuple[list[int], dict[str, Any]]:
    card_points = [sum(CARDS[c].points for c in p["cards"]) for p in state["players"]]
    bonus = [0] * len(state["players"])
    majorities = figure_majorities(state)
    for figure, seats in majorities.items():
        for seat in seats:
            bonus[seat] += MAJORITY_BONUS[figure]
    total = [c + b for c, b in zip(card_points, bonus, strict=True)]
    return total, {"cards": card_points, "bonus": bonus, "majorities": majorities}


def ranking(state: State, total: list[int]) -> list[int]:
    money = [p["money"] for p in state["players"]]
    return sorted(range(len(total)), key=lambda s: (-total[s], -money[s], s))


# --- invariants ---------------------------------------------------------------------------


def check_invariants(state: State) -> None:
    count = len(state["names"])
    cells, tiles = state["cells"], state["tiles"]
    for tile_id, tile in enumerate(tiles):
        for cell in tile["cells"]:
            assert cells[cell] == tile_id, f"tile {tile_id} not on {CELL_NAMES[cell]}"
        if tile["figure"]:
            assert not tile["developed"], "a figure stands on a developed tile"
            if tile["figure"] == "ship":
                assert any(COASTAL[c] for c in tile["cells"]), "a ship away from the sea"
    assert sum(c != EMPTY for c in cells) == sum(len(t["cells"]) for t in tiles)
    starters = sum(len(t["cells"]) == 2 for t in tiles)
    singles = len(tiles) - starters
    placed_starters = 3 * count - sum(len(s) for s in state["starters"])
    assert starters == placed_starters, "starter tiles miscounted"
    in_selection = sum(1 for i in state["selection"] if i and "tile" in i)
    assert singles + len(state["bag"]) + in_selection + state["discarded_tiles"] == sum(
        TILE_COUNTS.values()
    ), "land tiles not conserved"
    cards = list(state["deck"]) + list(state["discarded_cards"])
    cards += [i["card"] for i in state["selection"] if i and "card" in i]
    for player in state["players"]:
        assert player["money"] >= 0, "negative money"
        cards += player["cards"] + player["stored"]
        assert len(player["stored"]) <= player["figures"]["barn"], "more stored cards than barns"
    assert sorted(cards) == list(range(len(CARDS))), "development cards not conserved"
    for figure in FIGURES:
        on_board = sum(1 for t in tiles if t["figure"] == figure)
        owned = sum(p["figures"][figure] for p in state["players"])
        assert on_board == owned, f"{figure} count mismatch"
        assert (
            state["supply"][figure] >= 0
            and on_board + state["supply"][figure] == (FIGURE_SUPPLY[figure])
        ), f"{figure} figures not conserved"
    # each player owns one connected area per land type
    for seat in range(count):
        for land in LAND_TYPES:
            own = {c for t in tiles if t["owner"] == seat and t["land"] == land for c in t["cells"]}
            if own:
                start = next(iter(own))
                seen, todo = {start}, [start]
                while todo:
                    for n in NEIGHBOURS[todo.pop()]:
                        if n in own and n not in seen:
                            seen.add(n)
                            todo.append(n)
                assert seen == own, "a land type split into two areas"
            for cell in own:
                for n in NEIGHBOURS[cell]:
                    other = tile_at(state, n)
                    assert not (other and other["land"] == land and other["owner"] != seat), (
                        "opponents' areas of one land type touch"
                    )
    if state["phase"] == "buy":
        assert state["purchases"] <= MAX_PURCHASES
