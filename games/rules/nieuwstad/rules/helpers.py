"""Small helpers every phase uses: the rules version, narration, seats in turn, goods, the
Burghers, what the rules count on the board, and the actor of the character phase under way.
"""

from __future__ import annotations

from functools import cache

from games.engine.words import Text, _

from .. import geometry as B
from ..data import BOARDS, BURGHERS_MIN, deck_for


def ruleset(state) -> int:
    """The rules version the match was created with (docs/rules/nieuwstad.md, section 7).

    1: the first release. 2: the rulebook's rulings (end check before income, the Farmer in
    the rulebook's order, Birth Waves count Houses in the city, free negotiation, every card
    holder asked in the Bailiff's play step)."""
    return state.get("ruleset", 1)


def name(state, seat: int) -> str:
    return state["names"][seat]


# A move's narration goes to state["news"], which `play` starts afresh. A replayed move
# whose news nobody reads (`play` not narrating) has None there: its narration is not
# written, and the calls below whose text takes work to build are skipped by their callers
# (`if state["news"] is not None:`).


def guilders_text(count: int) -> Text:
    """'1 guilder', '3 guilders'."""
    return _("1 guilder") if count == 1 else _("{count} guilders", count=count)


def either(parts) -> Text:
    """'A or B or C', each part said in the reader's language, and the "or" too."""
    parts = list(parts)
    said = parts[0]
    for part in parts[1:]:
        said = _("{first} or {second}", first=said, second=part)
    return said


def say(state, text: str) -> None:
    """Record public narration."""
    news = state["news"]
    if news is not None:
        news.append({"all": text})


def say_to(state, text: str, seat: int, own: str) -> None:
    """Record narration: public `text`; `own` replaces it for `seat` alone."""
    news = state["news"]
    if news is not None:
        news.append({"all": text, "seat": seat, "own": own})


# The seats clockwise from each seat, per player count: most moves ask for them.
# CLOCKWISE[n][first]: indexed, not keyed by a pair, as no pair need be built to look up.
CLOCKWISE = [[tuple((first + i) % n for i in range(n)) for first in range(n)] for n in range(5)]


def clockwise(state, first: int) -> list[int]:
    return list(CLOCKWISE[state["n"]][first])


def wood_value(player: dict) -> int:
    return player["wood"] + 2 * player["plank"]


def pay_wood(player: dict, amount: int) -> None:
    """Pay wood, planks counting 2 [rulebook Sawmill]: planks first without overpaying."""
    planks = min(player["plank"], amount // 2)
    player["plank"] -= planks
    amount -= 2 * planks
    loose = min(player["wood"], amount)
    player["wood"] -= loose
    amount -= loose
    if amount > 0:  # one more plank, its spare half is lost
        player["plank"] -= 1


def change_burghers(state, delta: int) -> int:
    """Move the magistrate; never below 5 [rulebook Burghers track]. Returns the change."""
    before = state["burghers"]
    state["burghers"] = max(BURGHERS_MIN, before + delta)
    return state["burghers"] - before


def gain_points(player: dict, points: int) -> None:
    player["points"] = max(0, player["points"] + points)


def built(state, kind: str) -> bool:
    for b in state["buildings"].values():
        if b["kind"] == kind:
            return True
    return False


def house_counts(state) -> list[int]:
    """Per seat: own Houses + 2 x own Manor houses (income and rent)."""
    counts = [0] * state["n"]
    for b in state["buildings"].values():  # every round: the kind tested once
        kind = b["kind"]
        if kind == "house":
            if b["owner"] is not None:
                counts[b["owner"]] += 1
        elif kind == "manor" and b["owner"] is not None:
            counts[b["owner"]] += 2
    return counts


def owned(state, seat: int, kind: str) -> list[dict]:
    return [b for b in state["buildings"].values() if b["owner"] == seat and b["kind"] == kind]


def boats_of(state, seat: int) -> int:
    return state["boats"].count(seat) + state["loose_boats"].count(seat)


def privilege_count(state, seat: int) -> int:
    """1, or 2 with Knowledge is Power face up [card]."""
    return 2 if state["players"][seat]["knowledge"] else 1


def hand_card_counts(player: dict) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in player["hand"]:
        counts[card] = counts.get(card, 0) + 1
    return counts


@cache
def _deck_count(players: int, card: str) -> int:
    return deck_for(players).count(card)


def unplayed_copies(state, card: str) -> int:
    """Copies of `card` that may still sit in someone's hand, as everyone can count them."""
    return _deck_count(state["n"], card) - state["discard"].count(card)


def district_residents(state, district: str) -> list[int]:
    """Players with a seal on a building (even partly) in the district."""
    cells = BOARDS[state["board"]].districts[district]
    seats = set()
    for cell in cells:
        bid = state["cells"].get(cell)
        if bid is not None and state["buildings"][bid]["owner"] is not None:
            seats.add(state["buildings"][bid]["owner"])
    return sorted(seats)


def prison_districts(state) -> set[str]:
    result: set[str] = set()
    for b in state["buildings"].values():
        if b["kind"] == "prison":
            result |= B.district_of(state, b["cells"])
    return result


def houses_on_board(state) -> int:
    """Houses and Manor houses the Birth Waves count. Version 2 counts those "in the city"
    [rulebook Events], read as the Building rules read it: the inner area, not the outer
    area (the same reading as the Black Death and the Vikings)."""
    houses = [b for b in state["buildings"].values() if b["kind"] in ("house", "manor")]
    if ruleset(state) < 2:
        return len(houses)
    area = B.geometry(state["board"]).area
    return sum(1 for b in houses if area[b["cells"][0]] == "city")


def privileged(state, seat: int) -> bool:
    act = state["act"]
    return act["privilege"] and seat == act["chooser"]


def next_actor(state) -> None:
    act = state["act"]
    act["idx"] += 1
    act["turn"] = {}
