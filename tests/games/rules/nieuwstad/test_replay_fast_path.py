"""Replaying a logged move (`replay_move`: the checks that can only refuse it skipped) gives
the position `apply` gives, move by move, in both rules versions and with the variants; and
the short cuts the replay leans on give what the plain definitions give."""

import pytest

from games.engine import copy_state, event_rng, get_game, playout
from games.replay import replay_rows
from games.rules.nieuwstad import geometry as B
from games.rules.nieuwstad import rules as R
from games.rules.nieuwstad.data import BOARDS, BUILDINGS, STALL_SLOTS
from games.rules.nieuwstad.rules import merchant

from .helpers import game_at_choice, put, send

VARIANTS = [
    (1, 4, {}),
    (1, 2, {"blue_alone": True}),
    (2, 2, {"blue_alone": True, "joint": True}),
    (2, 3, {"joint": True}),
    (2, 4, {"resow": True}),
]


def plain_card_points_gates(state, seat):
    gates = R.owned(state, seat, "citygate")
    outer = [
        b
        for b in state["buildings"].values()
        if b["owner"] == seat and B.geometry(state["board"]).area[b["cells"][0]] == "country"
    ]
    return len(gates) * len(outer)


def plain_best_district_party(state, seat):
    best = 0
    for cells in BOARDS[state["board"]].districts.values():
        mine = {
            state["cells"][c]
            for c in cells
            if c in state["cells"] and state["buildings"][state["cells"][c]]["owner"] == seat
        }
        best = max(best, len(mine) + (3 if all(c in state["cells"] for c in cells) else 0))
    return best


@pytest.mark.parametrize(("version", "players", "options"), VARIANTS)
def test_replay_move_gives_the_positions_apply_gives(version, players, options):
    game = get_game("nieuwstad", version)
    log = playout.play(game, players, seed=f"replay-fast-{version}-{players}", options=options)
    names = playout.player_names(players)
    checked = game.setup(names, log.options, event_rng(log.seed, 0))
    trusted = copy_state(checked)
    for seq, (seat, move, _source) in enumerate(log.log, start=1):
        checked = game.apply(checked, seat, move, event_rng(log.seed, seq))
        trusted = game.replay_move(trusted, seat, dict(move), event_rng(log.seed, seq))
        assert trusted == checked, f"move {seq}: {move}"
    assert trusted == log.final


@pytest.mark.parametrize(("version", "players", "options"), VARIANTS)
def test_an_unnarrated_replay_differs_from_apply_only_in_news(version, players, options):
    """`narrate` False (a move whose news nobody reads): every key but `news` as `apply`
    leaves it, move by move; the last move narrated gives `apply`'s position exactly."""
    game = get_game("nieuwstad", version)
    log = playout.play(game, players, seed=f"replay-quiet-{version}-{players}", options=options)
    names = playout.player_names(players)
    checked = game.setup(names, log.options, event_rng(log.seed, 0))
    quiet = copy_state(checked)
    last = len(log.log)
    for seq, (seat, move, _source) in enumerate(log.log, start=1):
        checked = game.apply(checked, seat, move, event_rng(log.seed, seq))
        narrate = seq == last
        quiet = game.replay_move(quiet, seat, dict(move), event_rng(log.seed, seq), narrate)
        if narrate:
            assert quiet == checked
        else:
            assert quiet["news"] == []
            assert {**quiet, "news": None} == {**checked, "news": None}, f"move {seq}: {move}"
    assert quiet == log.final


def test_replay_rows_narrates_the_position_it_ends_on():
    """The whole replay path (only the last move narrated) ends on the logged position."""
    game = get_game("nieuwstad", 2)
    log = playout.play(game, 3, seed="replay-rows-quiet", options={"joint": True})
    state = game.setup(playout.player_names(3), log.options, event_rng(log.seed, 0))
    rows = [(seq, seat, "move", move) for seq, (seat, move, _s) in enumerate(log.log, start=1)]
    assert replay_rows(game, state, rows, log.seed) == log.final


# (version, players, options, seed, whether a City Gate is built): the second seed was
# picked for its City Gate (so the card points look for one), in the "joint" variant (so
# every building may be proposed); the third for the end-of-game cards its players hold
# (the District Party among them).
SHORT_CUT_GAMES = [
    (1, 2, {"blue_alone": True}, "short-1-2", False),
    (2, 4, {"joint": True}, "dig-joint-2-4-0", True),
    (2, 4, {}, "bd-4", False),
]


@pytest.mark.parametrize(("version", "players", "options", "seed", "gate"), SHORT_CUT_GAMES)
def test_short_cuts_match_the_plain_definitions(version, players, options, seed, gate):
    game = get_game("nieuwstad", version)
    log = playout.play(game, players, seed=seed, options=options)
    assert gate == any(move.get("building") == "citygate" for _s, move, _ in log.log)
    state = game.setup(playout.player_names(players), log.options, event_rng(log.seed, 0))
    for seq, (seat, move, _source) in enumerate(log.log, start=1):
        for s in range(players):
            assert R.clockwise(state, s) == [(s + i) % players for i in range(players)]
            gates = R.card_points(state, s).get("citygate", 0)
            assert gates == plain_card_points_gates(state, s)
            plain_total = state["players"][s]["points"] + sum(R.card_points(state, s).values())
            assert R.total_points(state, s) == plain_total
            assert R.best_district_party(state, s) == plain_best_district_party(state, s)
        assert R.any_starting_option(state) == bool(R.starting_options(state, 0))
        if state["phase"] == "act":
            for s in range(players):
                if state["act"]["char"] == "merchant":
                    assert R.can_trade(state, s) == bool(list(merchant._trades(state, s)))
                if s not in state["act"]["proposed"]:
                    plain = any(R.proposable(state, s, b) for b in BUILDINGS.values())
                    assert R.can_propose_any(state, s) == plain
        state = game.apply(state, seat, move, event_rng(log.seed, seq))


def test_a_tile_is_named_by_its_first_space_in_board_order():
    for key in ("small", "large"):
        geo = B.geometry(key)
        for a, b in geo.board.tiles:
            assert geo.tile_first[a] == geo.tile_first[b] == B.sort_cells([a, b])[0]


def test_a_buildings_spaces_sort_as_sort_cells_sorts_them():
    for key in ("small", "large"):
        spaces = list(B.geometry(key).area)
        for a in spaces:
            assert B.sort_spaces([a]) == B.sort_cells([a])
            for b in spaces:
                assert B.sort_spaces([a, b]) == B.sort_cells([a, b])


def test_the_farmers_extra_goes_onto_the_field_first_by_its_spaces_name():
    """The fields are not sorted any more: the extra still goes onto the field whose first
    space's name comes first (the order they were once sorted in), not the first built."""
    state = game_at_choice(3)
    first, later = sorted(BOARDS[state["board"]].countryside)[-2:]
    put(state, 0, "grainfield", [later])  # built first
    put(state, 0, "grainfield", [first])
    send(state, 0, "farmer")
    send(state, 0, "farm extra grain")
    assert state["buildings"][state["cells"][first]]["crop"] == 2
    assert state["buildings"][state["cells"][later]]["crop"] == 1


def test_stall_slots_count_the_thresholds_reached():
    """stall_slots bisects the thresholds, so they must rise."""
    state = {"burghers": 0, "slots": {}}
    for stall, need in STALL_SLOTS.items():
        assert list(need) == sorted(need)
        for burghers in range(0, 70):
            state["burghers"] = burghers
            assert R.stall_slots(state, stall) == sum(1 for b in need if burghers >= b)
