"""New England behind the rules contract."""

from __future__ import annotations

from games.engine import Game, Option, Result, StandingOrder, score_line, shared_groups
from games.engine.words import _, pgettext

from . import bots, reference, rules, text
from .board import BOARD_TARGETS, move_steps
from .data import CARDS, MAX_PURCHASES, shillings
from .moves import MOVE_FIELDS, apply_move, legal_moves
from .view import FAMILY_COLOURS, build_view
from .words import COMMAND_WORDS


def _both(names: list[str], group: list[int]):
    """ "a and b and c", each "and" said in the reader's language."""
    said = names[group[0]]
    for seat in group[1:]:
        said = _("{first} and {second}", first=said, second=names[seat])
    return said


class NewEngland(Game):
    slug = "new-england"
    title = "New England"
    min_players = 3
    max_players = 4
    version = 1
    options = (
        Option(
            "setup",
            _("Starting position"),
            "fixed",
            choices=("fixed", "placed"),
            choice_labels=(
                pgettext("starting position", "fixed"),
                pgettext("starting position", "placed"),
            ),
            help=_(
                "fixed: the predetermined layout; placed: players lay their starter tiles "
                "in three rounds, counter-clockwise from the start player's right."
            ),
        ),
    )
    move_fields = MOVE_FIELDS
    board_targets = BOARD_TARGETS
    command_words = COMMAND_WORDS
    standing_orders = (
        StandingOrder("pass-when-broke", _("End my buying turn when I cannot afford a purchase")),
    )

    # --- setting up and playing -----------------------------------------------------------

    def setup(self, players, options, rng):
        return rules.new_state(players, options, rng)

    def to_act(self, state):
        return rules.to_act(state)

    def prompt(self, state, seat):
        phase = state["phase"]
        if phase == "setup":
            return _("place a starter tile")
        if phase == "select":
            return _("choose how many development cards (3 to 6) go into the selection")
        if phase == "bid":
            return _("take a bidding chip")
        if phase == "buy":
            cost = rules.price(state, seat)
            left = MAX_PURCHASES - state["purchases"]
            if left <= 0:
                return _("play a stored card, move a figure, or pass")
            if left == 1:
                return _("buy up to 1 more item at {price} each, or pass", price=shillings(cost))
            return _(
                "buy up to {left} more items at {price} each, or pass",
                left=left,
                price=shillings(cost),
            )
        return _("the game is over")

    def legal_moves(self, state, seat):
        return legal_moves(state, seat)

    def apply(self, state, seat, move, rng):
        return apply_move(state, seat, move)

    def default_move(self, state, seat):
        phase = state["phase"]
        if phase == "select":
            return {"type": "select", "cards": 3}
        if phase == "bid":
            return {"type": "chip", "chip": rules.free_chips(state)[0]}
        if phase == "buy":
            return {"type": "pass"}
        return legal_moves(state, seat)[0]

    def reads_numbers(self, state, seat):
        # "7" is chip 7 and "4" four cards: a numbered menu would make "7" mean two things.
        return state["phase"] in ("bid", "select")

    def bot_move(self, state, seat, rng):
        return bots.bot_move(state, seat, rng)

    def standing_move(self, state, seat, orders):
        if "pass-when-broke" not in orders or state["phase"] != "buy" or state["turn"] != seat:
            return None
        player = state["players"][seat]
        if rules.playable_stored(state, seat) or rules.can_reveal(state, seat):
            return None
        if state["purchases"] < 2 and player["money"] >= rules.price(state, seat):
            return None
        return {"type": "pass"}

    def round_of(self, state):
        # Round 0 is the placing of the starter tiles, before the first numbered round.
        return state["round"] or None

    def result(self, state):
        if state["phase"] != "over":
            return None
        total, details = rules.scores(state)
        order = rules.ranking(state, total)
        money = [p["money"] for p in state["players"]]
        names = state["names"]
        # "Victory point ties are won by the player with the most money" [rulebook, line 26]
        # and nothing more: a tie on both is a shared place, not seat order.
        shared = shared_groups(order, lambda a, b: (total[a], money[a]) == (total[b], money[b]))
        breakdown = [
            [
                (_("from cards"), details["cards"][s]),
                (_("figure majorities"), details["bonus"][s]),
            ]
            for s in range(len(total))
        ]
        notes = [score_line(names[s], parts) for s, parts in enumerate(breakdown)]
        for a, b in zip(order, order[1:]):
            if total[a] == total[b] and money[a] != money[b]:
                notes.append(
                    _(
                        "{first} and {second} tie on {points} points; money decides "
                        "({money} to {other}).",
                        first=names[a],
                        second=names[b],
                        points=total[a],
                        money=money[a],
                        other=shillings(money[b]),
                    )
                )
        for group in shared:
            notes.append(
                _(
                    "{who} tie on {points} points and {money}: they share a place.",
                    who=_both(names, group),
                    points=total[group[0]],
                    money=shillings(money[group[0]]),
                )
            )
        details["money"] = money
        details["breakdown"] = breakdown
        return Result(scores=total, ranking=order, notes=notes, details=details, shared=shared)

    # --- what people see ---------------------------------------------------------------

    def seat_colours(self, state):
        return [FAMILY_COLOURS[f] for f in state["families"]]

    def view(self, state, seat):
        return build_view(state, seat, self.result(state))

    def render_text(self, view):
        return text.render_text(view)

    def format_move(self, state, seat, move):
        return text.format_move(move)

    def move_steps(self, state, seat, move):
        return move_steps(move, self.format_move(state, seat, move))

    def parse(self, text_in, state, seat):
        return text.parse(text_in, state, seat)

    def describe(self, before, after, seat, move, viewer):
        return text.describe(before, after, seat, move)

    def help_text(self):
        return text.HELP

    def menu_parts(self, state, seat, move):
        return reference.menu_parts(state, seat, move)

    def reference(self, view):
        return reference.reference(view)

    # --- checks ------------------------------------------------------------------------

    def secrets(self, state):
        hidden = []
        if state["bag"]:
            hidden.append("bag order " + "".join(state["bag"]))
            hidden.append(f"{len(state['bag'])} land tiles left in the bag")
        if state["deck"]:
            hidden.append("deck order " + " / ".join(CARDS[c].name for c in state["deck"]))
            hidden.append(f"{len(state['deck'])} development cards left in the deck")
        return {None: hidden}

    def check_invariants(self, state):
        rules.check_invariants(state)


class NewEnglandV2(NewEngland):
    """Version 2 (issue 12): a card stored in a barn is played only in a later turn, and
    figure moves are not capped. The flag in the state selects the rules (rules.is_v2)."""

    version = 2

    def setup(self, players, options, rng):
        state = super().setup(players, options, rng)
        state["ruleset"] = 2
        state["stored_now"] = 0
        return state


__all__ = ["NewEngland", "NewEnglandV2"]
