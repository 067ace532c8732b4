"""Free negotiation over community buildings (rules version 2). Exceptions: "Blue buildings are
community buildings, which must be built and paid for together. The players may negotiate
about everything: how the payment is shared, how the victory points are shared, location,
and so on. ... Building a community building costs one player his building option: he may
not build another building afterwards. The player(s) who helped with the construction may
still build (provided they still get a turn in this Master Builder phase)."

The commands here are the text protocol that email and the page's typed form both read."""

import pytest

from games.engine import IllegalMove, ParseError, copy_state, event_rng
from games.rules.nieuwstad import GAME

from .helpers import clear, game_at_choice, give

COR, EMILY, BRAM = 0, 1, 2


def say(state, seat, command):
    """Play a typed command (terms are free: not every one is in the menu)."""
    return GAME.apply(state, seat, GAME.parse(command, state, seat), event_rng("n", 1))


@pytest.fixture
def table():
    """Cor has chosen the Master Builder; D3 (beside the Market) is cleared."""
    state = game_at_choice(3)
    clear(state, "D3", "A1")
    for seat in (COR, EMILY, BRAM):
        give(state, seat, guilders=5, wood=5)
    say(state, COR, "master builder")
    return state


def test_uneven_shares_of_cost_and_points(table):
    """The Hospice costs 4 g and 4 wood; Cor's privilege takes 1 guilder off: 3 g 4 wood."""
    say(
        table,
        COR,
        "propose hospice at D3 facing south: Cor pays 3 g and 0 wood for 1 point, "
        "Emily pays 0 g and 4 wood for 3 points",
    )
    assert GAME.to_act(table) == [EMILY]
    assert "Emily pays 0 g and 4 wood for 3 point(s)" in GAME.view(table, BRAM)["pending"]["text"]
    say(table, EMILY, "accept")
    cor, emily = table["players"][COR], table["players"][EMILY]
    assert (cor["guilders"], cor["wood"], cor["points"]) == (2, 5, 1)
    assert (emily["guilders"], emily["wood"], emily["points"]) == (5, 1, 3)
    hospice = table["buildings"][table["cells"]["D3"]]
    assert hospice["owner"] is None  # "The building then belongs to the city"
    assert GAME.to_act(table) == [EMILY]  # it cost Cor his build; Emily may still build


def test_a_counter_offer_changes_the_terms_and_the_place_and_asks_the_others(table):
    say(
        table,
        COR,
        "propose hospice at D3 facing south: Cor pays 1 g and 1 wood for 2 points, "
        "Emily pays 1 g and 2 wood for 1 point, Bram pays 1 g and 1 wood for 1 point",
    )
    assert sorted(GAME.to_act(table)) == [EMILY, BRAM]
    say(table, BRAM, "accept")
    say(
        table,
        EMILY,
        "counter at A1: Cor pays 2 g and 1 wood for 2 points, Emily pays 0 g and 2 wood "
        "for 1 point, Bram pays 1 g and 1 wood for 1 point",
    )
    pending = table["pending"]
    assert pending["cells"] == ["A1"] and pending["offered_by"] == EMILY
    assert sorted(GAME.to_act(table)) == [COR, BRAM]  # Bram's accept was for other terms
    assert "counter-offer by Emily" in GAME.view(table, None)["pending"]["text"]
    say(
        table,
        COR,
        "counter: Cor pays 1 g and 2 wood for 2 points, Emily pays 1 g and 1 wood for 1 "
        "point, Bram pays 1 g and 1 wood for 1 point",
    )
    assert sorted(GAME.to_act(table)) == [EMILY, BRAM]
    with pytest.raises(IllegalMove, match="made your counter-offer"):
        say(
            table,
            EMILY,
            "counter: Cor pays 1 g and 1 wood for 2 points, Emily pays 1 g "
            "and 2 wood for 1 point, Bram pays 1 g and 1 wood for 1 point",
        )
    say(table, EMILY, "accept")
    say(table, BRAM, "accept")
    assert table["cells"]["A1"] and "D3" not in table["cells"]
    assert [p["guilders"] for p in table["players"]] == [4, 4, 4]
    assert [p["wood"] for p in table["players"]] == [3, 4, 4]
    assert [p["points"] for p in table["players"]] == [2, 1, 1]


def test_a_decline_ends_the_negotiation_and_the_proposer_goes_on(table):
    say(table, COR, "propose hospice at D3 facing south with Emily")  # the even split
    terms = table["pending"]["split"]
    assert terms == {
        "0": {"guilders": 2, "wood": 2, "points": 2},
        "1": {"guilders": 1, "wood": 2, "points": 2},
    }
    say(table, EMILY, "decline")
    assert table["pending"] is None and "D3" not in table["cells"]
    assert GAME.to_act(table) == [COR]
    assert not [m for m in GAME.legal_moves(table, COR) if m["type"] == "propose"]
    say(table, COR, "build house at D3 facing south less 1 wood")  # he may still build


def test_the_menu_offers_counters_and_a_partner_who_cannot_pay_is_still_asked(table):
    give(table, EMILY, guilders=0, wood=1)
    say(
        table,
        COR,
        "propose hospice at D3 facing south: Cor pays 3 g and 3 wood for 3 points, "
        "Emily pays 0 g and 1 wood for 1 point",
    )
    menu = GAME.legal_moves(table, EMILY)
    assert {"type": "accept"} in menu and {"type": "decline"} in menu
    counters = [m for m in menu if m["type"] == "counter"]
    assert counters
    for move in counters:  # every listed counter reads back from its own text
        assert GAME.parse(GAME.format_move(table, EMILY, move), table, EMILY) == move


def shares(*terms) -> str:
    return ", ".join(f"{who} pays {g} g and {w} wood for {p} points" for who, g, w, p in terms)


@pytest.mark.parametrize(
    "terms, words",
    [
        (shares(("Cor", 3, 4, 4)), "built together"),
        (shares(("Cor", 3, 4, 2), ("Emily", 0, 0, 2)), "pays nothing"),
        (shares(("Cor", 2, 2, 2), ("Emily", 1, 1, 2)), "3 guilders and 4 wood or 4 guilders"),
        (shares(("Cor", 2, 2, 2), ("Emily", 1, 2, 3)), "gives 4 points"),
        (shares(("Cor", 0, 1, 2), ("Emily", 3, 3, 2)), "Emily cannot pay 3 guilders and 3"),
        (shares(("Emily", 3, 4, 4), ("Bram", 0, 0, 0)), "Cor and one or more"),
    ],
)
def test_the_rulebooks_limits_still_hold(table, terms, words):
    give(table, EMILY, guilders=2)
    before = copy_state(table)
    with pytest.raises(IllegalMove, match=words):
        say(table, COR, f"propose hospice at D3 facing south: {terms}")
    assert table == before


def test_only_community_buildings_are_built_together(table):
    with pytest.raises(IllegalMove, match="Only community"):
        say(
            table,
            COR,
            "propose house at A1: Cor pays 1 g and 1 wood for 1 point, Emily pays "
            "1 g and 1 wood for 1 point",
        )
    with pytest.raises(IllegalMove, match="not your turn"):
        say(table, EMILY, "propose hospice at D3 facing south with Cor")


def test_counter_offers_are_only_answers_and_keep_the_partners(table):
    with pytest.raises(ParseError, match="no proposal"):
        GAME.parse("counter: Cor pays 1 g and 1 wood for 1 point", table, COR)
    say(table, COR, "propose hospice at D3 facing south with Emily")
    with pytest.raises(IllegalMove, match="keeps the partners"):
        say(
            table,
            EMILY,
            "counter: Cor pays 2 g and 2 wood for 2 points, Emily pays 1 g and "
            "1 wood for 1 point, Bram pays 0 g and 1 wood for 1 point",
        )
    with pytest.raises(IllegalMove, match="terms on the table"):
        say(
            table,
            EMILY,
            "counter: Cor pays 2 g and 2 wood for 2 points, Emily pays 1 g and 2 wood for 2 points",
        )


def test_help_shows_the_negotiation_commands():
    text = GAME.help_text()
    assert "propose hospice at D3 facing south: Cor pays" in text
    assert "counter:" in text
