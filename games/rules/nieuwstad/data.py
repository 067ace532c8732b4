"""Component data of De Poorters van Nieuwstad.

Printed facts come from the rulebook (rules/nieuwstad.txt) and the component research
(DATA-NOTES section 1). Everything else is design, marked [design] here and explained in
docs/rules/nieuwstad.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.engine.words import pgettext

# --- players and supplies -------------------------------------------------------------

COLOURS = ("white", "red", "orange", "blue")  # seat order; the example's Cor is white
START_GUILDERS = 2  # [rulebook] setup step 5
LIGHT_SEALS = {2: 8, 3: 7, 4: 7}  # [rulebook]
DARK_SEALS = 4  # [rulebook]
BURGHERS_MIN = 5  # [rulebook] never fewer than 5
END_POINTS = 30  # [rulebook]
ROUND_LIMIT = 40  # [design] a safeguard: bots or absent players cannot loop forever

PRODUCTS = ("fish", "grain", "livestock", "game")  # raw food (Black Death, Midsummer)
GOODS = (
    "wood",
    "plank",
    "fish",
    "grain",
    "livestock",
    "game",
    "smoked",
    "bread",
    "meat",
    "gamemeat",
)
GOOD_NAMES = {
    "wood": pgettext("nieuwstad", "wood"),
    "plank": pgettext("nieuwstad", "plank"),
    "fish": pgettext("nieuwstad", "fish"),
    "grain": pgettext("nieuwstad", "grain"),
    "livestock": pgettext("nieuwstad", "livestock"),
    "game": pgettext("nieuwstad", "game"),
    "smoked": pgettext("nieuwstad", "smoked fish"),
    "bread": pgettext("nieuwstad", "bread"),
    "meat": pgettext("nieuwstad", "meat"),
    "gamemeat": pgettext("nieuwstad", "game meat"),
}

# --- forest tiles [rulebook] ------------------------------------------------------------

FOREST_TILES = {"w3": 16, "w4": 7, "w2g": 7}
FOREST_REMOVED_2P = {"w3": 6, "w4": 3, "w2g": 3}
FOREST_YIELD = {"w3": {"wood": 3}, "w4": {"wood": 4}, "w2g": {"wood": 2, "game": 1}}
FOREST_NAMES = {
    "w3": pgettext("nieuwstad", "3 wood"),
    "w4": pgettext("nieuwstad", "4 wood"),
    "w2g": pgettext("nieuwstad", "2 wood and 1 game"),
}

# --- boards [design: geometry; rulebook: 27/15 forest spaces, 2/1 printed boats] --------

DIRS = ("N", "E", "S", "W")
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
DIR_NAMES = {
    "N": pgettext("nieuwstad", "north"),
    "E": pgettext("nieuwstad", "east"),
    "S": pgettext("nieuwstad", "south"),
    "W": pgettext("nieuwstad", "west"),
}


@dataclass(frozen=True)
class Board:
    key: str
    columns: int
    rows: int
    market: tuple[str, ...]
    city: tuple[str, ...]
    countryside: tuple[str, ...]
    lake: tuple[str, ...]
    districts: dict[str, tuple[str, ...]]
    tiles: tuple[tuple[str, str], ...]  # the spaces each forest tile covers
    boat_spots: int


def _cells(spec: str) -> tuple[str, ...]:
    return tuple(spec.split())


def _tiles(spec: str) -> tuple[tuple[str, str], ...]:
    return tuple((a, b) for a, b in (pair.split("-") for pair in spec.split()))


# A forest tile covers two building spaces [design]: the rulebook's example builds 6
# buildings on the 4 tiles cleared in the opening, so a tile must hold more than one.
LARGE = Board(
    key="large",
    columns=8,
    rows=8,
    market=_cells("D4 E4 D5 E5"),
    city=_cells(
        "B2 C2 D2 E2 F2 G2 B3 C3 D3 E3 F3 G3 B4 C4 F4 G4 "
        "B5 C5 F5 G5 B6 C6 D6 E6 F6 G6 B7 C7 D7 E7 F7 G7"
    ),
    countryside=_cells("A1 B1 C1 D1 E1 F1 G1 H1 A2 A3 A4 A5 A6 A7 A8 B8 C8 D8 E8 F8 G8 H8"),
    lake=_cells("H2 H3 H4 H5 H6 H7"),
    districts={
        "NW": _cells("B2 C2 D2 B3 C3 D3 B4 C4"),
        "NE": _cells("E2 F2 G2 E3 F3 G3 F4 G4"),
        "SE": _cells("F5 G5 E6 F6 G6 E7 F7 G7"),
        "SW": _cells("B5 C5 B6 C6 D6 B7 C7 D7"),
    },
    tiles=_tiles(
        "B2-C2 D2-D3 B3-B4 C3-C4 F2-G2 E2-E3 F3-F4 G3-G4 "
        "B6-B7 C6-C7 B5-C5 D6-D7 F5-F6 G5-G6 E6-E7 F7-G7 "
        "A1-B1 C1-D1 E1-F1 G1-H1 A2-A3 A4-A5 A6-A7 A8-B8 C8-D8 E8-F8 G8-H8"
    ),
    boat_spots=2,
)

SMALL = Board(
    key="small",
    columns=8,
    rows=5,
    market=_cells("D2 E2 D3 E3"),
    city=_cells("B1 C1 D1 E1 F1 G1 B2 C2 F2 G2 B3 C3 F3 G3 B4 C4 D4 E4 F4 G4"),
    countryside=_cells("A1 A2 A3 A4 A5 B5 C5 D5 E5 F5"),
    lake=_cells("H1 H2 H3 H4"),
    districts={
        "NW": _cells("B1 C1 D1 B2 C2"),
        "NE": _cells("E1 F1 G1 F2 G2"),
        "SE": _cells("F3 G3 E4 F4 G4"),
        "SW": _cells("B3 C3 B4 C4 D4"),
    },
    tiles=_tiles(
        "B1-C1 D1-E1 F1-G1 B2-B3 C2-C3 F2-F3 G2-G3 B4-C4 D4-E4 F4-G4 A1-A2 A3-A4 A5-B5 C5-D5 E5-F5"
    ),
    boat_spots=1,
)

BOARDS = {"large": LARGE, "small": SMALL}
DISTRICT_NAMES = {
    "NW": pgettext("nieuwstad", "north-west"),
    "NE": pgettext("nieuwstad", "north-east"),
    "SE": pgettext("nieuwstad", "south-east"),
    "SW": pgettext("nieuwstad", "south-west"),
}
LOOSE_BOATS = 2  # [rulebook] the 2 boat tiles, only for the Boatbuilding card


def cell_xy(cell: str) -> tuple[int, int]:
    return ord(cell[0]) - 65, int(cell[1:]) - 1


def xy_cell(x: int, y: int) -> str:
    return f"{chr(65 + x)}{y + 1}"


# --- buildings ----------------------------------------------------------------------------
# edges: materials of the (front, right, back, left) sides when the front faces north:
# "S" stone, "z" sand, "G" the City Gate's green edge. None: a field, edges never matter.


@dataclass(frozen=True)
class Building:
    key: str
    name: str
    count: int
    colour: str  # red (starting), green (outer area only), blue (community), brown
    guilders: int
    wood: int
    burghers: int
    points: int
    size: int
    edges: str | None
    stall: bool = False


BUILDINGS: dict[str, Building] = {
    b.key: b
    for b in (
        # [rulebook] count, colour, +5 burghers, 2 points; cost 2 g + 3 wood [D]
        Building("house", pgettext("nieuwstad", "House"), 8, "red", 2, 3, 5, 2, 1, "Szzz"),
        # [rulebook] count, red, -1 burgher; cost and points [design, fits the example]
        Building(
            "grainfield", pgettext("nieuwstad", "Grain field"), 5, "red", 2, 1, -1, 1, 1, "zzzz"
        ),
        Building("pasture", pgettext("nieuwstad", "Pasture"), 5, "green", 2, 1, -1, 1, 1, None),
        Building("manor", pgettext("nieuwstad", "Manor house"), 5, "brown", 5, 5, 6, 3, 2, "SSzS"),
        Building(
            "timbertrade",
            pgettext("nieuwstad", "Timber trade"),
            1,
            "brown",
            2,
            2,
            1,
            1,
            1,
            "SSzz",
            True,
        ),
        Building(
            "sawmill", pgettext("nieuwstad", "Sawmill"), 1, "green", 3, 2, 1, 2, 1, None, True
        ),
        Building("baker", pgettext("nieuwstad", "Baker"), 1, "brown", 2, 2, 2, 2, 1, "SzSz", True),
        Building(
            "butcher", pgettext("nieuwstad", "Butcher"), 1, "brown", 2, 2, 2, 2, 1, "SzzS", True
        ),
        Building(
            "fishmonger",
            pgettext("nieuwstad", "Fishmonger"),
            1,
            "brown",
            2,
            2,
            2,
            2,
            1,
            "SSzz",
            True,
        ),
        Building("inn", pgettext("nieuwstad", "Inn"), 1, "brown", 5, 5, 3, 4, 2, "SzSz", True),
        Building("office", pgettext("nieuwstad", "Office"), 1, "brown", 5, 4, 3, 3, 1, "SSSz"),
        Building("prison", pgettext("nieuwstad", "Prison"), 1, "brown", 3, 3, 0, 3, 1, "Szzz"),
        Building("citygate", pgettext("nieuwstad", "City Gate"), 2, "brown", 4, 4, 2, 3, 2, "GSSS"),
        Building(
            "guildhall", pgettext("nieuwstad", "Guildhall"), 1, "brown", 5, 5, 3, 5, 2, "SzSS"
        ),
        Building("townhall", pgettext("nieuwstad", "Town Hall"), 1, "blue", 6, 6, 4, 6, 2, "SSSS"),
        Building("hospice", pgettext("nieuwstad", "Hospice"), 1, "blue", 4, 4, 2, 4, 1, "Szzz"),
        Building(
            "watchtower", pgettext("nieuwstad", "Watchtower"), 1, "blue", 4, 4, 1, 4, 1, "SSzz"
        ),
        Building("church", pgettext("nieuwstad", "Church"), 1, "blue", 6, 6, 3, 8, 2, "SSzS"),
        Building("well", pgettext("nieuwstad", "Well"), 1, "blue", 2, 2, 2, 2, 1, "SSSS"),
    )
}
# The Boat is printed on the board [rulebook]; cost and points [design, fits the example].
BOAT = Building("boat", pgettext("nieuwstad", "Boat"), 0, "red", 1, 2, -1, 1, 0, None)
ALL_BUILDINGS = {**BUILDINGS, "boat": BOAT}
STARTING_BUILDINGS = ("house", "grainfield", "boat")  # [rulebook]
REMOVED_2P = {"house": 4, "manor": 2}  # [rulebook]
CITY_GATE_POINTS_PER_OUTER = 1  # [design] City Gate: 1 point per own outer-area building

# Market stalls [rulebook]: the Burghers needed for each sale spot, and prices.
STALL_SLOTS = {
    "butcher": (20, 20, 30, 40, 40, 50),  # 20→2, 30→3, 40→5, 50→6
    "baker": (10, 20, 20, 30, 40, 50),  # 10→1, 20→3, 30→4, 40→5, 50→6
    "fishmonger": (10, 10, 20, 30, 40, 50),  # 10→2, 20→3, 30→4, 40→5, 50→6
    "inn": (30, 40, 50, 60),
}
# sold good -> (stall, guilders, points)
SALE_PRICES = {
    "meat": ("butcher", 2, 2),
    "gamemeat": ("butcher", 1, 1),
    "bread": ("baker", 1, 2),
    "smoked": ("fishmonger", 1, 1),
}
PASTIES = {  # pasty -> (filling, guilders, points) [rulebook]
    "meat": ("meat", 6, 5),
    "game": ("gamemeat", 4, 3),
    "fish": ("smoked", 4, 3),
}
PASTY_NAMES = {
    "meat": pgettext("nieuwstad", "meat pasty"),
    "game": pgettext("nieuwstad", "game pasty"),
    "fish": pgettext("nieuwstad", "fish pasty"),
}
CONVERSIONS = {  # raw -> (processed, stall) [rulebook]
    "livestock": ("meat", "butcher"),
    "game": ("gamemeat", "butcher"),
    "grain": ("bread", "baker"),
    "fish": ("smoked", "fishmonger"),
}
SAWMILL_WOOD = 2  # [rulebook] per player per Merchant phase

# --- characters [rulebook] -----------------------------------------------------------------

CHARACTERS = ("woodcutter", "builder", "farmer", "bailiff", "merchant", "rentmaster", "count")
CHARACTER_NAMES = {
    "woodcutter": pgettext("nieuwstad", "Woodcutter"),
    "builder": pgettext("nieuwstad", "Master Builder"),
    "farmer": pgettext("nieuwstad", "Farmer"),
    "bailiff": pgettext("nieuwstad", "Bailiff"),
    "merchant": pgettext("nieuwstad", "Merchant"),
    "rentmaster": pgettext("nieuwstad", "Rent Master"),
    "count": pgettext("nieuwstad", "Count"),
}
UNLOCKED_BY = {"rentmaster": "office", "count": "townhall"}

# --- action cards ----------------------------------------------------------------------------
# Names and texts [rulebook]; copies and the 3/4 corner marks [design].


@dataclass(frozen=True)
class Card:
    key: str
    name: str
    kind: str  # wish, event
    timing: str  # bailiff, builder, income, reaction, end, event
    copies: tuple[str, ...]  # one entry per copy: "" unmarked, "3" or "4" corner mark


CARDS: dict[str, Card] = {
    c.key: c
    for c in (
        Card("boatbuilding", pgettext("nieuwstad", "Boatbuilding"), "wish", "bailiff", ("", "3")),
        Card("fire", pgettext("nieuwstad", "Fire"), "wish", "bailiff", ("", "3")),
        Card("watch", pgettext("nieuwstad", "Citizens' Watch"), "wish", "reaction", ("", "3")),
        Card("neighbourhood", pgettext("nieuwstad", "Neighbourhood Party"), "wish", "end", ("",)),
        Card("crime", pgettext("nieuwstad", "Crime"), "wish", "bailiff", ("", "", "4")),
        Card("woodfestival", pgettext("nieuwstad", "Woodcutters' Festival"), "wish", "end", ("",)),
        Card(
            "housebuilding",
            pgettext("nieuwstad", "House Building"),
            "wish",
            "builder",
            ("", "", "4"),
        ),
        Card("incometax", pgettext("nieuwstad", "Income Tax"), "wish", "income", ("", "3")),
        Card("knowledge", pgettext("nieuwstad", "Knowledge is Power"), "wish", "bailiff", ("", "")),
        Card(
            "midsummer",
            pgettext("nieuwstad", "Midsummer Night Festival"),
            "wish",
            "bailiff",
            ("", "3"),
        ),
        Card("rottenfish", pgettext("nieuwstad", "Rotten Fish"), "wish", "bailiff", ("",)),
        Card("painting", pgettext("nieuwstad", "Painting"), "wish", "end", ("", "4")),
        Card("locusts", pgettext("nieuwstad", "Locust Plague"), "wish", "bailiff", ("",)),
        Card("gatherer", pgettext("nieuwstad", "Gatherer"), "wish", "bailiff", ("", "4")),
        Card("statue", pgettext("nieuwstad", "Statue"), "wish", "end", ("",)),
        Card("districtparty", pgettext("nieuwstad", "District Party"), "wish", "end", ("", "")),
        Card("wolves", pgettext("nieuwstad", "Wolf Terror"), "wish", "bailiff", ("",)),
        Card("smallbirth", pgettext("nieuwstad", "Small Birth Wave"), "event", "event", ("", "4")),
        Card("greatbirth", pgettext("nieuwstad", "Great Birth Wave"), "event", "event", ("", "3")),
        Card("crusade", pgettext("nieuwstad", "Crusade"), "event", "event", ("", "4")),
        Card("vikings", pgettext("nieuwstad", "Vikings"), "event", "event", ("",)),
        Card("blackdeath", pgettext("nieuwstad", "Black Death"), "event", "event", ("",)),
    )
}
CARD_TEXT = {  # [rulebook], in short
    "boatbuilding": pgettext(
        "nieuwstad", "Place a loose Boat on the lake with your seal; no points, no Burghers."
    ),
    "fire": pgettext(
        "nieuwstad",
        "A House (not a Manor house) burns down; Burghers -2. Not once the Watchtower stands.",
    ),
    "watch": pgettext("nieuwstad", "In reaction to Crime: protect the chosen district."),
    "neighbourhood": pgettext("nieuwstad", "End of game: 1 point per 3 guilders."),
    "crime": pgettext(
        "nieuwstad", "Steal 1 guilder or 1 wood from each player in a district (not the Prison's)."
    ),
    "woodfestival": pgettext("nieuwstad", "End of game: 1 point per 3 wood (a plank counts 2)."),
    "housebuilding": pgettext(
        "nieuwstad", "Master Builder phase: 2 guilders and 2 wood off a House or Manor house."
    ),
    "incometax": pgettext("nieuwstad", "At income: nobody receives income this round."),
    "knowledge": pgettext(
        "nieuwstad", "Face up: your privileges count double whenever you choose a character."
    ),
    "midsummer": pgettext(
        "nieuwstad", "In a district: each may pay 1 food for 2 points; absent residents lose 1."
    ),
    "rottenfish": pgettext("nieuwstad", "All players' fresh fish returns to the supply."),
    "painting": pgettext("nieuwstad", "End of game: 3 points."),
    "locusts": pgettext("nieuwstad", "All grain on Grain fields returns to the supply."),
    "gatherer": pgettext("nieuwstad", "Receive 2 wood."),
    "statue": pgettext("nieuwstad", "End of game: 4 points."),
    "districtparty": pgettext(
        "nieuwstad", "End of game: 1 point per own building in a district, +3 if it is full."
    ),
    "wolves": pgettext("nieuwstad", "All livestock on Pastures returns to the supply."),
    "smallbirth": pgettext("nieuwstad", "Burghers +1 per House and Manor house."),
    "greatbirth": pgettext("nieuwstad", "Burghers +2 per House and Manor house."),
    "crusade": pgettext("nieuwstad", "Burghers -10."),
    "vikings": pgettext(
        "nieuwstad",
        "Boats destroyed; Burghers -3 per city building by the water. 1 guilder per Boat and building prevents it. Not once the Watchtower stands.",
    ),
    "blackdeath": pgettext(
        "nieuwstad",
        "Owners lose 1 point per city building; half the Burghers die. 5 guilders and 3 food prevent it. Not once the Hospice stands.",
    ),
}
TIMING_NAMES = {  # when a card is played, as the hand's table says it
    "bailiff": pgettext("nieuwstad", "bailiff"),
    "builder": pgettext("nieuwstad", "builder"),
    "income": pgettext("nieuwstad", "income"),
    "reaction": pgettext("nieuwstad", "reaction"),
    "end": pgettext("nieuwstad", "end"),
    "event": pgettext("nieuwstad", "event"),
}
END_CARDS = ("neighbourhood", "woodfestival", "painting", "statue", "districtparty")
BLACK_DEATH_COST = (5, 3)  # guilders, food [rulebook]
FIRE_BURGHERS = 2
CRUSADE_BURGHERS = 10
VIKING_BURGHERS = 3


def deck_for(players: int) -> list[str]:
    """Card keys for the player count, before shuffling [rulebook: remove marked cards]."""
    return list(_deck(players))  # a list of its own: the setup shuffles it


@cache
def _deck(players: int) -> tuple[str, ...]:
    removed = {3: ("4",), 2: ("3", "4")}.get(players, ())
    return tuple(c.key for c in CARDS.values() for mark in c.copies if mark not in removed)
