"""The map: areas, districts, the open area, and where a building may stand."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from games.engine.words import Text, _

from .data import BOARDS, BUILDINGS, DIRS, STEP, Board, Building, cell_xy, xy_cell

DIR_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}
RIGHT = {"N": "E", "E": "S", "S": "W", "W": "N"}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


class Geometry:
    """Precomputed lookups for one board side."""

    def __init__(self, board: Board):
        self.board = board
        self.area: dict[str, str] = {}
        for cell in board.market:
            self.area[cell] = "market"
        for cell in board.city:
            self.area[cell] = "city"
        for cell in board.countryside:
            self.area[cell] = "country"
        for cell in board.lake:
            self.area[cell] = "lake"
        self.land = tuple(board.city) + tuple(board.countryside)
        self.partner: dict[str, str] = {}
        for a, b in board.tiles:
            self.partner[a] = b
            self.partner[b] = a
        self.tile_key = {a: a for a, _b in board.tiles} | {b: a for a, b in board.tiles}
        self.district = {c: d for d, cells in board.districts.items() for c in cells}
        self.neighbours: dict[str, dict[str, str | None]] = {}
        for cell in self.area:
            x, y = cell_xy(cell)
            self.neighbours[cell] = {}
            for d in DIRS:
                dx, dy = STEP[d]
                other = xy_cell(x + dx, y + dy)
                self.neighbours[cell][d] = other if other in self.area else None
        self.by_water = frozenset(
            c
            for c in board.city
            if any(n is not None and self.area[n] == "lake" for n in self.neighbours[c].values())
        )
        # Forest reachability per tile (both spaces of a tile give the same answer): a tile
        # is always open when a space of it lies in the outer area or borders the Market;
        # otherwise it is open once one of the land spaces bordering it is cleared.
        self.forest_always: dict[str, bool] = {}
        self.forest_borders: dict[str, tuple[str, ...]] = {}
        for a, b in board.tiles:
            always = False
            borders: list[str] = []
            for spot in (a, b):
                if self.area[spot] == "country":
                    always = True
                for other in self.neighbours[spot].values():
                    if other is None:
                        continue
                    kind = self.area[other]
                    if kind == "market":
                        always = True
                    elif kind in ("city", "country") and other not in borders:
                        borders.append(other)
            for spot in (a, b):
                self.forest_always[spot] = always
                self.forest_borders[spot] = tuple(borders)
        # Per space of a tile: the tile's first space in board order (how it is named).
        self.tile_first = {c: sort_cells([a, b])[0] for a, b in board.tiles for c in (a, b)}
        # Tile keys in board order (row, then column), for open_forest.
        self.tile_keys_sorted = tuple(sort_cells(a for a, _b in board.tiles))

    def next_to(self, cell: str, d: str) -> str | None:
        return self.neighbours[cell][d]


@cache
def geometry(key: str) -> Geometry:
    return Geometry(BOARDS[key])


def _row_col(cell) -> tuple[int, int]:
    x, y = cell_xy(cell)
    return y, x


# (row, column) of every cell of both boards, the sort key of sort_cells.
_ROW_COL = {
    xy_cell(x, y): (y, x)
    for b in BOARDS.values()
    for x in range(b.columns + 1)
    for y in range(b.rows + 1)
}


def _cell_key(cell) -> tuple[int, int]:
    try:
        return _ROW_COL[cell]
    except (KeyError, TypeError):  # not a board cell: the same key (or error) as ever
        return _row_col(cell)


def sort_cells(cells) -> list[str]:
    return sorted(cells, key=_cell_key)


def sort_spaces(cells: list[str]) -> list[str]:
    """sort_cells for a building's spaces known to be board spaces (checked, or a logged
    move's): one or two, so a pair is compared rather than sorted."""
    if len(cells) == 1:
        return list(cells)
    if len(cells) == 2:
        a, b = cells
        return [a, b] if _ROW_COL[a] <= _ROW_COL[b] else [b, a]
    return sorted(cells, key=_ROW_COL.__getitem__)


def footprint(anchor: str, size: int, facing: str) -> list[str] | None:
    """The cells of a building whose front faces `facing`; a 2-space building extends to
    the right of its anchor (seen from the front)."""
    if size == 1:
        return [anchor]
    x, y = cell_xy(anchor)
    dx, dy = STEP[RIGHT[facing]]
    return [anchor, xy_cell(x + dx, y + dy)]


def edge_at(building: Building, facing: str, d: str) -> str:
    return building.edges[(DIR_INDEX[d] - DIR_INDEX[facing]) % 4]


def forest_open(state, cell: str) -> bool:
    """May the forest tile on `cell` be taken? It must lie in the outer area, or in the city
    bordering the Market or the open area (cleared land) [rulebook Woodcutter]."""
    forest = state["forest"]
    return cell in forest and _cell_open(geometry(state["board"]), forest, cell)


def _cell_open(geo: Geometry, forest, cell: str) -> bool:
    """forest_open for a `cell` known to be covered."""
    if geo.forest_always[cell]:
        return True
    for other in geo.forest_borders[cell]:
        if other not in forest:
            return True
    return False


def _tile_open(geo: Geometry, forest, key: str) -> bool:
    """forest_open for either space of the tile whose first space is `key`."""
    cell = key if key in forest else geo.partner[key]
    return cell in forest and _cell_open(geo, forest, cell)


def open_forest(state) -> list[str]:
    """One space (the tile's first) per forest tile that may be taken."""
    geo = geometry(state["board"])
    forest = state["forest"]
    return [k for k in geo.tile_keys_sorted if _tile_open(geo, forest, k)]


def any_forest_open(state) -> bool:
    """bool(open_forest(state)), without building the list. It looks only at the spaces
    still covered (fewer as the game goes on); both spaces of a tile give the same answer."""
    geo = geometry(state["board"])
    forest = state["forest"]
    always, borders = geo.forest_always, geo.forest_borders
    for cell in forest:  # _cell_open, written out: the Woodcutter asks after every move
        if always[cell]:
            return True
        for other in borders[cell]:
            if other not in forest:
                return True
    return False


def placement_error(state, building: Building, cells: list[str], facing: str | None) -> Text | str:
    """Why `building` may not stand on `cells` facing `facing`; '' when it may."""
    geo = geometry(state["board"])
    occupied = state["cells"]
    for cell in cells:
        area = geo.area.get(cell)
        if area not in ("city", "country"):
            return _("{cell} is not a building space.", cell=cell)
        if cell in state["forest"]:
            return _("{cell} is still covered by forest.", cell=cell)
        if cell in occupied:
            return _("{cell} is already built on.", cell=cell)
    areas = {geo.area[c] for c in cells}
    if len(areas) > 1:
        return _("A building stands wholly in the city or wholly in the outer area.")
    if len(cells) == 2:
        (x1, y1), (x2, y2) = cell_xy(cells[0]), cell_xy(cells[1])
        if abs(x1 - x2) + abs(y1 - y2) != 1:
            return _("The two spaces of a building must be side by side.")
    area = areas.pop()
    if building.colour == "green" and area != "country":
        return _(
            "The {building} is green: it may only be built in the outer area.",
            building=building.name,
        )
    if area == "country":
        if building.key == "citygate":
            return _("The City Gate stands in the city, on its border with the outer area.")
        return ""
    if facing is None:
        return _("Say which way a building in the city faces (north, east, south or west).")
    if len(cells) == 2:
        anchor_cells = footprint(cells[0], 2, facing)
        if sort_cells(anchor_cells) != sort_cells(cells):
            anchor_cells = footprint(cells[1], 2, facing)
            if sort_cells(anchor_cells) != sort_cells(cells):
                return _("A two-space building faces along its long side.")
    touches = False
    for cell in cells:
        for d in DIRS:
            other = geo.neighbours[cell][d]
            if other in cells:
                continue
            mine = edge_at(building, facing, d)
            if mine == "G":
                if other is None or geo.area[other] != "country":
                    return _("The City Gate's green edge must border the outer area.")
                continue
            if other is None:
                continue
            kind = geo.area[other]
            if kind == "market":
                touches = True
                if mine != "S":
                    return _(
                        "The Market has stone roads; the {building}'s {side} edge is sand.",
                        building=building.name,
                        side=d,
                    )
            elif other in occupied:
                touches = True
                if kind == "city":
                    there = state["buildings"][occupied[other]]
                    theirs = edge_at(BUILDINGS[there["kind"]], there["facing"], OPPOSITE[d])
                    if theirs != mine:
                        return _(
                            "Roads must match: the {building}'s {side} edge is {mine}, the "
                            "neighbour's is {theirs}.",
                            building=building.name,
                            side=d,
                            mine=_("stone") if mine == "S" else _("sand"),
                            theirs=_("stone") if theirs == "S" else _("sand"),
                        )
    if not touches:
        return _("A building in the city must border the Market or another building.")
    return ""


def facings(building: Building) -> tuple[str, ...]:
    """Facings worth offering: a building with the same road on every side needs one."""
    if building.edges is None or len(set(building.edges)) == 1:
        return ("N",) if building.size == 1 else ("N", "E")
    return DIRS


@cache
def candidates(board_key: str, edges: str | None, size: int, green: bool, gate: bool) -> tuple:
    """Every footprint a building of this shape could take on an empty board, with the
    outer edges to check: (cells, facing, area, ((neighbour, own material, side), ...))."""
    geo = geometry(board_key)
    shape = Building("shape", "shape", 0, "green" if green else "brown", 0, 0, 0, 0, size, edges)
    found = []
    seen: set = set()
    for cell in geo.land:
        area = geo.area[cell]
        if area == "country":
            if gate:
                continue
            spots = [[cell]] if size == 1 else []
            if size == 2:
                for d in ("E", "S"):
                    other = geo.neighbours[cell][d]
                    if other is not None and geo.area[other] == "country":
                        spots.append(sort_cells([cell, other]))
            for cells in spots:
                found.append((tuple(cells), None, "country", ()))
            continue
        if green:
            continue
        for f in facings(shape):
            cells = footprint(cell, size, f)
            if any(geo.area.get(c) != "city" for c in cells):
                continue
            cells = sort_cells(cells)
            sig = (tuple(cells), tuple(edge_at(shape, f, d) for d in DIRS), size == 2 and f in "NS")
            if sig in seen:
                continue
            seen.add(sig)
            outer = []
            ok = True
            for c in cells:
                for d in DIRS:
                    other = geo.neighbours[c][d]
                    if other in cells:
                        continue
                    mine = edge_at(shape, f, d)
                    if mine == "G" and (other is None or geo.area[other] != "country"):
                        ok = False
                    if other is not None and mine != "G":
                        outer.append((other, mine, OPPOSITE[d]))
            if ok:
                found.append((tuple(cells), f, "city", tuple(outer)))
    return tuple(found)


def canonical_facing(board_key: str, building: Building, cells: list[str], facing):
    """The facing the move menu uses for a placement with these exact roads (a House facing
    north and one facing south may give the same roads on the same spaces)."""
    if facing not in DIRS or building.edges is None:
        return facing
    mine = tuple(edge_at(building, facing, d) for d in DIRS)
    shape = candidates(
        board_key,
        building.edges,
        building.size,
        building.colour == "green",
        building.key == "citygate",
    )
    for spots, f, _area, _outer in shape:
        if list(spots) == cells and f is not None:
            if tuple(edge_at(building, f, d) for d in DIRS) == mine:
                return f
    return facing


def placements(
    state, building: Building, memo: dict | None = None
) -> list[tuple[list[str], str | None]]:
    """Every (cells, facing) where `building` may stand now (one per distinct result).
    `memo` shares the search between buildings of the same shape within one enumeration."""
    shape_key = (building.edges, building.size, building.colour == "green", building.key)
    if building.key != "citygate":
        shape_key = shape_key[:3]
    if memo is not None and shape_key in memo:
        return memo[shape_key]
    result = list(_each_placement(state, building))
    if memo is not None:
        memo[shape_key] = result
    return result


def has_placement(state, building: Building) -> bool:
    """bool(placements(...)), stopping at the first place found (the driver asks after every
    move whether the builder has a choice)."""
    return next(_each_placement(state, building), None) is not None


# The road a standing building shows on each side: (kind, facing, side) -> material.
_EDGES = {
    (key, facing, side): edge_at(b, facing, side)
    for key, b in BUILDINGS.items()
    if b.edges is not None
    for facing in DIRS
    for side in DIRS
}


def _edge(kind: str, facing, side: str) -> str:
    try:
        return _EDGES[kind, facing, side]
    except (KeyError, TypeError):  # not a standing city building: as edge_at has it
        return edge_at(BUILDINGS[kind], facing, side)


@cache
def _checks(board_key: str, edges: str | None, size: int, green: bool, gate: bool) -> tuple:
    """`candidates` with what the board alone decides settled: the footprints a Market
    border rules out (a sand road onto the Market) dropped, whether one touches the Market,
    and the borders left to check against the buildings standing there:
    (cells, facing, country, touches market, ((neighbour, own material, side, in city), ...))."""
    area = geometry(board_key).area
    found = []
    for cells, facing, where, outer in candidates(board_key, edges, size, green, gate):
        if where == "country":
            found.append((cells, None, True, False, ()))
            continue
        if any(area[other] == "market" and mine != "S" for other, mine, _side in outer):
            continue
        market = any(area[other] == "market" for other, _mine, _side in outer)
        rest = tuple(
            (other, mine, side, area[other] == "city")
            for other, mine, side in outer
            if area[other] != "market"
        )
        found.append((cells, facing, False, market, rest))
    return tuple(found)


def _each_placement(state, building: Building) -> Iterator[tuple[list[str], str | None]]:
    """The places `placements` lists, one at a time, in its order."""
    geo = geometry(state["board"])
    forest, occupied, buildings = state["forest"], state["cells"], state["buildings"]
    free = {c for c in geo.land if c not in forest and c not in occupied}
    if not free:
        return
    shape = _checks(
        state["board"],
        building.edges,
        building.size,
        building.colour == "green",
        building.key == "citygate",
    )
    for cells, facing, country, market, rest in shape:
        if cells[0] not in free or (len(cells) == 2 and cells[1] not in free):
            continue
        if country:
            yield list(cells), None
            continue
        touches = market
        for other, mine, side, city in rest:
            if other in occupied:
                touches = True
                if city:
                    there = buildings[occupied[other]]
                    if _edge(there["kind"], there["facing"], side) != mine:
                        break
        else:
            if touches:
                yield list(cells), facing


def district_of(state, cells: list[str]) -> set[str]:
    geo = geometry(state["board"])
    return {geo.district[c] for c in cells if c in geo.district}
