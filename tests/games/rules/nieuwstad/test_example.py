"""The rulebook's 'Example of the Start of a Game' (Cor, Emily, Bram, Wouter), move by move.

The example's tiles and cards are put where the text says they were found; every command is
typed through the text protocol.
"""

from games.rules.nieuwstad import GAME
from games.rules.nieuwstad.geometry import geometry

from .helpers import deck_top, new_game, send

COR, EMILY, BRAM, WOUTER = range(4)


def goods(state, seat):
    p = state["players"][seat]
    return {k: p[k] for k in ("guilders", "wood", "game", "fish", "grain", "points") if p[k]}


def test_example_of_the_start_of_a_game():
    state = new_game(4)
    tiles = {
        "C3": "w3",  # Cor: 3 wood
        "E2": "w3",  # Emily: 3 wood
        "D2": "w2g",  # Bram: 2 wood and a game animal
        "A1": "w4",  # Wouter: 4 wood
        "C1": "w3",  # the Woodcutter phase: Emily 3 (+1), Bram 4, Wouter 3, Cor 3
        "E1": "w4",
        "G1": "w3",
        "A2": "w3",
    }
    for cell, kind in tiles.items():
        state["forest"][cell] = kind
        state["forest"][geometry("large").partner[cell]] = kind
    deck_top(state, "painting", "smallbirth", "statue")  # Bram, then Wouter's two draws

    # The opening: a forest tile each, clockwise from the starting player Cor.
    assert GAME.to_act(state) == [COR]
    send(state, COR, "take forest C3")
    send(state, EMILY, "take forest E2")
    send(state, BRAM, "take forest D2")
    send(state, WOUTER, "take forest A1")
    # Starting buildings counter-clockwise from Wouter, who chose last.
    assert GAME.to_act(state) == [WOUTER]
    send(state, WOUTER, "build grain field at A1")
    send(state, BRAM, "build house at D3 facing south")
    send(state, EMILY, "build boat")
    send(state, COR, "build house at C4 facing east")
    assert state["burghers"] == 5  # starting buildings bring no Burghers and no points
    assert goods(state, COR) == {"guilders": 2, "wood": 3}
    assert goods(state, EMILY) == {"guilders": 2, "wood": 3}
    assert goods(state, BRAM) == {"guilders": 2, "wood": 2, "game": 1}
    assert goods(state, WOUTER) == {"guilders": 2, "wood": 4}

    # 1-5. Cor chooses the Master Builder, builds a House for 2 guilders and only 2 wood.
    send(state, COR, "master builder")
    send(state, COR, "build house at C3 facing north less 1 wood")
    assert goods(state, COR) == {"wood": 1, "points": 2}
    assert state["burghers"] == 10
    # 6-8. Emily a House (+5), Bram a Grain field (-1), Wouter a Boat (-1).
    send(state, EMILY, "build house at E3 facing south")
    assert state["burghers"] == 15
    send(state, BRAM, "build grain field at B1")
    assert state["burghers"] == 14
    send(state, WOUTER, "build boat")
    assert state["burghers"] == 13
    assert goods(state, EMILY) == {"points": 2}
    assert goods(state, BRAM) == {"wood": 1, "game": 1, "points": 1}
    assert goods(state, WOUTER) == {"guilders": 1, "wood": 2, "points": 1}

    # Emily chooses the Woodcutter: 3 wood + 1 privilege; Bram 4, Wouter 3, Cor 3.
    send(state, EMILY, "woodcutter")
    send(state, EMILY, "take forest C1")
    send(state, BRAM, "take forest E1")
    send(state, WOUTER, "take forest G1")
    send(state, COR, "take forest A2")
    assert state["players"][EMILY]["wood"] == 4
    assert state["players"][BRAM]["wood"] == 5
    assert state["players"][WOUTER]["wood"] == 5
    assert state["players"][COR]["wood"] == 4

    # Bram takes the Bailiff, gets 1 guilder and buys a card with it.
    send(state, BRAM, "bailiff")
    assert state["players"][BRAM]["guilders"] == 1
    send(state, BRAM, "buy 1 card")
    assert state["players"][BRAM]["guilders"] == 0
    # Wouter buys a card: the Small Birth Wave (4 Houses: +4 Burghers), then a new card.
    send(state, WOUTER, "buy 1 card")
    assert state["burghers"] == 17
    assert state["players"][WOUTER]["hand"] == ["statue"]
    assert "smallbirth" in state["discard"]
    # Cor and Emily (no guilders) pass; then nobody plays a card.
    assert GAME.to_act(state) == [BRAM]
    send(state, BRAM, "done")
    send(state, WOUTER, "done")

    # Wouter chooses the Farmer: grain on his field, a fish, and an extra fish.
    assert GAME.to_act(state) == [WOUTER]
    send(state, WOUTER, "farmer")
    extras = {tuple(m["extra"]) for m in GAME.legal_moves(state, WOUTER)}
    assert extras == {("fish",), ("grain",)}  # "a grain or a fish but no meat"
    send(state, WOUTER, "farm extra fish")
    assert state["players"][WOUTER]["fish"] == 2
    assert state["players"][EMILY]["fish"] == 1
    fields = {
        b["cells"][0]: b["crop"] for b in state["buildings"].values() if b["kind"] == "grainfield"
    }
    assert fields == {"A1": 1, "B1": 1}  # Wouter's and Bram's grain on the fields
    assert state["players"][COR]["fish"] == 0

    # Income Tax could be anywhere: those holding cards are asked, secretly.
    assert sorted(GAME.to_act(state)) == [BRAM, WOUTER]
    send(state, BRAM, "no tax")
    send(state, WOUTER, "no tax")
    # Income: Emily 1, Bram 1, Wouter nothing, Cor 2; the pawn goes from Cor to Emily.
    assert [p["guilders"] for p in state["players"]] == [2, 1, 1, 0]
    assert state["start"] == EMILY
    assert state["round"] == 2
    assert GAME.to_act(state) == [EMILY]
    assert [p["points"] for p in state["players"]] == [2, 2, 1, 1]
