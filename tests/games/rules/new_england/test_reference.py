"""New England's compact menu and reference: every purchase can be written from the email's
text, each card's land, shape and points are printed beside the parcels where it fits."""

import pytest

from games.commands import choices_text
from games.engine.menus import render_reference
from games.rules.new_england import GAME
from games.rules.new_england.data import CARDS, SHAPES
from games.rules.new_england.text import shape_picture
from tests.games.rules.menus_check import check_compact_menu, check_numbered_menu, positions


@pytest.mark.parametrize("players", [3, 4])
def test_every_legal_move_can_be_written_from_the_compact_text(players):
    checked = biggest = 0
    for n, (state, seat) in enumerate(positions(GAME, players, f"menu-{players}")):
        if n % 2 and len(GAME.legal_moves(state, seat)) <= 30:
            continue
        biggest = max(biggest, check_compact_menu(GAME, state, seat))
        checked += 1
    assert checked > 20
    assert biggest > 30


def test_short_menus_stay_numbered():
    for n, (state, seat) in enumerate(positions(GAME, 3, "numbered")):
        if n % 3 == 0:
            check_numbered_menu(GAME, state, seat)


def test_a_development_card_line_shows_its_shape_points_and_parcels():
    for state, seat in positions(GAME, 3, "menu-3"):
        moves = GAME.legal_moves(state, seat)
        develop = [m for m in moves if m["type"] == "buy_card" and "cells" in m]
        if develop and len(moves) > 30:
            break
    else:
        raise AssertionError("no purchase of a land development in the playout")
    text = choices_text(GAME, state, seat)
    card = CARDS[state["selection"][develop[0]["slot"] - 1]["card"]]
    head = next(
        line for line in text.splitlines() if line.startswith(f"  buy card {develop[0]['slot']}")
    )
    assert shape_picture(card.shape) in head and f"{card.points} points" in head
    assert " ".join(develop[0]["cells"]) in text


def test_the_reference_draws_every_shape_and_explains_the_marks():
    state, seat = next(positions(GAME, 4, "ref"))
    sections = GAME.reference(GAME.view(state, seat))
    shapes = next(s for s in sections if s.key == "shapes")
    assert [r[0] for r in shapes.rows] == list(SHAPES)
    text = render_reference(sections)
    assert "Annable" in text and "s settlement" in text and "* pilgrim" in text
    assert all(len(line) <= 78 for line in text.splitlines())


def test_the_selection_table_names_each_cards_shape():
    for state, seat in positions(GAME, 3, "menu-3"):  # noqa: B007 - the first buying turn
        if state["phase"] == "buy":
            break
    sections = GAME.reference(GAME.view(state, seat))
    offer = next(s for s in sections if s.key == "selection")
    for slot, item in enumerate(state["selection"], 1):
        if item and "card" in item and CARDS[item["card"]].kind == "land":
            row = next(r for r in offer.rows if r[0] == str(slot))
            assert shape_picture(CARDS[item["card"]].shape) in row[2]
