"""The game object behind the rules contract."""

from __future__ import annotations

from games.engine import (
    Game,
    IllegalMove,
    Option,
    Result,
    StandingOrder,
    score_line,
    shared_groups,
)
from games.engine.words import _

from . import bots, reference
from . import geometry as B
from . import moves as M
from . import rules as R
from . import text as T
from .board import BOARD_TARGETS, move_steps
from .data import (
    BOARDS,
    BUILDINGS,
    BURGHERS_MIN,
    CARDS,
    COLOURS,
    DARK_SEALS,
    FOREST_NAMES,
    GOOD_NAMES,
    GOODS,
    LIGHT_SEALS,
    deck_for,
)
from .view import SEAT_FILL, build_view
from .words import COMMAND_WORDS

STANDING_ORDERS = (
    StandingOrder("no-watch", _("Never play Citizens' Watch (answer 'no watch' at once)")),
    StandingOrder("no-tax", _("Never play Income Tax (answer 'no tax' at once)")),
    StandingOrder("no-pledge", _("Never pay against Vikings or the Black Death")),
    StandingOrder("decline-proposals", _("Decline every proposal to build together")),
    StandingOrder("skip-festival", _("Stay away from every Midsummer Night Festival")),
    StandingOrder("no-cards", _("Buy no action cards and play none in the Bailiff phase")),
)


def score_parts(total: int, cards: dict[str, int]) -> list[tuple[str, int]]:
    """A final score as its parts: the points scored in play, then each end-of-game card and
    the City Gates [rulebook End of the Game: "including any special points of buildings
    (such as the City Gate) and cards (such as the District Party)"]."""
    named = [
        (BUILDINGS[key].name if key in BUILDINGS else CARDS[key].name, points)
        for key, points in cards.items()
    ]
    return [(_("points in play"), total - sum(cards.values())), *named]


class Nieuwstad(Game):
    """Rules version 1, kept so matches created with it replay as they were played."""

    slug = "nieuwstad"
    title = "De Poorters van Nieuwstad"
    min_players = 2
    max_players = 4
    version = 1
    options = (
        Option(
            "blue_alone",
            _("Community (blue) buildings may be built alone (Tycho's 2-player variant)"),
            False,
            player_counts=(2,),
        ),
        Option(
            "joint",
            _("Everything may be built together (Tycho's variant: shared costs and points)"),
            False,
        ),
    )
    standing_orders = STANDING_ORDERS
    move_fields = M.MOVE_FIELDS
    board_targets = BOARD_TARGETS
    goods_names = GOOD_NAMES
    command_words = COMMAND_WORDS

    def setup(self, players, options, rng):
        state = R.setup(players, options, rng, ruleset=self.version)
        R.advance(state)
        return state

    def to_act(self, state):
        return R.to_act(state)

    def prompt(self, state, seat):
        pending = state["pending"]
        if pending is not None:
            if pending["kind"] == "proposal" and R.ruleset(state) < 2:
                return _("accept or decline the proposal")  # version 1 has no counter-offers
            return {
                "proposal": _("accept, decline or counter the proposal"),
                "watch": _("answer the Crime: watch or no watch"),
                "tax": _("income: tax or no tax"),
                "festival": _("join the festival or skip"),
                "pledge": _("pledge against the event"),
            }[pending["kind"]]
        phase = state["phase"]
        if phase == "opening_forest":
            return _("take a forest tile")
        if phase == "opening_building":
            return _("place your starting building")
        if phase == "choose":
            return _("choose a character")
        act = state["act"]
        char = act["char"]
        return {
            "woodcutter": _("take a forest tile or pass"),
            "builder": _("build, propose or pass"),
            "farmer": _("farm (choose your extra)"),
            "bailiff": _("buy cards") if act["part"] == "buy" else _("play wish cards or done"),
            "merchant": _("trade, then done"),
        }.get(char, _("act"))

    def legal_moves(self, state, seat):
        return M.legal_moves(state, seat)

    def only_move(self, state, seat):
        # The builder's menu lists every proposal it could make: rules.only_move answers
        # without listing them.
        return M.only_move(state, seat)

    def apply(self, state, seat, move, rng):
        return M.apply(state, seat, move)

    # A logged move was accepted by `apply` when it was appended: replaying it skips the
    # checks that can only refuse it (verify_match still replays through `apply`). Not
    # `narrate`: nobody reads its news, which are not written. M.play takes replay_move's
    # arguments (rng unused), so no method wraps it.
    replay_move = staticmethod(M.play)

    def default_move(self, state, seat):
        return M.default_move(state, seat)

    def bot_move(self, state, seat, rng):
        return bots.bot_move(state, seat, rng)

    def standing_move(self, state, seat, orders):
        pending = state["pending"]
        if pending is not None:
            kind = pending["kind"]
            if kind == "watch" and "no-watch" in orders:
                return {"type": "nowatch"}
            if kind == "tax" and "no-tax" in orders:
                return {"type": "notax"}
            if kind == "pledge" and "no-pledge" in orders:
                return {"type": "pledge", "guilders": 0, "food": []}
            if kind == "proposal" and "decline-proposals" in orders:
                return {"type": "decline"}
            if kind == "festival" and "skip-festival" in orders:
                return {"type": "skip"}
            return None
        if "no-cards" in orders and state["phase"] == "act" and state["act"]["char"] == "bailiff":
            if state["act"]["part"] == "buy":
                return {"type": "buy", "count": 0}
            return {"type": "done"}
        return None

    def round_of(self, state):
        return state["round"]

    def result(self, state):
        final = state.get("final")
        if final is None:
            return None
        scores = final["scores"]
        ranking = list(final["ranking"])
        breakdown = [score_parts(scores[s], final["cards"][str(s)]) for s in range(state["n"])]
        notes = [score_line(state["names"][s], parts) for s, parts in enumerate(breakdown)]
        guilders = [p["guilders"] for p in state["players"]]
        if R.ruleset(state) >= 2:
            # "The player with the most points wins" [rulebook End of the Game], and no
            # tie-break: players level on points share the place.
            shared = shared_groups(ranking, lambda a, b: scores[a] == scores[b])
            if shared:
                notes.append(_("Level on points: the rulebook has no tie-break, so they share."))
        else:  # version 1: more guilders, then shared
            shared = shared_groups(
                ranking, lambda a, b: (scores[a], guilders[a]) == (scores[b], guilders[b])
            )
            if scores.count(max(scores)) > 1:
                notes.append(_("Tied on points: more guilders ranks higher (a design decision)."))
        return Result(
            scores=list(scores),
            ranking=ranking,
            notes=notes,
            details={"card_points": final["cards"], "breakdown": breakdown},
            shared=shared,
        )

    def view(self, state, seat):
        return build_view(state, seat)

    def seat_colours(self, state):
        return [SEAT_FILL[COLOURS[s]] for s in range(len(state["players"]))]

    def render_text(self, view):
        return T.render_text(view)

    def format_move(self, state, seat, move):
        return T.format_move(state, seat, move)

    def move_steps(self, state, seat, move):
        return move_steps(state, seat, move, self.format_move(state, seat, move))

    def not_open(self, state, seat, kind):
        # Only in the action phase: the opening offers its starting buildings by its own rule.
        if kind != "building" or state["phase"] != "act":
            return []
        return R.buildings_not_open(state, seat)

    def parse(self, text, state, seat):
        return T.parse(text, state, seat)

    def describe(self, before, after, seat, move, viewer):
        return T.describe(before, after, seat, move, viewer)

    def help_text(self):
        return T.help_text()

    def menu_parts(self, state, seat, move):
        return reference.menu_parts(state, seat, move)

    def reference(self, view):
        return reference.reference(view)

    def secrets(self, state):
        found: dict = {}
        for seat, player in enumerate(state["players"]):
            if player["hand"] and state["phase"] != "over":
                found[seat] = ["Your hand: " + ", ".join(CARDS[c].name for c in player["hand"])]
        if len(state["deck"]) >= 2:
            found[None] = ["Deck order: " + ", ".join(CARDS[c].name for c in state["deck"])]
        if state["forest"]:
            tiles = " ".join(f"{c}={FOREST_NAMES[t]}" for c, t in sorted(state["forest"].items()))
            found.setdefault(None, []).append("Forest tiles: " + tiles)
        return found

    def check_invariants(self, state):
        n = state["n"]
        light = LIGHT_SEALS[n]
        for seat, player in enumerate(state["players"]):
            for good in (*GOODS, "guilders", "points", "light", "dark"):
                assert player[good] >= 0, f"seat {seat} has {player[good]} {good}"
            on_board = sum(1 for b in state["buildings"].values() if b["owner"] == seat)
            on_board += R.boats_of(state, seat)
            assert player["light"] + on_board == light, f"seat {seat}: light seals not conserved"
            stalls = sum(1 for owner in state["stalls"].values() if owner == seat)
            assert player["dark"] + stalls == DARK_SEALS, f"seat {seat}: dark seals"
        assert state["burghers"] >= BURGHERS_MIN, "fewer than 5 Burghers"
        for cell, bid in state["cells"].items():
            assert cell in state["buildings"][bid]["cells"]
            assert cell not in state["forest"]
        for kind, count in state["supply"].items():
            assert count >= 0, f"supply of {kind} negative"
        cards = (
            len(state["deck"])
            + len(state["discard"])
            + sum(len(p["hand"]) for p in state["players"])
        )
        assert cards == len(deck_for(n)), "action cards not conserved"
        assert len(state["forest"]) <= (54 if state["board"] == "large" else 30)
        geo = B.geometry(state["board"])
        assert all(geo.partner[c] in state["forest"] for c in state["forest"]), "split tile"
        assert set(state["forest"]) <= set(BOARDS[state["board"]].city) | set(
            BOARDS[state["board"]].countryside
        )
        if state["phase"] != "over":
            assert R.to_act(state), "nobody to act"


class NieuwstadV2(Nieuwstad):
    """Rules version 2: the rulebook's rulings (docs/rules/nieuwstad.md, section 7). The
    state records its ruleset, and the rules branch on it where version 1 differs."""

    version = 2
    move_fields = M.MOVE_FIELDS_V2
    options = (
        *Nieuwstad.options,
        Option(
            "resow",
            _(
                "Balance variant (not the rulebook): every Farmer phase harvests each field "
                "and sows it again"
            ),
            False,
        ),
    )


__all__ = ["IllegalMove", "Nieuwstad", "NieuwstadV2"]
