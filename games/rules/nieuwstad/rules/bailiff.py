"""The Bailiff: buying and drawing action cards, and playing wish cards (Fire, Crime, the
Midsummer Night Festival, ...).
"""

from __future__ import annotations

from games.engine import IllegalMove
from games.engine.words import Text, _, joined

from ..data import (
    BOARDS,
    CARDS,
    DISTRICT_NAMES,
    FIRE_BURGHERS,
    GOOD_NAMES,
    LOOSE_BOATS,
    PRODUCTS,
)
from .events import start_event
from .helpers import (
    built,
    change_burghers,
    clockwise,
    district_residents,
    gain_points,
    name,
    next_actor,
    prison_districts,
    ruleset,
    say,
    say_to,
    unplayed_copies,
)


def buy_cards(state, seat: int, count: int) -> None:
    player = state["players"][seat]
    if count not in (0, 1, 2):
        raise IllegalMove(_("Buy 0, 1 or 2 cards."))
    price = (0, 1, 3)[count]
    if player["guilders"] < price:
        raise IllegalMove(
            _(
                "{count} cards cost {price} guilders; you have {guilders}.",
                count=count,
                price=price,
                guilders=player["guilders"],
            )
        )
    if count > len(state["deck"]):
        raise IllegalMove(_("Only {count} card(s) are left in the deck.", count=len(state["deck"])))
    player["guilders"] -= price
    if count == 0:
        if state["news"] is not None:
            say(state, _("{who} bought no cards.", who=name(state, seat)))
        next_actor(state)
        return
    if state["news"] is not None:
        say(
            state,
            _(
                "{who} bought {count} card(s) for {price} guilder(s).",
                who=name(state, seat),
                count=count,
                price=price,
            ),
        )
    state["act"]["turn"]["to_draw"] = count
    continue_drawing(state)


def continue_drawing(state) -> None:
    """Draw the bought cards; events are carried out at once and replaced [rulebook]."""
    act = state["act"]
    seat = act["order"][act["idx"]]
    player = state["players"][seat]
    while act["turn"].get("to_draw", 0) > 0 and state["deck"]:
        card = state["deck"].pop()
        if CARDS[card].kind == "event":
            if state["news"] is not None:
                say(
                    state,
                    _("{who} drew the event {card}.", who=name(state, seat), card=CARDS[card].name),
                )
            state["discard"].append(card)
            start_event(state, card, seat)
            if state["pending"] is not None:
                state["pending"]["resume"] = "draw"
                return
            continue
        player["hand"].append(card)
        act["turn"]["to_draw"] -= 1
        if state["news"] is not None:
            say_to(
                state,
                _("{who} drew a card.", who=name(state, seat)),
                seat,
                _("You drew {card}.", card=CARDS[card].name),
            )
    next_actor(state)


def playable(state, seat: int) -> list[dict]:
    """Wish cards `seat` may play in the Bailiff phase now."""
    player = state["players"][seat]
    moves: list[dict] = []
    for card in dict.fromkeys(player["hand"]):
        if card == "boatbuilding":
            if player["light"] > 0 and len(state["loose_boats"]) < LOOSE_BOATS:
                moves.append({"type": "play", "card": card})
        elif card == "fire":
            if not built(state, "watchtower"):
                for _bid, b in sorted(state["buildings"].items(), key=lambda i: i[1]["cells"][0]):
                    if b["kind"] == "house":
                        moves.append({"type": "play", "card": card, "target": b["cells"][0]})
        elif card == "crime":
            shielded = prison_districts(state)
            for district in BOARDS[state["board"]].districts:
                if district not in shielded:
                    for take in ("guilders", "wood"):
                        moves.append(
                            {"type": "play", "card": card, "district": district, "take": take}
                        )
        elif card == "midsummer":
            for district in BOARDS[state["board"]].districts:
                moves.append({"type": "play", "card": card, "district": district})
        elif card == "knowledge":
            if not player["knowledge"]:
                moves.append({"type": "play", "card": card})
        elif card in ("rottenfish", "locusts", "wolves", "gatherer"):
            moves.append({"type": "play", "card": card})
    return moves


def play_card(state, seat: int, move: dict, checked: bool = True) -> None:
    card = move.get("card")
    player = state["players"][seat]
    if card not in CARDS or CARDS[card].kind != "wish":
        raise IllegalMove(_("There is no wish card called {card}.", card=str(card)))
    if card not in player["hand"]:
        raise IllegalMove(_("You do not hold {card}.", card=CARDS[card].name))
    timing = CARDS[card].timing
    if timing == "end":
        raise IllegalMove(
            _("{card} counts at the end of the game; keep it in hand.", card=CARDS[card].name)
        )
    if timing == "builder":
        raise IllegalMove(_("House Building may only be played in the Master Builder phase."))
    if timing == "income":
        raise IllegalMove(_("Income Tax may only be played when income is paid."))
    if timing == "reaction":
        raise IllegalMove(_("Citizens' Watch is played in reaction to Crime."))
    if checked and move not in playable(state, seat):
        raise IllegalMove(card_refusal(state, seat, move))
    player["hand"].remove(card)
    state["discard"].append(card)
    state["act"]["turn"]["played"] = state["act"]["turn"].get("played", 0) + 1
    label = _("{who} played {card}", who=name(state, seat), card=CARDS[card].name)
    if card == "boatbuilding":
        state["loose_boats"].append(seat)
        player["light"] -= 1
        if state["news"] is not None:
            say(state, _("{played}: a Boat was launched on the lake.", played=label))
    elif card == "fire":
        burn_house(state, move["target"], label)
    elif card == "crime":
        start_crime(state, seat, move["district"], move["take"], label)
    elif card == "midsummer":
        start_festival(state, seat, move["district"], label)
    elif card == "knowledge":
        player["knowledge"] = True
        if state["news"] is not None:
            say(state, _("{played}: from now on their privileges count double.", played=label))
    elif card == "rottenfish":
        for p in state["players"]:
            p["fish"] = 0
        if state["news"] is not None:
            say(state, _("{played}: all fresh fish spoiled.", played=label))
    elif card == "locusts":
        wipe_fields(state, "grainfield")
        if state["news"] is not None:
            say(state, _("{played}: the grain on every Grain field was eaten.", played=label))
    elif card == "wolves":
        wipe_fields(state, "pasture")
        if state["news"] is not None:
            say(state, _("{played}: the livestock on every Pasture was eaten.", played=label))
    elif card == "gatherer":
        player["wood"] += 2
        if state["news"] is not None:
            say(state, _("{played}: +2 wood.", played=label))
    if state["pending"] is None:
        after_play(state, seat)
    else:
        state["pending"]["resume"] = "play"


def after_play(state, seat: int) -> None:
    """After a card, the player's play turn ends at his second card. Version 1 also ended it
    when no card in his hand could be played, and asked nobody whose cards were all end-game
    cards: the others saw at once that he held no playable wish card [issue 15]. Version 2
    asks every card holder (hand sizes are public) and offers 'done' and 'pass', so being
    asked, the deadline and the answer look the same whatever the hand holds."""
    played = state["act"]["turn"].get("played", 0)
    if ruleset(state) >= 2:
        if played >= 2 or not state["players"][seat]["hand"]:
            next_actor(state)
    elif played >= 2 or not playable(state, seat):
        next_actor(state)


def card_refusal(state, seat: int, move: dict) -> Text:
    card = move.get("card")
    if card == "fire" and built(state, "watchtower"):
        return _("The Watchtower stands: Fire cannot be played.")
    if card == "fire":
        return _("Fire needs a House (not a Manor house): name the space it stands on.")
    if card == "crime":
        if move.get("district") in prison_districts(state):
            return _("The Prison stands in that district: Crime cannot strike there.")
        return _("Crime needs a district (NW, NE, SE, SW) and 'taking guilders' or 'taking wood'.")
    if card == "midsummer":
        return _("Midsummer Night Festival needs a district: NW, NE, SE or SW.")
    if card == "knowledge":
        return _("You already have Knowledge is Power face up; the second copy cannot be played.")
    if card == "boatbuilding":
        return _("Boatbuilding needs a light seal and a loose Boat tile.")
    return _("That card cannot be played now.")


def wipe_fields(state, kind: str) -> None:
    for b in state["buildings"].values():
        if b["kind"] == kind:
            b["crop"] = 0


def remove_building(state, bid: str) -> dict:
    b = state["buildings"].pop(bid)
    for cell in b["cells"]:
        del state["cells"][cell]
    state["supply"][b["kind"]] += 1
    if b["owner"] is not None:
        state["players"][b["owner"]]["light"] += 1
    return b


def burn_house(state, cell: str, label: Text) -> None:
    bid = state["cells"][cell]
    b = remove_building(state, bid)
    moved = change_burghers(state, -FIRE_BURGHERS)
    if state["news"] is not None:
        say(
            state,
            _(
                "{played}: {owner}'s House at {cell} burned; Burghers {moved}.",
                played=label,
                owner=name(state, b["owner"]),
                cell=cell,
                moved=f"{moved:+d}",
            ),
        )


def start_crime(state, seat: int, district: str, take: str, label: Text) -> None:
    if state["news"] is not None:
        say(
            state,
            _(
                "{played} in the {district} district.",
                played=label,
                district=DISTRICT_NAMES[district],
            ),
        )
    if unplayed_copies(state, "watch") > 0:
        # Everyone else holding any card is asked, so no answer reveals the holder.
        asked = [s for s in clockwise(state, seat)[1:] if state["players"][s]["hand"]]
        if asked:
            state["pending"] = {
                "kind": "watch",
                "by": seat,
                "district": district,
                "take": take,
                "waiting": asked,
                "answers": {},
            }
            return
    commit_crime(state, seat, district, take)


def resolve_watch(state) -> None:
    pending = state["pending"]
    state["pending"] = None
    thief = pending["by"]
    for s in clockwise(state, thief)[1:]:
        if pending["answers"].get(str(s)) == "watch" and "watch" in state["players"][s]["hand"]:
            state["players"][s]["hand"].remove("watch")
            state["discard"].append("watch")
            if state["news"] is not None:
                say(
                    state,
                    _(
                        "{who} played Citizens' Watch: the {district} district was protected.",
                        who=name(state, s),
                        district=DISTRICT_NAMES[pending["district"]],
                    ),
                )
            return
    commit_crime(state, thief, pending["district"], pending["take"])


def commit_crime(state, thief: int, district: str, take: str) -> None:
    robbed = []
    for s in district_residents(state, district):
        if s == thief:
            continue
        victim = state["players"][s]
        order = ("guilders", "wood") if take == "guilders" else ("wood", "guilders")
        for good in order:
            if victim[good] > 0:
                victim[good] -= 1
                state["players"][thief][good] += 1
                robbed.append((good, s))
                break
    if state["news"] is not None:
        taken = [
            _("1 guilder from {who}", who=name(state, s))
            if good == "guilders"
            else _("1 wood from {who}", who=name(state, s))
            for good, s in robbed
        ]
        if taken:
            say(state, _("The thieves took {taken}.", taken=joined(taken, ", ")))
        else:
            say(state, _("The thieves took nothing."))


def start_festival(state, seat: int, district: str, label: Text) -> None:
    if state["news"] is not None:
        say(
            state,
            _(
                "{played} in the {district} district.",
                played=label,
                district=DISTRICT_NAMES[district],
            ),
        )
    asked = [s for s in clockwise(state, seat) if any(state["players"][s][p] for p in PRODUCTS)]
    state["pending"] = {
        "kind": "festival",
        "by": seat,
        "district": district,
        "waiting": asked,
        "answers": {},
    }
    if not asked:
        resolve_festival(state)


def resolve_festival(state) -> None:
    pending = state["pending"]
    state["pending"] = None
    residents = district_residents(state, pending["district"])
    parts = []
    for s in range(state["n"]):
        answer = pending["answers"].get(str(s), "skip")
        player = state["players"][s]
        if answer != "skip":
            player[answer] -= 1
            gain_points(player, 2)
            parts.append((s, answer))
        elif s in residents:
            gain_points(player, -1)
            parts.append((s, None))
    if state["news"] is not None:
        said = [
            _("{who} joined with {food} (+2)", who=name(state, s), food=GOOD_NAMES[food])
            if food
            else _("{who} stayed away (-1)", who=name(state, s))
            for s, food in parts
        ]
        if said:
            say(state, _("The festival: {parts}.", parts=joined(said, ", ")))
        else:
            say(state, _("The festival: nobody came."))
