"""One-word answers (games.commands.short_answer): yes/no, y/n, ok, accept/decline mean the
move the question admits, and where they mean nothing or several things the answer is the
list of choices, never a guess."""

import pytest

from games import commands
from games.engine import ParseError, event_rng
from games.rules.nieuwstad import GAME

from .nieuwstad.helpers import clear, give, skip_opening


def proposal_table() -> dict:
    """Frank proposes a Well with Oksana; Oksana answers."""
    names = ["Frank de Vries", "Оксана Шевченко", "Chloé Dubois"]
    state = skip_opening(GAME.setup(names, GAME.validate_options(3, {}), event_rng("y", 0)))
    clear(state, "A6")
    for seat in range(3):
        give(state, seat, guilders=9, wood=9)
    for seat, command in ((0, "master builder"), (0, "propose well at A6 with Оксана")):
        state = GAME.apply(state, seat, GAME.parse(command, state, seat), event_rng("y", 1))
    assert GAME.to_act(state) == [1]
    return state


@pytest.mark.parametrize("word", ["yes", "Yes", "y", "OK", "ok.", "accept", "Agree!"])
def test_yes_accepts_a_proposal(word):
    state = proposal_table()
    assert commands.interpret(GAME, state, 1, word) == {"type": "accept"}


@pytest.mark.parametrize("word", ["no", "No", "n", "decline", "Nope"])
def test_no_declines_a_proposal(word):
    state = proposal_table()
    assert commands.interpret(GAME, state, 1, word) == {"type": "decline"}


def test_the_numbered_menu_answers_too():
    state = proposal_table()
    legal = GAME.legal_moves(state, 1)
    for number, move in enumerate(legal, 1):
        assert commands.interpret(GAME, state, 1, str(number)) == move


def test_yes_where_it_means_nothing_is_answered_with_the_choices():
    names = ["Anna", "Bram", "Cor"]
    state = skip_opening(GAME.setup(names, GAME.validate_options(3, {}), event_rng("y", 0)))
    seat = GAME.to_act(state)[0]
    with pytest.raises(ParseError) as refused:
        commands.interpret(GAME, state, seat, "yes")
    assert "Your choices: 1." in refused.value.message
    assert "woodcutter" in refused.value.message.lower()


class TwoWay:
    """A question of "X" and "no X", and one of "X or skip", as games word them."""

    def __init__(self, *commands_: str):
        self.commands = commands_

    def legal_moves(self, state, seat):
        return [{"type": c} for c in self.commands]

    def format_move(self, state, seat, move):
        return move["type"]

    def parse(self, text, state, seat):
        raise ParseError("no such command")

    def reads_numbers(self, state, seat):
        return False


@pytest.mark.parametrize(
    ("offered", "word", "meant"),
    [
        (("watch", "no watch"), "yes", "watch"),
        (("watch", "no watch"), "n", "no watch"),
        (("join with fish", "skip"), "y", "join with fish"),
        (("join with fish", "skip"), "no", "skip"),
        (("buy wood", "decline"), "no", "decline"),
    ],
)
def test_x_or_no_x(offered, word, meant):
    assert commands.interpret(TwoWay(*offered), {}, 0, word) == {"type": meant}


def test_yes_to_several_offers_lists_them():
    with pytest.raises(ParseError) as refused:
        commands.interpret(TwoWay("join with fish", "join with grain", "skip"), {}, 0, "yes")
    assert "1. join with fish; 2. join with grain; 3. skip" in refused.value.message


def test_the_prompt_offers_a_counter_only_where_the_rules_have_one():
    """Rules version 1 (old matches) has no counter-offers: its turn email must not ask for
    one; version 2's does, and 'counter: ...' is then a command."""
    from games.rules.nieuwstad import GAME_V1

    for game, asks in ((GAME_V1, False), (GAME, True)):
        names = ["Anna", "Bram", "Cor"]
        state = skip_opening(game.setup(names, game.validate_options(3, {}), event_rng("v", 0)))
        clear(state, "A6")
        for seat in range(3):
            give(state, seat, guilders=9, wood=9)
        for command in ("master builder", "propose well at A6 with Bram"):
            state = game.apply(state, 0, game.parse(command, state, 0), event_rng("v", 1))
        assert ("counter" in game.prompt(state, 1)) is asks
        assert commands.interpret(game, state, 1, "yes") == {"type": "accept"}
