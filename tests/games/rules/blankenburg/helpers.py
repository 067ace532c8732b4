"""Small builders of positions for the Blankenburg tests."""

from __future__ import annotations

from games.engine import event_rng
from games.rules.blankenburg import GAME, rules
from games.rules.blankenburg.data import CITIZENS, EVENTS, PLANS, RESOURCES, VISITORS

NAMES4 = ["Andy", "Beth", "Chris", "Diane"]


class ScriptedRng:
    """An rng whose choice() returns scripted values (for dice), else a seeded Random."""

    def __init__(self, faces=(), seed="scripted"):
        self.faces = list(faces)
        self._rng = event_rng(seed, 1)

    def choice(self, seq):
        if self.faces:
            return self.faces.pop(0)
        return self._rng.choice(seq)

    def __getattr__(self, name):
        return getattr(self._rng, name)


def new_game(names=NAMES4, options=None, seed="t"):
    options = GAME.validate_options(len(names), options or {})
    state = GAME.setup(list(names), options, event_rng(seed, 0))
    if state["phase"] == "merchant":
        GAME.apply(state, state["cur"], {"type": "extra", "resource": "wood"}, event_rng(seed, 1))
    return state


def plan_id(state, name, exclude=()):
    """A card of that name, taken out of wherever it is (deck, hand, communal)."""
    for p in PLANS:
        if p.name == name and p.id not in exclude and not in_town(state, p.id):
            take_card(state, p.id)
            return p.id
    raise AssertionError(f"no free {name}")


def in_town(state, card):
    return any(s is not None and s["card"] == card for s in state["town"])


def take_card(state, card):
    for deck in ("basic_deck", "grand_deck"):
        if card in state[deck]:
            state[deck].remove(card)
            return
    for p in state["players"]:
        if card in p["hand"]:
            p["hand"].remove(card)
            return
    if card in state["communal"]:
        state["communal"][state["communal"].index(card)] = None


def clear_hands(state):
    """Return every hand and communal plan to its deck."""
    for p in state["players"]:
        for c in p["hand"]:
            state["basic_deck" if PLANS[c].kind == "basic" else "grand_deck"].append(c)
        p["hand"] = []
    for slot, c in enumerate(state["communal"]):
        if c is not None:
            state["basic_deck" if PLANS[c].kind == "basic" else "grand_deck"].append(c)
            state["communal"][slot] = None


def give_hand(state, seat, *names):
    for name in names:
        state["players"][seat]["hand"].append(plan_id(state, name))


def set_communal(state, basic=None, grand=None):
    for slot, name in ((0, basic), (1, grand)):
        old = state["communal"][slot]
        if old is not None:
            state["basic_deck" if slot == 0 else "grand_deck"].append(old)
            state["communal"][slot] = None
        if name is not None:
            state["communal"][slot] = plan_id(state, name)


def put(state, name, owner, space=None, damaged=False):
    """Place a structure for owner on its first free space (or the given one)."""
    card = plan_id(state, name)
    if space is None:
        spaces = rules.build_spaces(state, owner if owner >= 0 else 0, card)
        space = spaces[0]
    rules.place_structure(state, owner, card, space)
    if damaged:
        state["town"][space]["damaged"] = True
        state["town"][space]["dmg_turn"] = state["turn"]
    return space


def set_resources(state, seat, **amounts):
    """Set a player's resources, moving the difference from or to the supply."""
    player = state["players"][seat]
    for r in RESOURCES:
        want = amounts.get(r, 0)
        state["supply"][r] += player["res"][r] - want
        player["res"][r] = want
    if "gold" in amounts:
        state["supply"]["gold"] += player["gold"] - amounts["gold"]
        player["gold"] = amounts["gold"]


def set_wheel(state, **amounts):
    for r in (*RESOURCES, "gold"):
        want = amounts.get(r, 0)
        state["supply"][r] += state["wheel"][r] - want
        state["wheel"][r] = want


def set_track(state, *names):
    ids = [next(c.id for c in CITIZENS if c.name == n) for n in names]
    pool = state["track"] + state["citizen_deck"]
    state["track"] = ids
    state["citizen_deck"] = [c for c in pool if c not in ids]


def top_event(state, name):
    eid = next(e.id for e in EVENTS if e.name == name)
    deck = state["event_deck"] + ([state["event"]] if state["event"] is not None else [])
    deck.remove(eid)
    state["event"] = None
    state["event_deck"] = [eid, *deck]


def top_visitor(state, name):
    vid = next(v.id for v in VISITORS if v.name == name)
    deck = state["visitor_deck"] + ([state["visitor"]] if state["visitor"] is not None else [])
    deck.remove(vid)
    state["visitor"] = None
    state["visitor_deck"] = [vid, *deck]


def play(state, seat, move, seq=7):
    return GAME.apply(state, seat, move, event_rng("play", seq))


def command(state, seat, text, seq=7):
    return play(state, seat, GAME.parse(text, state, seat), seq)


def structures_of(state, seat):
    return sorted(PLANS[state["town"][i]["card"]].name for i in rules.owned_spaces(state, seat))
