"""A game's own board fragment, the text board beside it, and long lists of moves."""

import copy

import pytest
from django.urls import reverse

from games.pages import BUTTON_LIMIT, group_commands
from tests.web.conftest import hand_of, logged_in, seat_of

pytestmark = pytest.mark.django_db

BOARD = (
    '<div id="test-board">seat={{ seat }} trick={{ view.trick }}{% for c in legal_commands %}'
    '<button form="move-form" name="command" value="{{ c }}">{{ c }}</button>{% endfor %}</div>'
)


@pytest.fixture
def board_template(settings, tmp_path):
    folder = tmp_path / "games" / "sealed-cards"
    folder.mkdir(parents=True)
    (folder / "board.html").write_text(BOARD)
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [tmp_path, *templates[0]["DIRS"]]
    settings.TEMPLATES = templates


def test_the_games_board_is_included_with_view_seat_and_commands(board_template, duel, anna):
    page = logged_in(anna).get(reverse("match_detail", args=[duel.pk])).content.decode()
    card = hand_of(duel, anna)[0]
    assert f"seat={seat_of(duel, anna)} trick=1" in page
    assert f'<button form="move-form" name="command" value="play {card}">' in page
    assert 'id="text-board"' in page  # the text board is still offered


def test_a_spectator_gets_the_board_with_no_seat_and_no_commands(
    board_template, watched_duel, outsider
):
    page = logged_in(outsider).get(reverse("match_detail", args=[watched_duel.pk]))
    page = page.content.decode()
    assert "seat=None trick=1" in page
    assert 'form="move-form"' not in page


def test_short_lists_are_one_group_and_long_lists_group_by_first_word():
    assert [g.label for g in group_commands(["play 1", "play 2"])] == [""]
    many = [f"build {n}" for n in range(BUTTON_LIMIT)] + ["pass"]
    groups = group_commands(many)
    assert [(g.label, len(g.commands)) for g in groups] == [("build", BUTTON_LIMIT), ("pass", 1)]
    assert group_commands([]) == []
