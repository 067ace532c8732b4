"""Small builders for New England positions."""

from games.engine import event_rng
from games.rules.new_england import GAME, rules
from games.rules.new_england.data import CARDS, CELL_INDEX


def fresh(players: int = 4, setup: str = "fixed", seed: str = "test") -> dict:
    names = ["Anna", "Ben", "Cleo", "Dan"][:players]
    return GAME.setup(names, {"setup": setup}, event_rng(seed, 0))


def lay(state: dict, seat: int, land: str, *cells: str) -> int:
    """Put a land tile from the bag on the board directly, for building positions."""
    state["bag"].remove(land)
    return rules._lay_tile(state, seat, land, [CELL_INDEX[c] for c in cells])


def card_id(kind: str, land: str = "", shape: str = "") -> int:
    for card in CARDS:
        if card.kind == kind and card.land == land and card.shape == shape:
            return card.id
    raise KeyError((kind, land, shape))


def buying(state: dict, seat: int, items: list[dict], chip: int = 3, money: int = 20) -> dict:
    """Put `seat` at the start of its buying turn with `items` in the selection."""
    for item in items:
        if "card" in item:
            _take_from_deck(state, item["card"])
        else:
            state["bag"].remove(item["tile"])
    state["selection"] = [dict(i) for i in items]
    state["phase"] = "buy"
    state["chips"] = [None] * len(state["names"])
    state["chips"][seat] = chip
    others = [s for s in range(len(state["names"])) if s != seat]
    for value, other in zip((1, 2, 4), others):
        state["chips"][other] = value if value != chip else 9
    state["order"] = sorted(range(len(state["names"])), key=lambda s: -state["chips"][s])
    state["players"][seat]["money"] = money
    rules._begin_buying_turn(state, seat)
    return state


def _take_from_deck(state: dict, card: int) -> None:
    if card in state["deck"]:
        state["deck"].remove(card)
        return
    for player in state["players"]:
        if card in player["cards"]:
            raise AssertionError("card already in play")
    raise AssertionError("card not in the deck")


def card_named(state: dict, kind: str, land: str = "", shape: str = "") -> int:
    """A card of that kind still in the deck."""
    for c in state["deck"]:
        card = CARDS[c]
        if card.kind == kind and card.land == land and card.shape == shape:
            return c
    raise KeyError((kind, land, shape))


def figure(state: dict, seat: int, kind: str, cell: str) -> None:
    """Put a figure on a tile directly, as if its card had been played."""
    tile = rules.tile_at(state, CELL_INDEX[cell])
    assert tile["owner"] == seat and tile["figure"] is None
    card = card_named(state, kind)
    state["deck"].remove(card)
    state["players"][seat]["cards"].append(card)
    tile["figure"] = kind
    state["supply"][kind] -= 1
    state["players"][seat]["figures"][kind] += 1


def apply(state: dict, seat: int, move: dict) -> dict:
    return GAME.apply(state, seat, move, event_rng("test", 1))
