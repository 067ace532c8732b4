"""A small game for testing the platform: hidden hands, a shuffled deck, simultaneous
sealed plays, forced last cards. Not one of the hosted games.

Each player is dealt three cards from a shuffled deck of 1..12. In each of three tricks
every player plays a card face down; when all are in they are revealed and the highest card
scores its value. A player's last card is forced.
"""

from __future__ import annotations

from games.engine import Game, IllegalMove, Option, ParseError, Result, StandingOrder, register

HAND_SIZE = 3


class SealedCards(Game):
    slug = "sealed-cards"
    title = "Sealed Cards"
    min_players = 2
    max_players = 4
    version = 1
    options = (Option("double_last", "Last trick scores double", False),)
    standing_orders = (StandingOrder("play-lowest", "Always play my lowest card"),)

    def setup(self, players, options, rng):
        deck = list(range(1, 13))
        rng.shuffle(deck)
        hands = [sorted(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(len(players))]
        return {
            "names": list(players),
            "options": dict(options),
            "hands": hands,
            "deck": deck[len(players) * HAND_SIZE :],
            "plays": [None] * len(players),
            "scores": [0] * len(players),
            "trick": 1,
            "last_trick": [],
        }

    def to_act(self, state):
        if state["trick"] > HAND_SIZE:
            return []
        return [s for s, p in enumerate(state["plays"]) if p is None]

    def prompt(self, state, seat):
        return f"play a card to trick {state['trick']}"

    def legal_moves(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "play", "card": c} for c in state["hands"][seat]]

    def apply(self, state, seat, move, rng):
        if seat not in self.to_act(state):
            raise IllegalMove("It is not your turn to play.")
        card = move.get("card")
        if move.get("type") != "play" or card not in state["hands"][seat]:
            raise IllegalMove(f"You hold {state['hands'][seat]}; you cannot play {card}.")
        state["hands"][seat].remove(card)
        state["plays"][seat] = card
        if all(p is not None for p in state["plays"]):
            plays = state["plays"]
            winner = max(range(len(plays)), key=lambda s: plays[s])
            points = plays[winner]
            if state["options"].get("double_last") and state["trick"] == HAND_SIZE:
                points *= 2
            state["scores"][winner] += points
            state["last_trick"] = list(plays)
            state["plays"] = [None] * len(plays)
            state["trick"] += 1
        return state

    def default_move(self, state, seat):
        return {"type": "play", "card": min(state["hands"][seat])}

    def bot_move(self, state, seat, rng):
        return rng.choice(self.legal_moves(state, seat))

    def standing_move(self, state, seat, orders):
        if "play-lowest" in orders:
            return self.default_move(state, seat)
        return None

    def result(self, state):
        if state["trick"] <= HAND_SIZE:
            return None
        scores = state["scores"]
        ranking = sorted(range(len(scores)), key=lambda s: -scores[s])
        return Result(scores=list(scores), ranking=ranking)

    def view(self, state, seat):
        return {
            "names": state["names"],
            "trick": state["trick"],
            "scores": state["scores"],
            "played": [p is not None for p in state["plays"]],
            "last_trick": state["last_trick"],
            "hand": state["hands"][seat] if seat is not None else None,
            "deck_size": len(state["deck"]),
        }

    def render_text(self, view):
        lines = [f"Trick {view['trick']} of {HAND_SIZE}"]
        for name, score, played in zip(view["names"], view["scores"], view["played"]):
            lines.append(f"  {name:<12} {score:>3} points{'  (card played)' if played else ''}")
        if view["hand"] is not None:
            lines.append("Your hand: " + " ".join(f"[{c}]" for c in view["hand"]))
        return "\n".join(lines)

    def format_move(self, state, seat, move):
        return f"play {move['card']}"

    def parse(self, text, state, seat):
        words = text.lower().split()
        if words and words[0] == "play":
            words = words[1:]
        if len(words) == 1 and words[0].isdecimal():
            return {"type": "play", "card": int(words[0])}
        raise ParseError("Expected 'play N', where N is a card in your hand.")

    def describe(self, before, after, seat, move, viewer):
        name = before["names"][seat]
        if viewer == seat:
            text = f"{name} played {move['card']}"
        else:
            text = f"{name} played a card face down"
        if after["trick"] != before["trick"]:
            shown = ", ".join(f"{n} {c}" for n, c in zip(after["names"], after["last_trick"]))
            text += f"; the cards are revealed: {shown}"
        return text

    def help_text(self):
        return "play N  - play card N from your hand"

    def secrets(self, state):
        found = {}
        for seat, hand in enumerate(state["hands"]):
            if hand:
                found[seat] = ["Your hand: " + " ".join(f"[{c}]" for c in hand)]
        for seat, card in enumerate(state["plays"]):
            if card is not None:  # face down until the trick is complete
                found.setdefault(seat, []).append(f"sealed card {card} of seat {seat}")
        return found


GAME = register(SealedCards())
