"""New England: the parcels of a development are clicked in any order, and a picked parcel
clicked again is taken out (the rulebook: "double clicking a selected tile will de-select
it")."""

import re

import pytest

from games import builder
from tests.web.test_move_preview import page_for, play_until

pytestmark = pytest.mark.django_db


def develops(game, state, seat, move) -> bool:
    return move["type"] == "buy_card" and len(move.get("cells", ())) >= 2


def deselect_links(page: str) -> dict[str, str]:
    found = {}
    for tag in re.findall(r'<a [^>]*class="deselect"[^>]*>', page):
        target = re.search(r'data-deselect="([^"]+)"', tag).group(1)
        found[target] = re.search(r'href="([^"#]+)', tag).group(1).replace("&amp;", "&")
    return found


def test_parcels_in_any_order_and_a_picked_one_clicked_again_is_taken_out(anna):
    match, state, mine, move = play_until(anna, "new-england", 3, develops, seed="parcels")
    game = match.game
    slot = f"slot:{move['slot']}"
    cells = [f"cell:{c}" for c in move["cells"]]
    # The last parcel first: the order of the clicks does not matter.
    backwards = [slot, *reversed(cells)]
    built = builder.build(game, state, mine, backwards)
    assert not built.error and built.move is not None
    assert game.format_move(state, mine, built.move) == game.format_move(state, mine, move)

    page = page_for(anna, match, [slot, cells[-1]])
    assert "clicked again is taken out of the move" in page
    links = deselect_links(page)
    assert set(links) == {cells[-1]}  # the picked parcel, and only it, takes itself out
    assert f'data-target="{cells[-1]}"' in page and 'class="picked"' in page
    assert links[cells[-1]].split("?", 1)[1] == f"s={slot.replace(':', '%3A')}"
    assert 'class="deselect"' not in page_for(anna, match, [slot])
    # With two picked, taking out the first keeps the second.
    two = builder.build(game, state, mine, [slot, cells[0], cells[1]])
    assert two.deselect[cells[0]] == (slot, cells[1])
    assert two.deselect[cells[1]] == (slot, cells[0])
    one = builder.build(game, state, mine, list(two.deselect[cells[0]]))
    clicked = [t.step.target for t in one.taken if t.undo is not None]
    assert not one.error and clicked == [slot, cells[1]]
