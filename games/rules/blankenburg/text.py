"""Builders of Blankenburg by mail: the position as text, commands in and out, narration."""

from __future__ import annotations

import re
from typing import Any

from games.engine import ParseError
from games.engine.words import JOINED, Text, Wrapped, _, joined, pgettext

from . import rules
from .data import (
    BLANK,
    DISTRICT_NAMES,
    KIND_NAMES,
    PLAN_NAMES,
    PLANS,
    RESOURCE_NAMES,
    RESOURCES,
    SPACES,
)
from .moves import distinct_structures, legal_moves, structure_label
from .rules import State
from .view import CODES, PHASE_TITLE

WIDTH = 78

HELP = _(
    """\
Commands (one per line; several lines in one email are played in order):
  extra glass                 Merchant: your extra starting resource
  choose wood stone glass     first player: the resources for the bidding wheel
  bid 3                       your sealed bid in silver (0 gains 3 silver)
  take stone                  take a category from the bidding wheel
  build chapel                build from your hand (or the communal plan)
  build communal cottage      build the communal plan
  build town hall in commercial/civic   choose a dual space (alternate board)
  demolish tower              demolish one of your structures before building
  repair monastery            repair a damaged structure (2 or 4 silver)
  done                        end your building turn
  accept / decline            answer an event's or visitor's offer
  buy wood / take basic plan / repair tower   accept an offer that needs a choice
  buy basic plan              marketplace: draw two basic plans, keep one
  buy grand plan discarding tower, shop   discard plans for extra draws
  keep chapel                 keep one of the plans you drew
  buy stone / sell 2 wood     marketplace resources (one purchase per round)
  pass                        buy nothing in this marketplace step"""
)


def norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9/]+", " ", text.lower()).split())


# --- rendering ----------------------------------------------------------------------------


def render_text(v: dict[str, Any]) -> Text:
    lines: list[str] = []
    phase = PHASE_TITLE.get(v["phase"], v["phase"])
    lines.append(_("BUILDERS OF BLANKENBURG - turn {turn}, {phase}", turn=v["turn"], phase=phase))
    if v["board"] == "back":
        board = _("Key to the town (first player): {who}.  Board: alternate (back) side.")
    else:
        board = _("Key to the town (first player): {who}.  Board: front side.")
    lines.append(Text(board.template, {"who": v["key_holder"]}))
    if v["to_act"]:
        lines.append(_("Waiting for: {names}", names=", ".join(v["to_act"])))
    lines.append("")
    lines.append(
        layout(
            "{p0:<11}{p1:<13}{p2:>6}{p3:>7}{p4:>5}{p5:>6}{p6:>6}{p7:>5}{p8:>5}{p9:>5}{p10:>6}",
            pgettext("blankenburg", "PLAYERS"),
            pgettext("blankenburg", "character"),
            pgettext("blankenburg", "prest"),
            pgettext("blankenburg", "silver"),
            RESOURCE_NAMES["wood"],
            RESOURCE_NAMES["stone"],
            RESOURCE_NAMES["glass"],
            pgettext("blankenburg", "marb"),
            RESOURCE_NAMES["iron"],
            RESOURCE_NAMES["gold"],
            pgettext("blankenburg", "plans"),
        )
    )
    for p in v["players"]:
        r = p["res"]
        lines.append(
            layout(
                "{p0}{p1:<10.10}{p2:<13.12}{p3:>6}{p4:>7}{p5:>5}{p6:>6}{p7:>6}{p8:>5}{p9:>5}"
                "{p10:>5}{p11:>6}{p12}",
                "*" if p["first"] else " ",
                p["name"],
                p["character"],
                p["prestige"],
                "?" if p["silver"] is None else str(p["silver"]),
                r["wood"],
                r["stone"],
                r["glass"],
                r["marble"],
                r["iron"],
                p["gold"],
                p["hand_size"],
                " B" if p["has_bid"] else "",
            )
        )
    lines.append(_("  (* holds the key; B: has bid; others' silver is behind their screens)"))
    you_seat = v["you"]["seat"] if v["you"] else None
    others = [p for p in v["players"] if p["seat"] != you_seat]
    if others:
        lines.append(
            pgettext("blankenburg", "CHARACTERS OF THE OTHERS:")
            if you_seat is not None
            else pgettext("blankenburg", "CHARACTERS:")
        )
    for p in others:
        lines.append(
            wrapped(
                _(
                    "- {who}, {character}: {ability}",
                    who=p["name"],
                    character=p["character"],
                    ability=p["character_text"],
                ),
                "    ",
            )
        )
    lines.append("")
    lines.append(
        _(
            "TOWN ({count} free spaces)  code: name [owner] prestige/income/capacity",
            count=v["free_spaces"],
        )
    )
    entries = []
    for t in v["town"]:
        if t["empty"]:
            if len(t["districts"]) == 2:
                entry = layout("{p0:<4}. ({p1})", t["code"], district_label(t["districts"]))
            else:
                entry = layout("{p0:<4}.", t["code"])
        else:
            entry = layout(
                "{p0:<4}{p1}{p2} [{p3:.9}] {p4}/{p5}/{p6}",
                t["code"],
                "*" if t["damaged"] else "",
                t["name"],
                t["owner"],
                t["prestige"],
                t["income"],
                t["capacity"],
            )
        entries.append(entry)
    for k in range(0, len(entries), 2):
        pair = entries[k : k + 2]
        english = "  " + "".join(f"{e[:37]:<38}" for e in pair).rstrip()
        said = layout("  " + "".join(f"{{p{i}:<38.37}}" for i in range(len(pair))), *pair)
        lines.append(Wrapped(english, said, WIDTH, "    "))
    if v["board"] == "back":
        lines.append(
            _("  Y residential (+3) G commercial (+3) R civic (+2) B religious (+2) D dual")
        )
    else:
        lines.append(_("  Y residential (+3) G commercial (+3) R civic (+2) B religious (+2)"))
    lines.append(_("  *: damaged (takes no guests, not counted for majorities, -1 at the end)"))
    lines.append("")
    lines.append(
        _(
            "CITIZENS (lodging order: visitor, then XII down to I; {count} track spaces left)",
            count=v["track_free"],
        )
    )
    for c in v["track"]:
        prefs = joined(c["prefs"], " > ")
        citizen = layout(
            "  {p0:>4}{p1}{p2:<15} {p3}", c["no"], "*" if c["starred"] else " ", c["name"], prefs
        )
        lines.append(_("{citizen} (gold)", citizen=citizen) if c["gold"] else citizen)
    if v["event"]:
        lines.append(
            _("EVENT: {event} - {text}", event=v["event"]["name"], text=v["event"]["text"])
        )
    if v["visitor"]:
        vis = v["visitor"]
        lines.append(
            _(
                "VISITOR: {visitor} ({wishes}) - {text}",
                visitor=vis["name"],
                wishes=joined(vis["prefs"], " > "),
                text=vis["text"],
            )
        )
    if v["lodging"]:
        stays = joined(
            (
                layout("{p0} {p1} {p2}", x["person"], x["where"], x["silver"])
                if x["silver"]
                else layout("{p0} {p1}", x["person"], x["where"])
                for x in v["lodging"]
            ),
            ", ",
        )
        lines.append(wrapped(_("LAST LODGING: {stays}", stays=stays)))
    lines.append("")
    communal = [
        _(
            "{plan} ({kind} {district}, {cost}, P{prestige} I{income} C{capacity})",
            **plan_facts(c),
        )
        for c in v["communal"]
        if c
    ]
    plans = joined(communal, "; ") if communal else pgettext("blankenburg", "none")
    lines.append(wrapped(_("COMMUNAL PLANS: {plans}", plans=plans)))
    lines.append(
        layout(
            "              {p0:>4} {p1:>5} {p2:>5} {p3:>6} {p4:>4} {p5:>4}",
            *(RESOURCE_NAMES[r] for r in (*RESOURCES, "gold")),
        )
    )
    m, w = v["market"], v["wheel"]
    lines.append(
        layout(
            "{p0:<14}{p1:>4} {p2:>5} {p3:>5} {p4:>6} {p5:>4}    -",
            pgettext("blankenburg", "MARKETPLACE"),
            *(m[r] for r in RESOURCES),
        )
    )
    lines.append(
        layout(
            "{p0:<14}{p1:>4} {p2:>5} {p3:>5} {p4:>6} {p5:>4} {p6:>4}",
            pgettext("blankenburg", "BIDDING WHEEL"),
            *(w[r] for r in (*RESOURCES, "gold")),
        )
    )
    if v["dice"]:
        dice = joined((RESOURCE_NAMES[d] if d else BLANK for d in v["dice"]), ", ")
        lines.append(_("Dice rolled: {dice}", dice=dice))
    d = v["decks"]
    lines.append(
        _(
            "Decks: basic {basic}, grand {grand}, citizens {citizens}, visitors {visitors}, "
            "events {events}",
            **d,
        )
    )
    if v.get("receipts"):
        lines.append("")
        lines.append(_("SEALED BIDS PLACED (receipts; check them when the bids are revealed)"))
        for row in v["receipts"]:
            lines.append(f"  {row['name'][:12]:<12} {row['receipt']}")
    if v["reveal"]:
        lines.append("")
        lines.append(
            _(
                "BIDS OF TURN {turn} (check your receipt: sha256 of 'salt:turn:bid')",
                turn=v["reveal"]["turn"],
            )
        )
        for row in v["reveal"]["rows"]:
            lines.append(
                layout(
                    "  {p0:<12.12} {p1:>3}  {p2}",
                    row["name"],
                    row["bid"],
                    _("salt {salt}", salt=row["salt"]),
                )
            )
            lines.append(_("    receipt {receipt}", receipt=row["receipt"]))
    if v["offer"]:
        lines.append("")
        lines.append(_("OFFER ({card}): {text}", card=v["offer"]["card"], text=v["offer"]["text"]))
        lines.append(_("  still to answer: {names}", names=", ".join(v["offer"]["waiting"])))
    you = v["you"]
    if you:
        lines.append("")
        me = v["players"][you["seat"]]
        lines.append(
            wrapped(
                _(
                    "YOU: {who}, {character} - {ability}",
                    who=me["name"],
                    character=me["character"],
                    ability=me["character_text"],
                )
            )
        )
        lines.append(_("  Silver: {silver}", silver=you["silver"]))
        if you["hand_line"]:
            lines.append(layout("  {p0}", you["hand_line"]))
            lines.extend(plan_line(c) for c in you["hand"])
        else:
            lines.append(_("  No plans in hand (you may hold {limit}).", limit=you["hand_limit"]))
        if you["drawn_line"]:
            lines.append(layout("  {p0}", you["drawn_line"]))
            lines.extend(plan_line(c) for c in you["drawn"])
        if you["bid_line"]:
            lines.append(layout("  {p0}", you["bid_line"]))
            lines.append(_("  Receipt: {receipt}", receipt=you["receipt"]))
        if you["salt"]:
            lines.append(_("  Your salt this turn: {salt}", salt=you["salt"]))
    if v["news"]:
        lines.append("")
        lines.append(pgettext("blankenburg", "JUST HAPPENED:"))
        for item in v["news"]:
            lines.append(wrapped(layout("  - {p0}", item), indent="    "))
    if v["result"]:
        lines.append("")
        lines.append(pgettext("blankenburg", "FINAL SCORING"))
        for note in v["result"]["notes"]:
            lines.append(wrapped(layout("  {p0}", note), indent="    "))
    lines.append("")
    lines.append(_("Resources: W wood, S stone, G glass, M marble, I iron. P prestige, I income,"))
    lines.append(_("C capacity. Send 'help' for the commands."))
    return joined([fitted(line) for line in lines], "\n")


def plan_facts(c: dict[str, Any]) -> dict[str, Any]:
    """A plan's name and facts, as the board's plan lines name them."""
    return {
        "plan": c["name"],
        "kind": KIND_NAMES[c["kind"]],
        "district": DISTRICT_NAMES[c["district"]],
        "cost": c["cost_text"],
        "prestige": c["prestige"],
        "income": c["income"],
        "capacity": c["capacity"],
    }


def plan_line(c: dict[str, Any]) -> Text:
    """A plan in the player's hand or drawn, on its own line."""
    return _(
        "    {plan}: {kind} {district}, cost {cost}, P{prestige} I{income} C{capacity}",
        **plan_facts(c),
    )


def district_label(districts: list[str]) -> Text:
    """A dual space's districts, "commercial/civic"."""
    return joined((DISTRICT_NAMES[d] for d in districts), "/")


def layout(template: str, *parts: Any) -> Text:
    """`parts` set in a line by `template` ("{p0:<10.10}{p1:>6}": format specs pad and cut),
    each said in the reader's language: a table's row, a heading's columns."""
    return Text(template, {f"p{i}": part for i, part in enumerate(parts)}, JOINED)


def fitted(line: str) -> str:
    """A line of the board, its English wrapped at WIDTH. A Text stays what it was made from
    too, so another language wraps its own words (games.engine.words.Wrapped)."""
    if isinstance(line, Wrapped):
        return line
    english = line if len(line) <= WIDTH else "\n".join(wrap(line, indent="    "))
    return Wrapped(english, line, WIDTH, "    ") if isinstance(line, Text) else english


def wrapped(text: Text, indent: str = "  ") -> Text:
    """`text` wrapped at WIDTH columns in English (each piece wrapped again if a long word
    left it wider, as every line of the board is)."""
    pieces = []
    for line in wrap(text, indent):
        pieces.extend(wrap(line, indent="    ") if len(line) > WIDTH else [line])
    return Wrapped("\n".join(pieces), text, WIDTH, indent)


def wrap(text: str, indent: str = "  ") -> list[str]:
    words = text.split(" ")
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > WIDTH:
            lines.append(line)
            line = indent + word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


# --- formatting moves ---------------------------------------------------------------------


def space_label(state: State, space: int) -> str:
    return "/".join(SPACES[state["board"]][space])


def format_move(state: State, seat: int, move: dict) -> str:
    kind = move["type"]
    if kind == "extra":
        return f"extra {move['resource']}"
    if kind == "select":
        return "choose " + " ".join(move["resources"])
    if kind == "bid":
        return f"bid {move['silver']}"
    if kind == "take":
        return f"take {move['resource']}"
    if kind == "demolish":
        return f"demolish {structure_label(state, move['space'])}"
    if kind == "repair":
        return f"repair {structure_label(state, move['space'])}"
    if kind == "build":
        card = move["card"]
        name = PLANS[card].name.lower()
        hand = state["players"][seat]["hand"]
        text = f"build {name}" if card in hand else f"build communal {name}"
        spaces = rules.build_spaces(state, seat, card)
        if spaces and move["space"] != spaces[0]:
            text += f" in {space_label(state, move['space'])}"
        return text
    if kind in ("done", "pass", "decline"):
        return kind
    if kind == "accept":
        if "resource" in move:
            return f"buy {move['resource']}"
        if "deck" in move:
            return f"take {move['deck']} plan"
        if "space" in move:
            return f"repair {structure_label(state, move['space'])}"
        return "accept"
    if kind == "buy_plan":
        text = f"buy {move['deck']} plan"
        if move["discard"]:
            text += " discarding " + ", ".join(PLANS[c].name.lower() for c in move["discard"])
        return text
    if kind == "keep":
        return f"keep {PLANS[move['card']].name.lower()}"
    if kind == "buy":
        return f"buy {move['resource']}"
    if kind == "sell":
        return f"sell {move['count']} {move['resource']}"
    raise ValueError(f"unknown move {move}")


# --- parsing ------------------------------------------------------------------------------

PASS_WORDS = {"pass", "done", "end", "finish", "finished", "nothing", "skip", "no"}
DECLINE_WORDS = {"decline", "no", "pass", "skip", "refuse", "none"}
ACCEPT_WORDS = {"accept", "yes", "ok", "pay", "buy", "take", "y"}
RESOURCE_ALIASES = {r: r for r in RESOURCES} | {
    "woods": "wood",
    "stones": "stone",
    "glasses": "glass",
    "marbles": "marble",
    "irons": "iron",
}
NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70}


def to_int(word: str) -> int | None:
    if word.isdecimal():  # digits of any script, as `\d` reads them; not "²"
        return int(word)
    return NUMBER_WORDS.get(word, TENS.get(word))


def digits_for_number_words(clean: str) -> str:
    """'twenty one' (or 'twenty-one', already split by norm) -> '21'; 'eleven' -> '11'."""
    units = "|".join(w for w in NUMBER_WORDS if NUMBER_WORDS[w] < 10 and w != "zero")
    clean = re.sub(
        rf"\b({'|'.join(TENS)}) ({units})\b",
        lambda m: str(TENS[m.group(1)] + NUMBER_WORDS[m.group(2)]),
        clean,
    )
    return " ".join(str(to_int(w)) if to_int(w) is not None else w for w in clean.split())


def resource_word(word: str) -> str | None:
    return RESOURCE_ALIASES.get(word)


def parse(text: str, state: State, seat: int) -> dict:
    clean = digits_for_number_words(norm(text))
    words = clean.split()
    if not words:
        raise ParseError(_("Send a command, e.g. 'bid 3', 'build chapel' or 'pass'."))
    phase = state["phase"]
    handler = PARSERS.get(phase)
    if handler is None:
        raise ParseError(_("The game is over; there is nothing to send."))
    return handler(clean, words, state, seat)


def with_options(refusal: Text, state: State, seat: int) -> Text:
    """A refusal followed by the moves the seat may send (at most twelve of them)."""
    moves = legal_moves(state, seat)
    if not moves:
        return refusal
    shown = "; ".join(format_move(state, seat, m) for m in moves[:12])
    if len(moves) > 12:
        return _("{refusal} You may send: {moves} ...", refusal=refusal, moves=shown)
    return _("{refusal} You may send: {moves}", refusal=refusal, moves=shown)


def parse_merchant(clean, words, state, seat):
    for w in words:
        if resource_word(w):
            return {"type": "extra", "resource": resource_word(w)}
    raise ParseError(_("Name your extra resource: 'extra wood', 'extra glass'..."))


def parse_select(clean, words, state, seat):
    chosen = {resource_word(w) for w in words if resource_word(w)}
    if not chosen:
        raise ParseError(
            _(
                "Name {count} different resources, e.g. 'choose wood stone glass'.",
                count=rules.selectable_count(state),
            )
        )
    return {"type": "select", "resources": [r for r in RESOURCES if r in chosen]}


def parse_bid(clean, words, state, seat):
    for w in words:
        value = to_int(w)
        if value is not None:
            return {"type": "bid", "silver": value}
    raise ParseError(_("Send your bid as 'bid N' (N silver, 0 or more)."))


def parse_pick(clean, words, state, seat):
    for w in words:
        if resource_word(w):
            return {"type": "take", "resource": resource_word(w)}
    raise ParseError(
        _(
            "Take one category from the wheel: 'take stone'. The wheel holds {resources}.",
            resources=rules.resource_list(rules.wheel_categories(state)),
        )
    )


# "You have no structure you can demolish/repair now", by verb.
NO_STRUCTURE = {
    "demolish": _("You have no structure you can demolish now.").template,
    "repair": _("You have no structure you can repair now.").template,
}


def match_structure(rest: str, state: State, spaces: list[int], verb: str) -> int:
    """The space of the structure a player named, among `spaces`."""
    spaces = distinct_structures(state, spaces)
    if not spaces:
        raise ParseError(_(NO_STRUCTURE[verb]))
    labels = {i: norm(structure_label(state, i)) for i in spaces}
    for i, label in labels.items():
        if label == rest:
            return i
    wanted = set(rest.split())
    same_words = [i for i, label in labels.items() if set(label.split()) == wanted]
    if len(same_words) == 1:
        return same_words[0]
    by_name = [i for i in spaces if norm(PLANS[state["town"][i]["card"]].name) == rest]
    if len(by_name) == 1:
        return by_name[0]
    choices = "; ".join(f"{verb} {structure_label(state, i)}" for i in spaces)
    raise ParseError(_("Which structure? You may send: {choices}.", choices=choices))


def find_plan(state: State, seat: int, name: str, communal: bool) -> int:
    hand = sorted(state["players"][seat]["hand"])
    shared = sorted(c for c in state["communal"] if c is not None)
    pools = [shared] if communal else [hand, shared]
    for pool in pools:
        for c in pool:
            if norm(PLANS[c].name) == name:
                return c
    known = [norm(n) for n in PLAN_NAMES]
    if name not in known:
        raise ParseError(
            _(
                "There is no plan called {name}. Your plans: {hand}; communal: {communal}.",
                name=repr(name),
                hand=joined((PLANS[c].name for c in hand), ", "),
                communal=joined((PLANS[c].name for c in shared), ", "),
            )
        )
    if communal:
        raise ParseError(_("There is no {name} among the communal plans.", name=name))
    raise ParseError(_("There is no {name} in your hand or the communal plans.", name=name))


def parse_build_phase(clean, words, state, seat):
    verb, rest = words[0], " ".join(words[1:])
    if verb in PASS_WORDS or clean in ("end turn", "no build"):
        return {"type": "done"}
    rest = rest.removeprefix("the ").removeprefix("my ")  # "demolish the tower"
    if verb == "demolish":
        return {
            "type": "demolish",
            "space": match_structure(rest, state, rules.owned_spaces(state, seat), "demolish"),
        }
    if verb == "repair":
        damaged = [i for i in rules.owned_spaces(state, seat) if state["town"][i]["damaged"]]
        return {"type": "repair", "space": match_structure(rest, state, damaged, "repair")}
    if verb == "build":
        communal = False
        if rest.startswith("communal "):
            communal, rest = True, rest[len("communal ") :]
        rest = rest.removeprefix("the ")
        where = None
        if " in " in f" {rest} ":
            rest, _in, where = rest.partition(" in ")
            where = where.removeprefix("the ").removesuffix(" space").strip()
        card = find_plan(state, seat, rest.strip(), communal)
        spaces = rules.build_spaces(state, seat, card)
        if where is None:
            return {"type": "build", "card": card, "space": spaces[0] if spaces else -1}
        for i in spaces:
            districts = SPACES[state["board"]][i]
            label = "/".join(districts)
            if where in (label, "/".join(reversed(districts)), CODES[state["board"]][i].lower()):
                return {"type": "build", "card": card, "space": i}
            if len(districts) == 1 and where == districts[0]:
                return {"type": "build", "card": card, "space": i}
        options = ", ".join(space_label(state, i) for i in spaces) or pgettext(
            "blankenburg", "none"
        )
        raise ParseError(
            _(
                "The {building} cannot go in {where}; spaces open to it: {options}.",
                building=PLANS[card].name,
                where=where,
                options=options,
            )
        )
    raise ParseError(
        with_options(
            _("Expected 'build PLAN', 'demolish STRUCTURE', 'repair STRUCTURE' or 'done'."),
            state,
            seat,
        )
    )


def parse_offer(clean, words, state, seat):
    if words[0] in DECLINE_WORDS:
        return {"type": "decline"}
    effect = rules.current_offer(state)
    kind = effect[0]
    if kind == "offer_resource" and effect[1] is None:
        for w in words:
            if resource_word(w):
                return {"type": "accept", "resource": resource_word(w)}
        raise ParseError(_("Name the resource to buy, e.g. 'buy glass', or 'decline'."))
    if kind == "offer_plan" and effect[1] is None:
        for w in words:
            if w in ("basic", "grand"):
                return {"type": "accept", "deck": w}
        raise ParseError(_("Send 'take basic plan', 'take grand plan' or 'decline'."))
    if kind == "offer_repair":
        rest = " ".join(words[1:]) if words[0] in ("repair", "accept") else clean
        damaged = [i for i in rules.owned_spaces(state, seat) if state["town"][i]["damaged"]]
        return {"type": "accept", "space": match_structure(rest, state, damaged, "repair")}
    if words[0] in ACCEPT_WORDS:
        return {"type": "accept"}
    raise ParseError(_("Send 'accept' or 'decline'."))


def parse_plans(clean, words, state, seat):
    if words[0] in PASS_WORDS:
        return {"type": "pass"}
    clean = re.sub(r"\s*keep (1|one)$", "", clean)
    words = clean.split()
    if len(words) >= 2 and words[0] in ("buy", "draw", "take") and words[1] in ("basic", "grand"):
        deck = words[1]
        rest = " ".join(words[2:]).removeprefix("plan").strip()
        discard: list[int] = []
        if rest:
            rest = re.sub(r"^(discarding|discard|and discard)\s*", "", rest)
            hand = sorted(state["players"][seat]["hand"])
            words_left = [w for w in rest.split() if w not in ("and", "the")]
            while words_left:
                for length in (2, 1):  # plan names have one or two words
                    name = " ".join(words_left[:length])
                    card = next(
                        (c for c in hand if norm(PLANS[c].name) == name and c not in discard),
                        None,
                    )
                    if card is not None:
                        discard.append(card)
                        del words_left[:length]
                        break
                else:
                    raise ParseError(
                        _(
                            "You have no plan {name} to discard; your plans: {hand}.",
                            name=repr(" ".join(words_left)),
                            hand=joined((PLANS[c].name for c in hand), ", "),
                        )
                    )
        return {"type": "buy_plan", "deck": deck, "discard": sorted(discard)}
    raise ParseError(
        _(
            "Send 'buy basic plan' (1 silver), 'buy grand plan' (2 silver), "
            "optionally 'discarding PLAN, PLAN', or 'pass'."
        )
    )


def parse_keep(clean, words, state, seat):
    rest = " ".join(words[1:]) if words[0] in ("keep", "take", "choose") else clean
    index = to_int(rest)
    if index is not None and 1 <= index <= len(state["drawn"]):
        card = state["drawn"][index - 1]
        rest = norm(PLANS[card].name)
    for c in sorted(state["drawn"]):
        if norm(PLANS[c].name) == rest:
            return {"type": "keep", "card": c}
    raise ParseError(
        _(
            "Keep one of the plans you drew: {choices}.",
            choices=", ".join(f"keep {PLANS[c].name.lower()}" for c in state["drawn"]),
        )
    )


def parse_resources(clean, words, state, seat):
    if words[0] in PASS_WORDS:
        return {"type": "pass"}
    if "buy" in words and "sell" in words or words.count("sell") > 1:
        # One command, one move: doing half of "buy stone and sell wood" would surprise.
        raise ParseError(
            _(
                "That is two commands; send one per line, sells first (a purchase ends your "
                "turn in this round), e.g. 'sell 1 wood' and on the next line 'buy stone'."
            )
        )
    if words[0] in ("buy", "purchase"):
        for w in words[1:]:
            if resource_word(w):
                return {"type": "buy", "resource": resource_word(w)}
    if words[0] == "sell":
        count = 1
        for w in words[1:]:
            value = to_int(w)
            if value is not None:
                count = value
            elif w == "all":
                count = -1
            elif resource_word(w):
                r = resource_word(w)
                if count == -1:
                    count = state["players"][seat]["res"][r]
                return {"type": "sell", "resource": r, "count": count}
    raise ParseError(with_options(_("Send 'buy stone', 'sell 2 wood' or 'pass'."), state, seat))


def parse_final_repair(clean, words, state, seat):
    if words[0] in PASS_WORDS:
        return {"type": "done"}
    rest = " ".join(words[1:]) if words[0] == "repair" else clean
    return {
        "type": "repair",
        "space": match_structure(rest, state, rules.final_repair_spaces(state, seat), "repair"),
    }


PARSERS = {
    "merchant": parse_merchant,
    "select": parse_select,
    "bid": parse_bid,
    "pick": parse_pick,
    "build": parse_build_phase,
    "offer": parse_offer,
    "plans": parse_plans,
    "keep": parse_keep,
    "resources": parse_resources,
    "final_repair": parse_final_repair,
}


# --- narration ----------------------------------------------------------------------------


def describe(before: State, after: State, seat: int | None, move: dict, viewer: int | None) -> Text:
    told = after["news"]
    if seat is None:
        return joined(told, "; ") if told else _("the game moved on")
    # Third person for the mover too: the page marks the viewer's own name (games.selectors).
    # The line starts with the mover's name, written as its player wrote it ("alice", not
    # "Alice"): in `first`, or else in the first news of their move, which names them.
    name = before["names"][seat]
    kind = move.get("type")
    you = viewer == seat
    if kind == "bid":
        if you:
            first = _("{who} bid {silver} silver", who=name, silver=move["silver"])
        else:
            first = _("{who} placed a sealed bid", who=name)
    elif kind == "select":
        put = rules.resource_list(move["resources"])
        if after["dice"]:
            dice = joined((RESOURCE_NAMES[d] if d else BLANK for d in after["dice"]), ", ")
            first = _(
                "{who} put {resources} on the bidding wheel and rolled {dice}",
                who=name,
                resources=put,
                dice=dice,
            )
        else:
            first = _(
                "{who} put {resources} on the bidding wheel and rolled the dice",
                who=name,
                resources=put,
            )
    elif kind == "keep":
        if you:
            first = _("{who} kept the {building}", who=name, building=PLANS[move["card"]].name)
        else:
            first = _("{who} kept one plan", who=name)
    elif kind == "done":
        first = _("{who} finished building", who=name)
    elif kind == "pass":
        first = _("{who} passed", who=name)
    elif kind == "decline":
        first = _("{who} declined the offer", who=name)
    else:
        first = None
    rest = list(told)
    if kind == "select":  # the bids are told with the move that reveals them
        rest = [r for r in rest if getattr(r, "template", r) != rules.BIDS_REVEALED]
    parts = ([first] if first else []) + rest
    return joined(parts, "; ") if parts else _("{who} moved", who=name)
