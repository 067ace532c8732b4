"""Builders of Blankenburg behind the rules contract."""

from __future__ import annotations

from games.engine import Game, Option, Result, StandingOrder, shared_groups
from games.engine.words import _, pgettext

from . import bots, moves, reference, rules, text
from .board import BOARD_TARGETS, move_steps
from .data import (
    CITIZENS,
    EVENTS,
    GOLD_TOTAL,
    PLANS,
    RESOURCE_NAMES,
    RESOURCE_TOTAL,
    RESOURCES,
    VISITORS,
)
from .rules import State
from .view import PLAYER_COLOURS, build_view, secrets
from .words import COMMAND_WORDS


class Blankenburg(Game):
    slug = "blankenburg"
    title = "Builders of Blankenburg"
    min_players = 2
    max_players = 6
    version = 1
    round_name = pgettext("round", "Turn")
    options = (
        Option(
            "board",
            _("Board side"),
            "front",
            choices=("front", "back"),
            choice_labels=(pgettext("board side", "front"), pgettext("board side", "back")),
            help=_(
                "The alternate (back) side adds four dual-district spaces and brings the "
                "City Planner into the character deck; recommended for five or six players."
            ),
        ),
        Option(
            "master_builder",
            _("Master builder"),
            False,
            player_counts=(2,),
            help=_("A game-controlled third builder that competes for spaces and guests."),
        ),
        Option(
            "six_player_rules",
            _("Six-player rules"),
            True,
            choices=(True,),
            player_counts=(6,),
            help=_(
                "One of each resource on the wheel, five dice, a zero bid gains four silver, "
                "a random sixth citizen. Always on with six players."
            ),
        ),
    )
    move_fields = moves.MOVE_FIELDS
    board_targets = BOARD_TARGETS
    goods_names = RESOURCE_NAMES
    command_words = COMMAND_WORDS
    standing_orders = (
        StandingOrder(
            "skip-build", _("Finish my building turn when I can neither build nor repair")
        ),
        StandingOrder("decline-offers", _("Decline every offer from events and visitors")),
        StandingOrder("pass-market", _("Pass in the marketplace (no plans, no resources)")),
    )

    def setup(self, players, options, rng) -> State:
        return rules.new_state(list(players), dict(options), rng)

    def to_act(self, state):
        return rules.to_act(state)

    def prompt(self, state, seat):
        return moves.PHASE_ASK.get(state["phase"], "wait")

    def legal_moves(self, state, seat):
        return moves.legal_moves(state, seat)

    def apply(self, state, seat, move, rng):
        return moves.apply_move(state, seat, move, rng)

    # The log's moves straight to the rules (no method in between: it runs for every move of
    # every replay).
    replay_move = staticmethod(moves.replay_move)

    def asks_when_forced(self, state, seat):
        # Version 2: a seat whose only move is to pass, decline or bid zero because of its
        # purse (line 16: the screen) is asked like anyone: in the plan step, the resource
        # rounds, an offer, and the sealed bids. Played for it, even after the others, the
        # last of them would see the step close on their own answer and know why.
        if not rules.is_v2(state):
            return False
        return state["phase"] in ("plans", "resources", "offer", "bid")

    def default_move(self, state, seat):
        phase = state["phase"]
        if phase == "bid":
            return {"type": "bid", "silver": 0}
        if phase == "build" or phase == "final_repair":
            return {"type": "done"}
        if phase == "offer":
            return {"type": "decline"}
        if phase in ("plans", "resources"):
            return {"type": "pass"}
        if phase == "keep":
            return {"type": "keep", "card": min(state["drawn"])}
        legal = moves.legal_moves(state, seat)
        return legal[0]

    def bot_move(self, state, seat, rng):
        return bots.bot_move(state, seat, rng)

    def standing_move(self, state, seat, orders):
        phase = state["phase"]
        if "decline-offers" in orders and phase == "offer":
            return {"type": "decline"}
        if "pass-market" in orders and phase in ("plans", "resources"):
            return {"type": "pass"}
        if "skip-build" in orders and phase == "build":
            player_moves = moves.legal_moves(state, seat)
            if not any(m["type"] in ("build", "repair") for m in player_moves):
                return {"type": "done"}
        return None

    def round_of(self, state):
        # The rulebook plays the game in turns ("Each turn consists of a number of phases");
        # state["round"] is the marketplace's first or second resource round within one.
        return state["turn"]

    def result(self, state):
        r = state["result"]
        if r is None:
            return None
        # Ties go to more structures, then more silver [rulebook]; past that a place is shared.
        tiebreak = [
            (r["scores"][s], p["structures"], p["silver"])
            for s, p in enumerate(r["details"]["players"])
        ]
        return Result(
            scores=list(r["scores"]),
            ranking=list(r["ranking"]),
            notes=list(r["notes"]),
            details=r["details"],
            shared=shared_groups(r["ranking"], lambda a, b: tiebreak[a] == tiebreak[b]),
        )

    def seat_colours(self, state):
        return list(PLAYER_COLOURS[: len(state["names"])])

    def view(self, state, seat):
        return build_view(state, seat)

    def render_text(self, view):
        return text.render_text(view)

    def format_move(self, state, seat, move):
        return text.format_move(state, seat, move)

    def move_steps(self, state, seat, move):
        return move_steps(state, seat, move, self.format_move(state, seat, move))

    def not_open(self, state, seat, kind):
        return rules.plans_not_open(state, seat) if kind == "plan" else []

    def parse(self, text_, state, seat):
        return text.parse(text_, state, seat)

    def describe(self, before, after, seat, move, viewer):
        return text.describe(before, after, seat, move, viewer)

    def help_text(self):
        return text.HELP

    def menu_parts(self, state, seat, move):
        return reference.menu_parts(state, seat, move)

    def reference(self, view):
        return reference.reference(view)

    def secrets(self, state):
        return secrets(state)

    def check_invariants(self, state):
        check_invariants(state)


class BlankenburgV2(Blankenburg):
    """Version 2 (issue 12): who is asked never depends on the silver behind a screen, and
    the zero-bid line names the Banker's extra silver. The state's "ruleset" selects it."""

    version = 2

    def setup(self, players, options, rng) -> State:
        state = super().setup(players, options, rng)
        state["ruleset"] = 2
        return state


def check_invariants(state: State) -> None:
    n = state["n"]
    players = state["players"]
    for r in RESOURCES:
        total = state["supply"][r] + state["market"][r] + state["wheel"][r]
        total += sum(p["res"][r] for p in players)
        assert total == RESOURCE_TOTAL[r], f"{r} not conserved: {total}"
        assert state["supply"][r] >= 0 and state["market"][r] >= 0 and state["wheel"][r] >= 0
        assert all(p["res"][r] >= 0 for p in players), f"negative {r}"
    gold = state["supply"]["gold"] + state["wheel"]["gold"] + sum(p["gold"] for p in players)
    assert gold == GOLD_TOTAL, f"gold not conserved: {gold}"
    assert all(p["silver"] >= 0 and p["gold"] >= 0 and p["prestige"] >= 0 for p in players)
    cards = list(state["basic_deck"]) + list(state["grand_deck"]) + list(state["drawn"])
    cards += [c for c in state["communal"] if c is not None]
    cards += [s["card"] for s in state["town"] if s is not None]
    for seat, p in enumerate(players):
        cards += p["hand"]
        limit = rules.hand_limit(state, seat)
        assert len(p["hand"]) <= limit or state["phase"] == "over", "hand over the limit"
    assert sorted(cards) == list(range(len(PLANS))), "plan cards not conserved"
    assert state["communal"][0] is None or PLANS[state["communal"][0]].kind == "basic"
    assert state["communal"][1] is None or PLANS[state["communal"][1]].kind == "grand"
    assert all(PLANS[c].kind == "basic" for c in state["basic_deck"])
    assert all(PLANS[c].kind == "grand" for c in state["grand_deck"])
    citizens = sorted(state["track"] + state["citizen_deck"])
    assert citizens == list(range(len(CITIZENS))), "citizens not conserved"
    assert len(state["track"]) <= 12
    visitors = state["visitor_deck"] + ([state["visitor"]] if state["visitor"] is not None else [])
    assert sorted(visitors) == list(range(len(VISITORS))), "visitors not conserved"
    events = state["event_deck"] + ([state["event"]] if state["event"] is not None else [])
    assert sorted(events) == list(range(len(EVENTS))), "events not conserved"
    for i, s in enumerate(state["town"]):
        if s is None:
            continue
        assert s["owner"] in range(n) or (s["owner"] == -1 and state["master_builder"])
        assert (
            i in rules.REGULAR[state["board"]][PLANS[s["card"]].district]
            or len(rules.SPACES[state["board"]][i]) == 2
        ), "structure in a space of another district"
        assert not (s["owner"] == -1 and s["damaged"]), "master builder keeps no damaged structure"
    phase = state["phase"]
    if phase == "bid":
        assert all(b is None or 0 <= b <= players[s]["silver"] for s, b in enumerate(state["bids"]))
    if phase not in ("bid", "pick"):
        if phase != "over" and phase != "final_repair":
            assert all(state["wheel"][r] <= 3 for r in RESOURCES) or phase in (
                "select",
                "merchant",
            ), "wheel over three outside bidding"
    if phase in ("plans", "keep", "resources", "build", "pick", "select"):
        assert state["cur"] in range(n)
    if phase == "keep":
        assert state["drawn"], "nothing drawn to keep"
