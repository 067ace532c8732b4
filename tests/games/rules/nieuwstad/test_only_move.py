"""`only_move` (what the driver asks after every move) answers as the listed moves would, for
both rules versions, without listing a builder's proposals: a builder may always pass, so
one card, build or proposal found is enough to say he has a choice."""

import pytest

from games.engine import event_rng, playout
from games.rules.nieuwstad import GAME, GAME_V1
from games.rules.nieuwstad import moves as M
from games.rules.nieuwstad import rules as R
from games.rules.nieuwstad.data import BUILDINGS
from games.rules.nieuwstad.rules import proposals

from .helpers import NAMES, clear, give, walk

COR, EMILY, BRAM = 0, 1, 2
PASS = {"type": "pass"}


def listed(game, state, seat):
    legal = game.legal_moves(state, seat)
    return legal[0] if len(legal) == 1 else None


@pytest.fixture(params=[GAME_V1, GAME], ids=["v1", "v2"])
def builder(request):
    """(game, state): Cor has chosen the Master Builder and builds first; D3 (beside the
    Market) is cleared; everyone has 5 guilders and 5 wood."""
    game = request.param
    state = game.setup(NAMES[:3], game.validate_options(3, {}), event_rng("only", 0))
    R.start_round(state)
    state["news"] = []
    clear(state, "D3", "A1")
    for seat in (COR, EMILY, BRAM):
        give(state, seat, guilders=5, wood=5, plank=0)
    state = game.apply(state, COR, game.parse("master builder", state, COR), event_rng("o", 1))
    assert game.to_act(state) == [COR]
    return game, state


def test_a_builder_who_can_pay_for_nothing_may_only_pass(builder):
    game, state = builder
    give(state, COR, guilders=0, wood=0)  # nothing alone, and his share of any proposal
    assert game.legal_moves(state, COR) == [PASS]
    assert game.only_move(state, COR) == PASS


def test_a_builder_who_may_only_propose_has_a_choice(builder):
    """No light seal left: nothing alone, but the community buildings with the others."""
    game, state = builder
    state["players"][COR]["light"] = 0
    give(state, EMILY, guilders=1, wood=0)
    give(state, BRAM, guilders=0, wood=0)
    legal = game.legal_moves(state, COR)
    assert {m["type"] for m in legal} == {"propose", "pass"} and len(legal) > 1
    assert game.only_move(state, COR) is None
    if game.version >= 2:  # Emily pays what she can: the Well with her alone is offered
        assert any(m["building"] == "well" and m.get("seats") == [COR, EMILY] for m in legal)


def test_a_builder_who_has_proposed_and_has_no_seal_may_only_pass(builder):
    game, state = builder
    state["players"][COR]["light"] = 0
    state["act"]["proposed"].append(COR)
    assert game.legal_moves(state, COR) == [PASS]
    assert game.only_move(state, COR) == PASS


def test_the_answer_stops_at_the_first_proposal(builder, monkeypatch):
    """The Town Hall with Emily, the menu's first proposal, is possible: no other partner set
    or building is looked at. (Counted where `menu_partners` looks the terms up: in the
    proposals module.)"""
    game, state = builder
    state["players"][COR]["light"] = 0
    looked_at = []
    terms = proposals.menu_split if game.version >= 2 else proposals.split_evenly
    monkeypatch.setattr(
        proposals, terms.__name__, lambda *args, **kw: looked_at.append(args) or terms(*args, **kw)
    )
    assert M.only_move(state, COR) is None
    assert len(looked_at) == 1
    looked_at.clear()
    M.legal_moves(state, COR)
    assert len(looked_at) > 1


def test_a_played_housebuilding_card_is_a_choice(builder):
    game, state = builder
    give(state, COR, guilders=0, wood=0)
    state["deck"].remove("housebuilding")
    state["players"][COR]["hand"].append("housebuilding")
    assert game.legal_moves(state, COR)[0] == {"type": "play", "card": "housebuilding"}
    assert game.only_move(state, COR) is None


def test_every_proposal_in_the_menu_is_within_the_rulebooks_limits():
    """menu_split checks the terms it makes itself (within_limits) rather than through
    check_terms: check_terms accepts every proposal the menu lists, with the same terms."""
    found = 0
    for state in walk(4, "limits"):
        for seat in GAME.to_act(state):
            for move in GAME.legal_moves(state, seat):
                if move["type"] == "propose":
                    building = BUILDINGS[move["building"]]
                    terms = R.check_terms(state, seat, building, move)
                    assert terms == R.move_terms(state, seat, move)
                    found += 1
    assert found > 0


@pytest.mark.parametrize("game", [GAME_V1, GAME], ids=["v1", "v2"])
@pytest.mark.parametrize(
    ("players", "options"),
    [(3, {"joint": True}), (2, {"blue_alone": True}), (2, {"blue_alone": True, "joint": True})],
)
def test_the_variants_answer_as_the_listed_moves(game, players, options):
    """tests/games/test_only_move.py plays without options; here Tycho's variants, every seat."""
    for n in range(2):
        log = playout.play(game, players, seed=f"only-{n}", options=options)
        state = game.setup(playout.player_names(players), log.options, event_rng(log.seed, 0))
        for seq, (seat, move, _source) in enumerate(log.log, start=1):
            for someone in range(players):
                expected = listed(game, state, someone)
                assert game.only_move(state, someone) == expected, (log.seed, seq, someone)
            state = game.apply(state, seat, move, event_rng(log.seed, seq))
