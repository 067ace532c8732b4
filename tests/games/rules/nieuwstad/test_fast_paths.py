"""The precomputed tables and short cuts give what the plain definitions give, position by
position over bot games (the plain definitions are written out here)."""

import pytest

from games.engine import event_rng, playout
from games.rules.nieuwstad import GAME
from games.rules.nieuwstad import geometry as B
from games.rules.nieuwstad import rules as R
from games.rules.nieuwstad.data import BUILDINGS, cell_xy
from games.rules.nieuwstad.rules import merchant


def plain_forest_open(state, cell):
    geo = B.geometry(state["board"])
    if cell not in state["forest"]:
        return False
    for spot in (cell, geo.partner[cell]):
        if geo.area[spot] == "country":
            return True
        for other in geo.neighbours[spot].values():
            if other is None:
                continue
            kind = geo.area[other]
            if kind == "market":
                return True
            if kind in ("city", "country") and other not in state["forest"]:
                return True
    return False


def plain_open_forest(state):
    geo = B.geometry(state["board"])
    found = {geo.tile_key[c] for c in state["forest"] if plain_forest_open(state, c)}
    return sorted(found, key=lambda c: (cell_xy(c)[1], cell_xy(c)[0]))


def plain_placements(state, building):
    geo = B.geometry(state["board"])
    forest, occupied, buildings = state["forest"], state["cells"], state["buildings"]
    free = {c for c in geo.land if c not in forest and c not in occupied}
    if not free:
        return []
    result = []
    shape = B.candidates(
        state["board"],
        building.edges,
        building.size,
        building.colour == "green",
        building.key == "citygate",
    )
    for cells, facing, where, outer in shape:
        if cells[0] not in free or (len(cells) == 2 and cells[1] not in free):
            continue
        if where == "country":
            result.append((list(cells), None))
            continue
        touches = False
        for other, mine, side in outer:
            kind = geo.area[other]
            if kind == "market":
                touches = True
                if mine != "S":
                    break
            elif other in occupied:
                touches = True
                if kind == "city":
                    there = buildings[occupied[other]]
                    if B.edge_at(BUILDINGS[there["kind"]], there["facing"], side) != mine:
                        break
        else:
            if touches:
                result.append((list(cells), facing))
    return result


def plain_income(state, seat):
    return len(R.owned(state, seat, "house")) + 2 * len(R.owned(state, seat, "manor"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_short_cuts_match_the_plain_definitions(players):
    for n in range(3):
        game = playout.play(GAME, players, seed=f"fast-paths-{players}-{n}")
        state = GAME.setup(playout.player_names(players), game.options, event_rng(game.seed, 0))
        for seq, (seat, move, _source) in enumerate(game.log, start=1):
            assert B.open_forest(state) == plain_open_forest(state)
            assert B.any_forest_open(state) == bool(plain_open_forest(state))
            for cell in state["forest"]:
                assert B.forest_open(state, cell) == plain_forest_open(state, cell)
            for building in BUILDINGS.values():
                assert B.placements(state, building) == plain_placements(state, building)
            assert R.house_counts(state) == [plain_income(state, s) for s in range(players)]
            for kind in BUILDINGS:
                assert R.built(state, kind) == any(
                    b["kind"] == kind for b in state["buildings"].values()
                )
            if state["phase"] == "act" and state["act"]["char"] == "merchant":
                for s in range(players):
                    trades = next(merchant._trades(state, s), None) is not None
                    assert trades == (R.merchant_moves(state, s) != [{"type": "done"}])
            state = GAME.apply(state, seat, move, event_rng(game.seed, seq))
        assert state == game.final
