"""Placement rules: land tiles, developments, figures, barns."""

import pytest

from games.engine import IllegalMove
from games.rules.new_england import GAME, rules
from games.rules.new_england.data import CELL_INDEX, FIXED_SETUP_BY_COUNT

from .helpers import apply, buying, card_named, figure, fresh, lay

ANNA, BEN, CLEO, DAN = 0, 1, 2, 3  # Annable, Howland, Palomer, Winslow


def tile_moves(state, seat, slot):
    return {m["at"] for m in GAME.legal_moves(state, seat) if m.get("slot") == slot}


def test_fixed_setup_places_every_family_and_no_starters_touch():
    state = fresh(4)
    assert state["families"] == ["Annable", "Howland", "Palomer", "Winslow"]
    assert len(state["tiles"]) == 12
    for seat, family in enumerate(state["families"]):
        for land, cells in FIXED_SETUP_BY_COUNT[4][family].items():
            tile = rules.tile_at(state, CELL_INDEX[cells[0]])
            assert tile["owner"] == seat and tile["land"] == land
    for tile in state["tiles"]:
        for cell in tile["cells"]:
            for n in rules.NEIGHBOURS[cell]:
                other = rules.tile_at(state, n)
                assert other is None or other is tile
    GAME.check_invariants(state)


def test_three_players_leave_howland_out():
    state = fresh(3)
    assert state["families"] == ["Annable", "Palomer", "Winslow"]
    assert len(state["tiles"]) == 9
    # the Palomer positions of the 4-player layout stay empty (chosen by simulation)
    assert rules.tile_at(state, CELL_INDEX["H2"]) is None
    assert rules.tile_at(state, CELL_INDEX["J4"])["owner"] == 0


def test_tile_must_touch_own_land_of_its_type():
    state = buying(fresh(), ANNA, [{"tile": "F"}])
    spots = tile_moves(state, ANNA, 1)
    assert "E5" in spots and "G4" in spots  # beside Annable's field E4-F4
    assert "E6" not in spots  # touches nothing of hers
    assert "B3" not in spots  # beside her settlement, not her field
    with pytest.raises(IllegalMove, match="beside your own field"):
        apply(state, ANNA, {"type": "buy_tile", "slot": 1, "at": "E6"})
    apply(state, ANNA, {"type": "buy_tile", "slot": 1, "at": "E5"})
    assert rules.tile_at(state, CELL_INDEX["E5"])["owner"] == ANNA
    assert state["players"][ANNA]["money"] == 17
    GAME.check_invariants(state)


def test_tile_may_not_touch_an_opponents_land_of_that_type_except_diagonally():
    state = fresh()
    # a Howland field at D6, laid directly to build the case
    lay(state, BEN, "F", "D6")
    buying(state, ANNA, [{"tile": "F"}])
    spots = tile_moves(state, ANNA, 1)
    assert "D5" not in spots  # D5 touches Howland's field D6 orthogonally
    assert "E5" in spots  # E5 touches D6 only at a corner
    with pytest.raises(IllegalMove):
        apply(state, ANNA, {"type": "buy_tile", "slot": 1, "at": "D5"})


def test_one_connected_area_per_type():
    state = buying(fresh(), ANNA, [{"tile": "S"}])
    # a settlement far from B2-C2 would start a second area: not offered, refused
    assert "H5" not in tile_moves(state, ANNA, 1)
    with pytest.raises(IllegalMove):
        apply(state, ANNA, {"type": "buy_tile", "slot": 1, "at": "H5"})
    apply(state, ANNA, {"type": "buy_tile", "slot": 1, "at": "D2"})
    GAME.check_invariants(state)  # asserts every area is connected


def test_blocked_land_type_cannot_be_bought():
    state = fresh()
    # Annable's settlement B2-C2: fill or poison every free neighbour
    for cell in ("A2", "B1", "C1", "D2", "C3"):
        lay(state, CLEO, "F", cell)
    lay(state, DAN, "P", "B3")
    assert rules.tile_spots(state, ANNA, "S") == []
    buying(state, ANNA, [{"tile": "S"}, {"tile": "F"}])
    moves = GAME.legal_moves(state, ANNA)
    assert not any(m.get("slot") == 1 for m in moves)
    with pytest.raises(IllegalMove, match="can no longer grow"):
        apply(state, ANNA, {"type": "buy_tile", "slot": 1, "at": "A3"})


def test_blocked_by_free_parcels_that_border_an_opponent():
    state = fresh()
    for cell in ("A2", "B1", "C1", "D2", "B3"):
        lay(state, CLEO, "F", cell)
    # C3 is still free, but it touches Winslow's settlement at C4 (laid here for the case)
    lay(state, DAN, "S", "C4")
    assert rules.tile_at(state, CELL_INDEX["C3"]) is None
    assert rules.tile_spots(state, ANNA, "S") == []


@pytest.mark.parametrize(
    "cells",
    [["E4", "F4", "E5"], ["E4", "F4", "F5"], ["E4", "E5", "F5"], ["F4", "E5", "F5"]],
)
def test_corner_development_in_every_rotation(cells):
    state = fresh()
    for cell in ("E5", "F5"):
        lay(state, ANNA, "F", cell)
    card = card_named(state, "land", "F", "corner")
    buying(state, ANNA, [{"card": card}])
    legal = [m["cells"] for m in GAME.legal_moves(state, ANNA) if m.get("slot") == 1]
    assert sorted(cells, key=CELL_INDEX.get) in legal
    apply(state, ANNA, {"type": "buy_card", "slot": 1, "cells": cells})
    assert card in state["players"][ANNA]["cards"]


def test_tee_rotations_and_no_mirror_images():
    state = fresh()
    for cell in ("E3", "F3", "G3", "D4", "G4", "E5", "F5"):
        lay(state, ANNA, "F", cell)
    tee = card_named(state, "land", "F", "tee")
    buying(state, ANNA, [{"card": tee}])
    legal = {tuple(m["cells"]) for m in GAME.legal_moves(state, ANNA) if m.get("slot") == 1}
    assert ("E3", "F3", "G3", "F4") in legal  # pointing down
    assert ("F3", "E4", "F4", "G4") in legal  # pointing up
    assert ("E3", "D4", "E4", "E5") in legal  # pointing left
    assert ("F3", "F4", "G4", "F5") in legal  # pointing right
    # an ell may be turned but not mirrored: E3 E4 E5 F5 is an ell, so a jay cannot use it
    jay = card_named(state, "land", "F", "jay")
    state["deck"].append(jay)
    state["selection"].append({"card": state["deck"].pop()})
    with pytest.raises(IllegalMove, match="not a jay"):
        apply(state, ANNA, {"type": "buy_card", "slot": 2, "cells": ["E3", "E4", "E5", "F5"]})
    apply(state, ANNA, {"type": "buy_card", "slot": 2, "cells": ["F3", "F4", "E5", "F5"]})


def test_development_needs_own_undeveloped_parcels_free_of_figures():
    state = fresh()
    lay(state, ANNA, "F", "G4")
    figure(state, ANNA, "pilgrim", "G4")
    card = card_named(state, "land", "F", "row of three")
    buying(state, ANNA, [{"card": card}])
    with pytest.raises(IllegalMove, match="G4 is not one of your undeveloped field"):
        apply(state, ANNA, {"type": "buy_card", "slot": 1, "cells": ["E4", "F4", "G4"]})
    # no legal placement and no barn: the card cannot be bought at all
    assert not any(m.get("slot") == 1 for m in GAME.legal_moves(state, ANNA))
    # moving the pilgrim away frees the row
    apply(state, ANNA, {"type": "move", "figure": "pilgrim", "from": "G4", "to": "B2"})
    apply(state, ANNA, {"type": "buy_card", "slot": 1, "cells": ["E4", "F4", "G4"]})


def test_starter_tile_halves_are_developed_together_and_a_spare_half_is_wasted():
    state = fresh()
    lay(state, ANNA, "F", "G4")
    pair = card_named(state, "land", "F", "pair")
    buying(state, ANNA, [{"card": pair}])
    apply(state, ANNA, {"type": "buy_card", "slot": 1, "cells": ["F4", "G4"]})
    starter = rules.tile_at(state, CELL_INDEX["E4"])
    assert starter["developed"]  # E4 flipped with F4: wasted
    assert rules.development_placements(state, ANNA, pair) == []
    GAME.check_invariants(state)


def test_figures_go_on_own_undeveloped_tiles_one_per_tile():
    state = fresh()
    pilgrims = [card_named(state, "pilgrim")]
    state["deck"].remove(pilgrims[0])
    pilgrims.append(card_named(state, "pilgrim"))
    state["deck"].append(pilgrims[0])
    buying(state, ANNA, [{"card": pilgrims[0]}, {"card": pilgrims[1]}])
    with pytest.raises(IllegalMove, match="own undeveloped"):
        apply(state, ANNA, {"type": "buy_card", "slot": 1, "at": "J4"})  # Howland's
    apply(state, ANNA, {"type": "buy_card", "slot": 1, "at": "C2"})  # half of B2-C2
    assert rules.tile_at(state, CELL_INDEX["B2"])["figure"] == "pilgrim"
    with pytest.raises(IllegalMove, match="own undeveloped"):
        apply(state, ANNA, {"type": "buy_card", "slot": 2, "at": "B2"})  # already has one


def test_ships_only_beside_the_sea():
    state = fresh()
    lay(state, ANNA, "S", "B1")
    ship = card_named(state, "ship")
    buying(state, ANNA, [{"card": ship}])
    spots = {m["at"] for m in GAME.legal_moves(state, ANNA) if m.get("slot") == 1}
    assert spots == {"B1"}
    with pytest.raises(IllegalMove, match="beside the sea"):
        apply(state, ANNA, {"type": "buy_card", "slot": 1, "at": "E4"})
    apply(state, ANNA, {"type": "buy_card", "slot": 1, "at": "B1"})
    # a ship moves only to another coastal tile
    with pytest.raises(IllegalMove, match="beside the sea"):
        apply(state, ANNA, {"type": "move", "figure": "ship", "from": "B1", "to": "B2"})


def test_a_starter_tile_with_one_coastal_half_takes_a_ship():
    state = fresh()
    cleo_ship = card_named(state, "ship")
    buying(state, CLEO, [{"card": cleo_ship}])
    spots = {m["at"] for m in GAME.legal_moves(state, CLEO) if m.get("slot") == 1}
    assert "K6" in spots  # Palomer's field K6-K7 on the east coast
    assert "H2" not in spots  # row 2 is not coast


def test_coast_includes_the_parcels_beside_the_missing_corner():
    assert rules.COASTAL[CELL_INDEX["J1"]] and rules.COASTAL[CELL_INDEX["K2"]]
    assert not rules.COASTAL[CELL_INDEX["J2"]]
    assert "K1" not in CELL_INDEX


def test_barns_never_move_pilgrims_do():
    state = fresh()
    figure(state, ANNA, "barn", "B2")
    figure(state, ANNA, "pilgrim", "E4")
    buying(state, ANNA, [{"tile": "F"}])
    with pytest.raises(IllegalMove, match="barns stay"):
        apply(state, ANNA, {"type": "move", "figure": "barn", "from": "B2", "to": "G8"})
    apply(state, ANNA, {"type": "move", "figure": "pilgrim", "from": "F4", "to": "G9"})
    assert rules.tile_at(state, CELL_INDEX["G8"])["figure"] == "pilgrim"
    assert not any(
        m["type"] == "move" and m["figure"] == "barn" for m in GAME.legal_moves(state, ANNA)
    )


def test_figures_move_only_during_own_buying_turn():
    state = fresh()
    figure(state, ANNA, "pilgrim", "E4")
    buying(state, BEN, [{"tile": "F"}])
    with pytest.raises(IllegalMove, match="not your turn"):
        apply(state, ANNA, {"type": "move", "figure": "pilgrim", "from": "E4", "to": "G8"})
