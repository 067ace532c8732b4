"""The position a move would leave, shown before it is confirmed, without drawing chance or
revealing anything hidden.

The move is applied to a copy of the position with an rng that refuses to be drawn from, so
a move whose outcome depends on a shuffle, a draw or a die has no preview (the seed's next
draws are never consumed, and nothing random is shown that the confirmed move could
contradict). A move that changes any other seat's secrets, or shows the mover a secret of
theirs (a card drawn from a pre-shuffled deck, the last sealed bid that opens every bid), has
no preview either: the preview would tell the mover what they learn only by playing. The same
test decides whether a move may be taken back (docs/takebacks.md). Pure Python.
"""

from __future__ import annotations

from dataclasses import dataclass

from .contract import Game, IllegalMove, Move, State, copy_state

CHANCE = "chance"
HIDDEN = "hidden"


class ChanceRefused(Exception):
    """A rule tried to draw from the rng of a preview."""


class NoChance:
    """An rng for a preview: any draw raises ChanceRefused (not a shape error, so the
    contract's guard does not turn it into IllegalMove)."""

    drawn = False

    def __getattr__(self, name: str):
        raise ChanceRefused(name)


@dataclass(frozen=True)
class Preview:
    after: State | None  # the position after the move; None when it cannot be shown
    withheld: str = ""  # CHANCE or HIDDEN when `after` is None


def reveals_hidden(game: Game, before: State, after: State, seat: int) -> bool:
    """Whether a move by `seat` changed anything hidden from it (a card drawn from the deck,
    sealed bids opened, another hand changed) or shows it something hidden."""
    secrets_before, secrets_after = game.secrets(before), game.secrets(after)
    for holder in set(secrets_before) | set(secrets_after):
        if holder != seat and secrets_before.get(holder) != secrets_after.get(holder):
            return True
    shown = game.render_text(game.view(after, seat))
    return any(
        text in shown
        for holder, texts in secrets_before.items()
        if holder != seat
        for text in texts
    )


def preview(game: Game, state: State, seat: int, move: Move) -> Preview:
    """The position `move` by `seat` leaves, if it can be shown to `seat` beforehand. Only
    the move itself is applied: what follows it (forced moves, bots) is not played."""
    try:
        after = game.apply(copy_state(state), seat, move, NoChance())
    except ChanceRefused:
        return Preview(None, CHANCE)
    except IllegalMove:
        return Preview(None)
    if reveals_hidden(game, state, after, seat):
        return Preview(None, HIDDEN)
    return Preview(after)
