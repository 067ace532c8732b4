"""Builders of Blankenburg: every component as data.

Provenance tags in the comments: [R] printed in the rulebook, [D] derived from the rulebook's
worked examples (see DATA-NOTES §3.3), [G] our design (docs/rules/blankenburg.md explains the
reasoning and the simulation figures behind each number).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.words import pgettext

# --- resources ----------------------------------------------------------------------------

RESOURCES = ("wood", "stone", "glass", "marble", "iron")  # [R]
BASIC_RESOURCES = ("wood", "stone")  # [R] "known as base or basic resources"
RARE_RESOURCES = ("glass", "marble", "iron")
RESOURCE_TOTAL = {"wood": 25, "stone": 25, "glass": 15, "marble": 15, "iron": 15}  # [R]
GOLD_TOTAL = 10  # [R]
HOLDING_LIMIT = {"wood": 5, "stone": 5, "glass": 3, "marble": 3, "iron": 3, "gold": 2}  # [R]
# One die face per resource plus a blank; wood and stone faces give two [R].
DIE_FACES = ("wood", "stone", "glass", "marble", "iron", None)
BLANK = pgettext("blankenburg", "blank")  # the die's empty face, as the narration names it
DIE_YIELD = {"wood": 2, "stone": 2, "glass": 1, "marble": 1, "iron": 1}

START_SILVER = 12  # [R]
START_RESOURCES = {"wood": 1, "stone": 1}  # [R]
MAX_TAKE = 3  # [R] a bid winner takes one category, at most three
WHEEL_CARRY = 3  # [R] leftovers stay on the wheel, at most three of each
ZERO_BID_SILVER = 3  # [R]; four with six players
ZERO_BID_SILVER_SIX = 4
PLAN_PRICE = {"basic": 1, "grand": 2}  # [R]
PLAN_DRAW = {"basic": 2, "grand": 1}  # [R]
HAND_LIMIT = 3  # [R]
RESOURCE_PRICE = (2, 3)  # [R] first and second marketplace round
SELL_PRICE = 1  # [R]
REPAIR_COST = {"basic": 2, "grand": 4}  # [R]
TRACK_LENGTH = 12  # [R] citizen track I-XII
SILVER_PER_PRESTIGE = 10  # [R]
SILVER_PRESTIGE_CAP = 3  # [R]
MAJORITY_BONUS = {"civic": 2, "religious": 2, "residential": 3, "commercial": 3}  # [R]

DISTRICTS = ("residential", "commercial", "civic", "religious")
# The words a player reads for the resources, districts and the two kinds of plan (the keys
# above stay the state's English; these are what the narration and the boards say).
RESOURCE_NAMES = {
    "wood": pgettext("blankenburg", "wood"),
    "stone": pgettext("blankenburg", "stone"),
    "glass": pgettext("blankenburg", "glass"),
    "marble": pgettext("blankenburg", "marble"),
    "iron": pgettext("blankenburg", "iron"),
    "gold": pgettext("blankenburg", "gold"),
}
DISTRICT_NAMES = {
    "residential": pgettext("blankenburg", "residential"),
    "commercial": pgettext("blankenburg", "commercial"),
    "civic": pgettext("blankenburg", "civic"),
    "religious": pgettext("blankenburg", "religious"),
}
KIND_NAMES = {"basic": pgettext("blankenburg", "basic"), "grand": pgettext("blankenburg", "grand")}
DISTRICT_COLOUR = {  # [R] border colours
    "civic": "red",
    "commercial": "green",
    "religious": "blue",
    "residential": "yellow",
}

# --- plans --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    id: int
    name: str
    kind: str  # "basic" or "grand"
    district: str
    cost: tuple[tuple[str, int], ...]
    prestige: int
    income: int
    capacity: int
    starred: bool = False

    @property
    def cost_dict(self) -> dict[str, int]:
        return dict(self.cost)

    @property
    def size(self) -> int:
        return sum(n for _, n in self.cost)


def _p(pid, name, kind, district, cost, prestige, income, capacity, starred=False):
    return Plan(pid, name, kind, district, tuple(cost.items()), prestige, income, capacity, starred)


W, S, G, M, IR = "wood", "stone", "glass", "marble", "iron"

PLANS: tuple[Plan, ...] = (
    # Residential basics
    _p(
        0, pgettext("blankenburg", "Cottage"), "basic", "residential", {S: 2}, 1, 1, 1, True
    ),  # [D] E1, E2
    _p(
        1, pgettext("blankenburg", "Cottage"), "basic", "residential", {S: 2}, 1, 1, 1
    ),  # [G] second copy
    _p(
        2,
        pgettext("blankenburg", "Townhouse"),
        "basic",
        "residential",
        {W: 1, S: 1, IR: 1},
        2,
        2,
        1,
    ),  # [G]
    _p(
        3,
        pgettext("blankenburg", "Tudor"),
        "basic",
        "residential",
        {W: 1, S: 1, G: 1, M: 1},
        3,
        2,
        1,
    ),  # cost [R]
    _p(
        4, pgettext("blankenburg", "Manor"), "basic", "residential", {W: 1, S: 2, M: 1}, 3, 3, 1
    ),  # income/cap [D] E2
    # Commercial basics
    _p(
        5, pgettext("blankenburg", "Shop"), "basic", "commercial", {W: 2, S: 1}, 1, 2, 1, True
    ),  # cost [R], income [D]
    _p(
        6, pgettext("blankenburg", "Shop"), "basic", "commercial", {W: 2, S: 1}, 1, 2, 1
    ),  # [D] E2 has two shops
    _p(
        7, pgettext("blankenburg", "Tavern"), "basic", "commercial", {W: 3}, 1, 1, 2, True
    ),  # income [D] E2
    _p(
        8, pgettext("blankenburg", "Inn"), "basic", "commercial", {W: 2, S: 1}, 1, 1, 2
    ),  # income [D] E2
    _p(
        9, pgettext("blankenburg", "Workshop"), "basic", "commercial", {W: 2, IR: 1}, 2, 2, 1
    ),  # [G]
    _p(
        10, pgettext("blankenburg", "Forge"), "basic", "commercial", {W: 1, S: 1, IR: 2}, 3, 2, 1
    ),  # district [D] E4
    # Religious basics
    _p(
        11, pgettext("blankenburg", "Chapel"), "basic", "religious", {W: 1, S: 2}, 1, 1, 1, True
    ),  # [D] E1
    _p(
        12, pgettext("blankenburg", "Chapel"), "basic", "religious", {W: 1, S: 2}, 1, 1, 1
    ),  # [G] second copy
    _p(
        13, pgettext("blankenburg", "Parish"), "basic", "religious", {W: 2, S: 2}, 2, 2, 1, True
    ),  # income [D] E2
    _p(14, pgettext("blankenburg", "Shrine"), "basic", "religious", {S: 1, M: 1}, 2, 1, 1),  # [G]
    _p(
        15, pgettext("blankenburg", "Priory"), "basic", "religious", {W: 1, S: 2, G: 1}, 3, 2, 1
    ),  # [G]
    # Civic basics
    _p(
        16, pgettext("blankenburg", "Tower"), "basic", "civic", {S: 3}, 1, 1, 2, True
    ),  # cost [D] E3, cap [D] E2
    _p(17, pgettext("blankenburg", "Tower"), "basic", "civic", {S: 3}, 1, 1, 2),  # [G] second copy
    _p(18, pgettext("blankenburg", "Guardhouse"), "basic", "civic", {S: 2, IR: 1}, 2, 1, 2),  # [G]
    _p(
        19, pgettext("blankenburg", "Library"), "basic", "civic", {W: 1, S: 1, G: 1}, 2, 2, 1
    ),  # [G]
    _p(
        20,
        pgettext("blankenburg", "Courthouse"),
        "basic",
        "civic",
        {W: 1, S: 2, IR: 1, M: 1},
        3,
        2,
        2,
    ),  # [G]
    # Grand plans
    _p(
        21,
        pgettext("blankenburg", "Cathedral"),
        "grand",
        "religious",
        {W: 1, S: 3, G: 2, M: 2},
        7,
        4,
        2,
    ),  # cost [R]
    _p(
        22, pgettext("blankenburg", "Monastery"), "grand", "religious", {W: 2, S: 3, G: 1}, 5, 3, 2
    ),  # grand [D] E3
    _p(
        23, pgettext("blankenburg", "Castle"), "grand", "civic", {S: 4, IR: 2, M: 1}, 6, 3, 2
    ),  # civic [D] E3
    _p(
        24,
        pgettext("blankenburg", "University"),
        "grand",
        "civic",
        {W: 1, S: 2, G: 2, M: 1},
        6,
        3,
        2,
    ),  # [G]
    _p(
        25, pgettext("blankenburg", "Town Hall"), "grand", "civic", {W: 2, S: 2, IR: 1}, 5, 3, 2
    ),  # civic [D] E4
    _p(
        26,
        pgettext("blankenburg", "Guildhall"),
        "grand",
        "commercial",
        {W: 2, S: 2, IR: 1, G: 1},
        5,
        4,
        1,
    ),  # [G]
    _p(
        27, pgettext("blankenburg", "Market Hall"), "grand", "commercial", {W: 3, S: 2}, 4, 2, 3
    ),  # [G]
    _p(
        28,
        pgettext("blankenburg", "Trading House"),
        "grand",
        "commercial",
        {W: 2, S: 1, G: 1, IR: 1, M: 1},
        5,
        3,
        2,
    ),
    _p(
        29,
        pgettext("blankenburg", "Palace"),
        "grand",
        "residential",
        {W: 1, S: 3, M: 2, G: 1, IR: 1},
        7,
        4,
        1,
    ),  # [G]
    _p(
        30, pgettext("blankenburg", "Estate"), "grand", "residential", {W: 2, S: 2, M: 1}, 5, 3, 2
    ),  # [G]
)
BASIC_IDS = tuple(p.id for p in PLANS if p.kind == "basic")
GRAND_IDS = tuple(p.id for p in PLANS if p.kind == "grand")
STARRED_PLANS = tuple(p.id for p in PLANS if p.starred)
INN = "Inn"
PLAN_NAMES = tuple(sorted({p.name for p in PLANS}))

# --- citizens -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Citizen:
    id: int
    name: str
    prefs: tuple[str, ...]
    starred: bool = False
    gold: bool = False


CITIZENS: tuple[Citizen, ...] = (
    # The five starred citizens [D] (DATA-NOTES §3.3); lists fit E1 and E2, third entries [G].
    Citizen(0, pgettext("blankenburg", "Priest"), ("Chapel", "Parish", "Cathedral"), starred=True),
    Citizen(1, pgettext("blankenburg", "Butcher"), ("Shop", "Tavern", "Market Hall"), starred=True),
    Citizen(2, pgettext("blankenburg", "Baker"), ("Cottage", "Shop", "Workshop"), starred=True),
    Citizen(3, pgettext("blankenburg", "Chandler"), ("Shop", "Chapel", "Parish"), starred=True),
    Citizen(4, pgettext("blankenburg", "Guard"), ("Tower", "Guardhouse", "Tavern"), starred=True),
    # Named in E2 [D]; the entries the example does not pin down are [G].
    Citizen(5, pgettext("blankenburg", "Cooper"), ("Workshop", "Shop", "Tavern")),
    Citizen(6, pgettext("blankenburg", "Blacksmith"), ("Forge", "Tower", "Workshop")),
    Citizen(7, pgettext("blankenburg", "Spice Merchant"), ("Manor", "Shop", "Market Hall")),
    Citizen(8, pgettext("blankenburg", "Scholar"), ("Library", "Manor", "University")),
    Citizen(
        9, pgettext("blankenburg", "Mayor"), ("Town Hall", "Manor", "Castle"), gold=True
    ),  # gold [R]
    # [G]
    Citizen(10, pgettext("blankenburg", "Weaver"), ("Workshop", "Cottage", "Market Hall")),
    Citizen(11, pgettext("blankenburg", "Mason"), ("Tower", "Guardhouse", "Cottage")),
    Citizen(12, pgettext("blankenburg", "Carpenter"), ("Cottage", "Tavern", "Workshop")),
    Citizen(13, pgettext("blankenburg", "Tailor"), ("Shop", "Townhouse", "Trading House")),
    Citizen(14, pgettext("blankenburg", "Nun"), ("Monastery", "Chapel", "Priory")),
    Citizen(15, pgettext("blankenburg", "Monk"), ("Monastery", "Priory", "Shrine")),
    Citizen(16, pgettext("blankenburg", "Knight"), ("Castle", "Guardhouse", "Tavern"), gold=True),
    Citizen(
        17,
        pgettext("blankenburg", "Moneylender"),
        ("Trading House", "Guildhall", "Townhouse"),
        gold=True,
    ),
    Citizen(
        18, pgettext("blankenburg", "Magistrate"), ("Courthouse", "Town Hall", "Estate"), gold=True
    ),
    Citizen(19, pgettext("blankenburg", "Physician"), ("Library", "Townhouse", "University")),
    Citizen(20, pgettext("blankenburg", "Minstrel"), ("Tavern", "Inn", "Market Hall")),
    Citizen(21, pgettext("blankenburg", "Glazier"), ("Cathedral", "Shrine", "Workshop")),
    Citizen(
        22, pgettext("blankenburg", "Alderman"), ("Guildhall", "Town Hall", "Estate"), gold=True
    ),
    Citizen(23, pgettext("blankenburg", "Deacon"), ("Cathedral", "Parish", "Chapel")),
    Citizen(24, pgettext("blankenburg", "Countess"), ("Palace", "Estate", "Manor")),
)
STARRED_CITIZENS = tuple(c.id for c in CITIZENS if c.starred)

# --- effects shared by events and visitors ------------------------------------------------
# An effect is a tuple: (kind, *arguments). Immediate kinds:
#   ("gain", flat, district, per)      every player gains flat + per × own structures in district
#   ("pay", flat, district, per)       every player pays likewise (bankruptcy rule applies)
#   ("pay_rich", threshold, amount)    players holding at least threshold silver pay amount
#   ("pay_damaged", per)               every player pays per × own damaged structures
#   ("damage", which)                  "top": each player's most prestigious structure;
#                                      "low-commercial": each player's least prestigious
#                                      commercial structure; "latest": the town's newest one
#   ("wheel_gold",)                    one gold from the supply to the bidding wheel
#   ("give", resource)                 every player takes one from the supply
#   ("no_visitor",)                    no new visitor this turn: the face-up one stays
#   ("income", district, factor)       structures of district pay factor × income this turn
# Offers (each player may accept once):
#   ("offer_resource", resource|None, price)  buy one (None: of your choice) from the supply
#   ("offer_plan", deck|None, price)          take the top plan (None: basic or grand)
#   ("offer_prestige", price)                 pay for one prestige
#   ("offer_gold", price)                     pay for one gold from the supply
#   ("offer_repair",)                         repair one damaged structure free
OFFER_KINDS = ("offer_resource", "offer_plan", "offer_prestige", "offer_gold", "offer_repair")


@dataclass(frozen=True)
class Event:
    id: int
    name: str
    text: str
    effect: tuple


EVENTS: tuple[Event, ...] = (
    Event(
        0,
        pgettext("blankenburg", "Blizzard"),
        pgettext("blankenburg", "Each player pays 1 silver per residential structure."),
        ("pay", 0, "residential", 1),
    ),  # [R]
    Event(
        1,
        pgettext("blankenburg", "Prosperity Reigns"),
        pgettext("blankenburg", "Each player gains 4 silver, plus 2 per residential structure."),
        ("gain", 4, "residential", 2),
    ),  # [D] E2
    Event(
        2,
        pgettext("blankenburg", "Earthquake"),
        pgettext("blankenburg", "Each player's most prestigious structure is damaged."),
        ("damage", "top"),
    ),  # name [R], effect [G]
    Event(
        3,
        pgettext("blankenburg", "Fire"),
        pgettext("blankenburg", "Each player's least prestigious commercial structure is damaged."),
        ("damage", "low-commercial"),
    ),  # [G]
    Event(
        4,
        pgettext("blankenburg", "Washed-out Roads"),
        pgettext("blankenburg", "No new visitor comes; the face-up visitor stays."),
        ("no_visitor",),
    ),  # [G] the rulebook foresees such an event
    Event(
        5,
        pgettext("blankenburg", "Feast Day"),
        pgettext("blankenburg", "Each player gains 2 silver per religious structure."),
        ("gain", 0, "religious", 2),
    ),  # [G]
    Event(
        6,
        pgettext("blankenburg", "Royal Tax"),
        pgettext("blankenburg", "Each player pays 3 silver."),
        ("pay", 3, None, 0),
    ),  # [G]
    Event(
        7,
        pgettext("blankenburg", "Market Day"),
        pgettext("blankenburg", "Each player may buy one resource of their choice for 1 silver."),
        ("offer_resource", None, 1),
    ),  # [G]
    Event(
        8,
        pgettext("blankenburg", "Royal Treasury"),
        pgettext("blankenburg", "One gold is added to the bidding wheel."),
        ("wheel_gold",),
    ),  # [G]
    Event(
        9,
        pgettext("blankenburg", "Trade Fair"),
        pgettext("blankenburg", "Each player gains 2 silver per commercial structure."),
        ("gain", 0, "commercial", 2),
    ),  # [G]
    Event(
        10,
        pgettext("blankenburg", "Quarantine"),
        pgettext("blankenburg", "Residential structures earn no income this turn."),
        ("income", "residential", 0),
    ),  # [G]
    Event(
        11,
        pgettext("blankenburg", "Good Harvest"),
        pgettext("blankenburg", "Each player takes one wood from the supply."),
        ("give", "wood"),
    ),  # [G]
    Event(
        12,
        pgettext("blankenburg", "Guild Dues"),
        pgettext("blankenburg", "Each player pays 1 silver per commercial structure."),
        ("pay", 0, "commercial", 1),
    ),  # [G]
    Event(
        13,
        pgettext("blankenburg", "Pilgrimage"),
        pgettext("blankenburg", "Religious structures pay double income this turn."),
        ("income", "religious", 2),
    ),  # [G]
    Event(
        14,
        pgettext("blankenburg", "Coronation"),
        pgettext("blankenburg", "Each player may pay 3 silver for one prestige."),
        ("offer_prestige", 3),
    ),  # [G]
)


@dataclass(frozen=True)
class Visitor:
    id: int
    name: str
    prefs: tuple[str, ...]
    text: str
    effect: tuple


VISITORS: tuple[Visitor, ...] = (
    Visitor(
        0,
        pgettext("blankenburg", "Novice Architect"),
        ("University", "Tudor"),
        pgettext("blankenburg", "Each player may take one plan, basic or grand, for free."),
        ("offer_plan", None, 0),
    ),  # [D] E1
    Visitor(
        1,
        pgettext("blankenburg", "Lumberjack"),
        ("Cottage", "Tavern"),
        pgettext("blankenburg", "Each player may buy one wood for 1 silver."),
        ("offer_resource", "wood", 1),
    ),  # [D]
    Visitor(
        2,
        pgettext("blankenburg", "Stonecutter"),
        ("Tower", "Chapel"),
        pgettext("blankenburg", "Each player may buy one stone for 1 silver."),
        ("offer_resource", "stone", 1),
    ),
    Visitor(
        3,
        pgettext("blankenburg", "Glassblower"),
        ("Workshop", "Cathedral"),
        pgettext("blankenburg", "Each player may buy one glass for 2 silver."),
        ("offer_resource", "glass", 2),
    ),
    Visitor(
        4,
        pgettext("blankenburg", "Sculptor"),
        ("Shrine", "Palace"),
        pgettext("blankenburg", "Each player may buy one marble for 2 silver."),
        ("offer_resource", "marble", 2),
    ),
    Visitor(
        5,
        pgettext("blankenburg", "Ironmonger"),
        ("Forge", "Guardhouse"),
        pgettext("blankenburg", "Each player may buy one iron for 2 silver."),
        ("offer_resource", "iron", 2),
    ),
    Visitor(
        6,
        pgettext("blankenburg", "Tax Collector"),
        ("Town Hall", "Courthouse"),
        pgettext("blankenburg", "Each player pays 2 silver."),
        ("pay", 2, None, 0),
    ),
    Visitor(
        7,
        pgettext("blankenburg", "Bishop"),
        ("Cathedral", "Monastery"),
        pgettext("blankenburg", "Each player gains 1 silver per religious structure."),
        ("gain", 0, "religious", 1),
    ),
    Visitor(
        8,
        pgettext("blankenburg", "Duchess"),
        ("Palace", "Manor"),
        pgettext("blankenburg", "Each player may pay 4 silver for one prestige."),
        ("offer_prestige", 4),
    ),
    Visitor(
        9,
        pgettext("blankenburg", "Goldsmith"),
        ("Guildhall", "Trading House"),
        pgettext("blankenburg", "Each player may pay 5 silver for one gold."),
        ("offer_gold", 5),
    ),
    Visitor(
        10,
        pgettext("blankenburg", "Pickpocket"),
        ("Tavern", "Inn"),
        pgettext("blankenburg", "Each player holding 10 silver or more loses 2 silver."),
        ("pay_rich", 10, 2),
    ),
    Visitor(
        11,
        pgettext("blankenburg", "Royal Envoy"),
        ("Castle", "Town Hall"),
        pgettext("blankenburg", "One gold is added to the bidding wheel."),
        ("wheel_gold",),
    ),
    Visitor(
        12,
        pgettext("blankenburg", "Master Mason"),
        ("University", "Tower"),
        pgettext("blankenburg", "Each player may repair one damaged structure for free."),
        ("offer_repair",),
    ),
    Visitor(
        13,
        pgettext("blankenburg", "Pilgrim"),
        ("Chapel", "Parish"),
        pgettext("blankenburg", "Each player may pay 1 silver for the top basic plan."),
        ("offer_plan", "basic", 1),
    ),
    Visitor(
        14,
        pgettext("blankenburg", "Bard"),
        ("Tavern", "Market Hall"),
        pgettext("blankenburg", "Each player gains 1 silver per commercial structure."),
        ("gain", 0, "commercial", 1),
    ),
    Visitor(
        15,
        pgettext("blankenburg", "Saboteur"),
        ("Inn", "Guardhouse"),
        pgettext("blankenburg", "The most recently built structure in town is damaged."),
        ("damage", "latest"),
    ),
    Visitor(
        16,
        pgettext("blankenburg", "Royal Inspector"),
        ("Courthouse", "Library"),
        pgettext("blankenburg", "Each player pays 1 silver per damaged structure they own."),
        ("pay_damaged", 1),
    ),
)

# --- characters ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Character:
    key: str
    name: str
    text: str


CHARACTERS: tuple[Character, ...] = (
    Character(
        "noble",
        pgettext("blankenburg", "Noble"),
        pgettext("blankenburg", "Starts with 4 more silver and one gold."),
    ),  # [R]
    # [R] "starts with an extra resource"; the choice of which is [G].
    Character(
        "merchant",
        pgettext("blankenburg", "Merchant"),
        pgettext("blankenburg", "Starts with one extra resource of their choice."),
    ),
    # Named [R]; the ability [G].
    Character(
        "city_planner",
        pgettext("blankenburg", "City Planner"),
        pgettext(
            "blankenburg",
            "May build any structure in a dual-district space, without waiting for the "
            "regular spaces to fill, and gains 1 extra prestige for each such build "
            "(alternate board).",
        ),
    ),
    # The rest [G].
    Character(
        "mason",
        pgettext("blankenburg", "Mason"),
        pgettext(
            "blankenburg", "When building, may use one wood as a stone or one stone as a wood."
        ),
    ),
    Character(
        "banker",
        pgettext("blankenburg", "Banker"),
        pgettext(
            "blankenburg",
            "Starts with 3 more silver; a zero bid gains 1 more silver; silver scores up to 4 "
            "prestige, not 3.",
        ),
    ),
    Character(
        "architect",
        pgettext("blankenburg", "Architect"),
        pgettext(
            "blankenburg", "Plans cost 1 silver less in the marketplace; may hold four plans."
        ),
    ),
    Character(
        "innkeeper",
        pgettext("blankenburg", "Innkeeper"),
        pgettext(
            "blankenburg", "Gains 1 silver for every three guests who stay at the board's inn."
        ),
    ),
    Character(
        "abbess",
        pgettext("blankenburg", "Abbess"),
        pgettext(
            "blankenburg",
            "Own religious structures pay 1 more silver per guest and count double for the "
            "religious majority.",
        ),
    ),
    Character(
        "guildmaster",
        pgettext("blankenburg", "Guildmaster"),
        pgettext(
            "blankenburg",
            "Pays 2 silver, not 3, in the second marketplace round; sells resources for 2 each.",
        ),
    ),
    Character(
        "foreman",
        pgettext("blankenburg", "Foreman"),
        pgettext(
            "blankenburg",
            "Gains 1 extra prestige for each grand structure built; repairs cost nothing; "
            "demolishing a grand structure costs no prestige.",
        ),
    ),
)
CHARACTER_BY_KEY = {c.key: c for c in CHARACTERS}

# --- the board ----------------------------------------------------------------------------

# Regular spaces per district [G]; the alternate side adds four dual spaces [R], two of which
# (commercial/civic, religious/civic) are named in E4; the left colour comes first [R].
FRONT_SPACES = {"residential": 6, "commercial": 6, "civic": 4, "religious": 4}
DUAL_SPACES = (
    ("commercial", "civic"),
    ("religious", "civic"),
    ("residential", "commercial"),
    ("religious", "residential"),
)


def board_spaces(board: str) -> tuple[tuple[str, ...], ...]:
    """Each space as the tuple of districts it takes: one, or (left, right) for a dual."""
    spaces = [(d,) for d in DISTRICTS for _ in range(FRONT_SPACES[d])]
    if board == "back":
        spaces.extend(DUAL_SPACES)
    return tuple(spaces)


SPACES = {"front": board_spaces("front"), "back": board_spaces("back")}
