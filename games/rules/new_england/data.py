"""New England's components as data: the board, the families, the tiles and the cards.

What is printed fact and what is design is recorded in docs/rules/new-england.md. In short:
the counts (98 parcels, 60 land tiles, 12 starter tiles, 58 cards, 13/11/10 figures, 12
shillings, chips 1-10, bonuses 4/3/2) are printed; the grid orientation, the missing corner,
the fixed layout, the land-tile split and the whole card list are this package's design.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.words import Text, _, pgettext

# --- the board -------------------------------------------------------------------------
# 11 columns (A-K) by 9 rows (1-9); the sea lies north of row 1 and east of column K.
# The square missing from the 9 x 11 grid is the north-east corner K1, where the coasts meet.
COLUMNS = "ABCDEFGHIJK"
WIDTH = len(COLUMNS)
HEIGHT = 9
MISSING = (WIDTH - 1,)  # K1, index row * WIDTH + col
CELLS = WIDTH * HEIGHT  # 99 grid squares, one of them missing: 98 parcels
PARCELS = CELLS - len(MISSING)


def cell_name(index: int) -> str:
    return f"{COLUMNS[index % WIDTH]}{index // WIDTH + 1}"


def _cell_index(name: str) -> int:
    return (int(name[1:]) - 1) * WIDTH + COLUMNS.index(name[0])


def _neighbours(index: int, keep_missing: bool = False) -> tuple[int, ...]:
    col, row = index % WIDTH, index // WIDTH
    found = []
    for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        c, r = col + dc, row + dr
        if 0 <= c < WIDTH and 0 <= r < HEIGHT and (keep_missing or r * WIDTH + c not in MISSING):
            found.append(r * WIDTH + c)
    return tuple(found)


def _coastal(index: int) -> bool:
    col, row = index % WIDTH, index // WIDTH
    if row == 0 or col == WIDTH - 1:
        return True
    # a parcel beside the missing corner borders the sea there too
    return any(n in MISSING for n in _neighbours(index, keep_missing=True))


LAND = tuple(i for i in range(CELLS) if i not in MISSING)
NEIGHBOURS = tuple(_neighbours(i) if i not in MISSING else () for i in range(CELLS))
COASTAL = tuple(i not in MISSING and _coastal(i) for i in range(CELLS))
CELL_NAMES = tuple(cell_name(i) for i in range(CELLS))
CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES) if i not in MISSING}

# --- land types and families ------------------------------------------------------------
LAND_TYPES = ("S", "F", "P")
FIGURE_NAMES = {
    "pilgrim": pgettext("new-england", "pilgrim"),
    "barn": pgettext("new-england", "barn"),
    "ship": pgettext("new-england", "ship"),
}
LAND_NAMES = {
    "S": pgettext("new-england", "settlement"),
    "F": pgettext("new-england", "field"),
    "P": pgettext("new-england", "pasture"),
}
LAND_WORDS = {
    "s": "S",
    "settlement": "S",
    "settlements": "S",
    "border": "S",
    "brown": "S",
    "f": "F",
    "field": "F",
    "fields": "F",
    "farmland": "F",
    "cropland": "F",
    "black": "F",
    "p": "P",
    "pasture": "P",
    "pastures": "P",
    "meadow": "P",
    "green": "P",
}

FAMILIES = ("Annable", "Howland", "Palomer", "Winslow")
# Seats are handed families alphabetically from the start player (seat 0); with three
# players the Howland pieces stay in the box [rulebook].
FAMILIES_BY_COUNT = {3: ("Annable", "Palomer", "Winslow"), 4: FAMILIES}

START_MONEY = 12  # five sources against one [DATA-NOTES 2.6]
INCOME = 4
CHIPS = tuple(range(1, 11))
MAX_PURCHASES = 2
SELECTION_SPACES = 9
CARD_CHOICES = (3, 4, 5, 6)
FIGURE_SUPPLY = {"pilgrim": 13, "barn": 11, "ship": 10}
MAJORITY_BONUS = {"pilgrim": 4, "barn": 3, "ship": 2}
FIGURES = ("pilgrim", "barn", "ship")
MOVABLE = ("pilgrim", "ship")
# By-mail limit, so that a game always ends: moves of pilgrims and ships per buying turn.
MAX_FIGURE_MOVES = 6

# --- land tiles in the bag (design: see docs) -------------------------------------------
TILE_COUNTS = {"S": 16, "F": 22, "P": 22}

# --- the fixed setup (design) ----------------------------------------------------------
# Family -> land type -> the two parcels of its starter tile. Every family has one tile a
# step from the coast, one near the middle and one inland; the four tiles of one land type
# lie in four different parts of the board.
FIXED_SETUP = {
    "Annable": {"S": ("B2", "C2"), "F": ("E4", "F4"), "P": ("G8", "G9")},
    "Howland": {"F": ("J4", "J5"), "P": ("F6", "G6"), "S": ("B7", "C7")},
    "Palomer": {"S": ("H2", "I2"), "F": ("K6", "K7"), "P": ("A9", "B9")},
    "Winslow": {"P": ("B4", "B5"), "F": ("E8", "E9"), "S": ("I8", "J8")},
}
# With three players the Howland pieces stay in the box; which of the four 4-player sets of
# positions the three families take was chosen by simulation (see docs).
FIXED_SETUP_BY_COUNT = {
    4: FIXED_SETUP,
    3: {
        "Annable": FIXED_SETUP["Howland"],
        "Palomer": FIXED_SETUP["Annable"],
        "Winslow": FIXED_SETUP["Winslow"],
    },
}

# --- development cards (design: see docs) -----------------------------------------------
# Shapes as (column, row) offsets, drawn as on the card; a card may be turned, not mirrored.
SHAPES = {
    "pair": ((0, 0), (1, 0)),
    "row of three": ((0, 0), (1, 0), (2, 0)),
    "corner": ((0, 0), (1, 0), (0, 1)),
    "row of four": ((0, 0), (1, 0), (2, 0), (3, 0)),
    "square": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "tee": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "ell": ((0, 0), (0, 1), (0, 2), (1, 2)),
    "jay": ((1, 0), (1, 1), (1, 2), (0, 2)),
    "ess": ((1, 0), (2, 0), (0, 1), (1, 1)),
    "zed": ((0, 0), (1, 0), (1, 1), (2, 1)),
}

# The shapes' names as a player reads them (the keys above stay the shapes' ids).
SHAPE_NAMES = {
    "pair": pgettext("new-england", "pair"),
    "row of three": pgettext("new-england", "row of three"),
    "corner": pgettext("new-england", "corner"),
    "row of four": pgettext("new-england", "row of four"),
    "square": pgettext("new-england", "square"),
    "tee": pgettext("new-england", "tee"),
    "ell": pgettext("new-england", "ell"),
    "jay": pgettext("new-england", "jay"),
    "ess": pgettext("new-england", "ess"),
    "zed": pgettext("new-england", "zed"),
}


@dataclass(frozen=True)
class Card:
    id: int
    kind: str  # "land" or a figure: "pilgrim", "barn", "ship"
    points: int
    land: str = ""  # S, F or P for land developments
    shape: str = ""

    @property
    def name(self) -> Text:
        if self.kind == "land":
            return _(
                "{land} {shape} ({points})",
                land=LAND_NAMES[self.land],
                shape=SHAPE_NAMES[self.shape],
                points=self.points,
            )
        return _("{figure} ({points})", figure=FIGURE_NAMES[self.kind], points=self.points)

    @property
    def size(self) -> int:
        return len(SHAPES[self.shape]) if self.shape else 0


# (kind, land, shape, points, copies)
_DECK_DESIGN = (
    ("pilgrim", "", "", 1, 9),
    ("barn", "", "", 1, 7),
    ("ship", "", "", 1, 6),
    # settlements: the scarce land, the only one with 10-point developments
    ("land", "S", "pair", 3, 2),
    ("land", "S", "row of three", 4, 2),
    ("land", "S", "corner", 4, 2),
    ("land", "S", "row of four", 6, 1),
    ("land", "S", "tee", 6, 1),
    ("land", "S", "ell", 6, 1),
    ("land", "S", "ess", 6, 1),
    ("land", "S", "square", 10, 2),
    # fields
    ("land", "F", "pair", 2, 3),
    ("land", "F", "row of three", 3, 2),
    ("land", "F", "corner", 3, 2),
    ("land", "F", "row of four", 5, 1),
    ("land", "F", "ell", 5, 1),
    ("land", "F", "jay", 5, 1),
    ("land", "F", "tee", 5, 1),
    ("land", "F", "square", 6, 1),
    # pastures
    ("land", "P", "pair", 2, 3),
    ("land", "P", "row of three", 3, 2),
    ("land", "P", "corner", 3, 2),
    ("land", "P", "row of four", 5, 1),
    ("land", "P", "ess", 5, 1),
    ("land", "P", "zed", 5, 1),
    ("land", "P", "tee", 5, 1),
    ("land", "P", "square", 6, 1),
)


def _build_deck() -> tuple[Card, ...]:
    cards = []
    for kind, land, shape, points, copies in _DECK_DESIGN:
        for _copy in range(copies):
            cards.append(Card(len(cards), kind, points, land, shape))
    return tuple(cards)


CARDS = _build_deck()


def _rotations(shape: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The distinct quarter turns of a shape, each normalised to start at (0, 0) row-major."""
    found = []
    cells = list(shape)
    for _turn in range(4):
        min_c = min(c for c, _ in cells)
        min_r = min(r for _, r in cells)
        norm = tuple(sorted(((c - min_c, r - min_r) for c, r in cells), key=lambda p: (p[1], p[0])))
        if norm not in found:
            found.append(norm)
        cells = [(-r, c) for c, r in cells]
    return tuple(found)


ROTATIONS = {name: _rotations(shape) for name, shape in SHAPES.items()}


def shillings(amount: int) -> Text:
    """'1 shilling', '3 shillings': every sentence that names money."""
    if amount == 1:
        return _("1 shilling")
    return _("{amount} shillings", amount=amount)
