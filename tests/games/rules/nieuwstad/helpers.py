"""Small tools to build Nieuwstad positions for the tests."""

from games.engine import event_rng, next_automatic, seats_to_ask
from games.rules.nieuwstad import GAME
from games.rules.nieuwstad import geometry as B
from games.rules.nieuwstad import rules as R
from games.rules.nieuwstad.data import BOAT, BUILDINGS

NAMES = ["Cor", "Emily", "Bram", "Wouter"]


def new_game(players: int = 4, seed: str = "test", **options) -> dict:
    options = GAME.validate_options(players, options)
    return GAME.setup(NAMES[:players], options, event_rng(seed, 0))


def skip_opening(state: dict) -> dict:
    """Straight to the first character choice, with an empty board."""
    R.start_round(state)
    state["news"] = []
    return state


def game_at_choice(players: int = 4, **options) -> dict:
    return skip_opening(new_game(players, **options))


def clear(state: dict, *cells: str) -> None:
    geo = B.geometry(state["board"])
    for cell in cells:
        state["forest"].pop(cell, None)
        state["forest"].pop(geo.partner[cell], None)


def put(state: dict, seat, kind: str, cells: list[str], facing: str | None = None) -> None:
    """Place a building as if built (no cost, no points), clearing the forest under it."""
    clear(state, *cells)
    R.place(state, seat, BOAT if kind == "boat" else BUILDINGS[kind], cells, facing)


def send(state: dict, seat: int, command: str) -> dict:
    """Play a typed command through the text protocol."""
    move = GAME.parse(command, state, seat)
    assert move in GAME.legal_moves(state, seat), f"{command!r} -> {move} is not legal"
    return GAME.apply(state, seat, move, event_rng("test", 1))


def choose(state: dict, seat: int, character: str) -> dict:
    return send(state, seat, character)


def give(state: dict, seat: int, **goods) -> None:
    for good, amount in goods.items():
        state["players"][seat][good] = amount


def hand(state: dict, seat: int, *cards: str) -> None:
    """Move cards from the deck into a hand (keeps the cards conserved)."""
    for card in cards:
        state["deck"].remove(card)
        state["players"][seat]["hand"].append(card)


def deck_top(state: dict, *cards: str) -> None:
    """Put these cards on top of the deck, the first drawn first."""
    for card in cards:
        state["deck"].remove(card)
    state["deck"].extend(reversed(cards))


def walk(players: int, seed: str, **options):
    """Every position of a bot game played as the platform plays it (forced moves, then the
    bot of a seat to ask), the final one included."""
    options = GAME.validate_options(players, options)
    state = GAME.setup(NAMES[:players], options, event_rng(seed, 0))
    seq = 0
    while True:
        yield state
        if GAME.result(state) is not None:
            return
        automatic = next_automatic(GAME, state)
        seq += 1
        if automatic is not None:
            seat, move = automatic.seat, automatic.move
        else:
            bot_rng = event_rng(seed + ":bot", seq)
            seats = seats_to_ask(GAME, state)
            seat = seats[0] if len(seats) == 1 else bot_rng.choice(seats)
            move = GAME.bot_move(state, seat, bot_rng)
        state = GAME.apply(state, seat, move, event_rng(seed, seq))
