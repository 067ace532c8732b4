"""The board is the interface: a move is built step by step on it (games/builder.py), with
plain links that work without JavaScript and an htmx fragment with it."""

import copy
import re

import pytest
from django.urls import reverse

from games import builder, selectors, services
from games.engine import get_game
from tests.web.conftest import hand_of, logged_in, seat_of

pytestmark = pytest.mark.django_db

BOARD = '<div id="test-board">seat={{ seat }} trick={{ view.trick }}</div>'


@pytest.fixture
def board_template(settings, tmp_path):
    folder = tmp_path / "games" / "sealed-cards"
    folder.mkdir(parents=True)
    (folder / "board.html").write_text(BOARD)
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [tmp_path, *templates[0]["DIRS"]]
    settings.TEMPLATES = templates


def links(page: str) -> dict[str, str]:
    """data-target -> href of every clickable target on the page."""
    found = {}
    for tag in re.findall(r"<a [^>]*>", page):
        target = re.search(r'data-target="([^"]+)"', tag)
        href = re.search(r'href="([^"#]+)', tag)
        if target and href:
            found[target.group(1)] = href.group(1).replace("&amp;", "&")
    return found


def test_the_games_board_is_included_with_view_and_seat(board_template, duel, anna):
    page = logged_in(anna).get(reverse("match_detail", args=[duel.pk])).content.decode()
    assert f"seat={seat_of(duel, anna)} trick=1" in page
    assert 'id="text-board"' in page  # the text board is still offered
    assert 'id="typed-form"' in page  # and the typed command


def test_one_list_of_choices_each_a_link_to_the_next_step(duel, anna):
    page = logged_in(anna).get(reverse("match_detail", args=[duel.pk])).content.decode()
    hand = hand_of(duel, anna)
    targets = links(page)
    assert set(targets) == {f"cmd:play {card}" for card in hand}
    assert page.count(f'value="play {hand[0]}"') == 0  # nothing is one click from played


def test_a_spectator_gets_the_board_with_no_choices(board_template, watched_duel, outsider):
    page = logged_in(outsider).get(reverse("match_detail", args=[watched_duel.pk]))
    page = page.content.decode()
    assert "seat=None trick=1" in page
    assert 'id="builder"' not in page and "data-target" not in page


def start_nieuwstad(anna):
    match = services.create_match(
        creator=anna, game_slug="nieuwstad", players=2, bots=1, seed="board-steps"
    )
    match.refresh_from_db()
    return match


def test_a_nieuwstad_move_is_built_by_following_links_and_confirmed(anna):
    """Without JavaScript: tile, then building, then space... each a plain link; the last
    step shows the move and a Confirm that posts it."""
    match = start_nieuwstad(anna)
    client = logged_in(anna)
    url = reverse("match_detail", args=[match.pk])
    game, state = match.game, selectors.load_state(match)
    seat = seat_of(match, anna)
    legal = game.legal_moves(state, seat)
    page = client.get(url).content.decode()
    clicks = 0
    while 'id="confirm-form"' not in page:
        targets = links(page)
        assert targets, page
        assert all(href.startswith(url + "?s=") for href in targets.values())
        target, href = sorted(targets.items())[0]
        assert f'data-target="{target}"' in page
        page = client.get(href).content.decode()
        clicks += 1
        assert clicks < 10
    command = re.search(r'name="command" value="([^"]+)"', page).group(1)
    assert game.parse(command, state, seat) in legal
    response = client.post(
        reverse("match_move", args=[match.pk]),
        {"command": command, "seq": match.head_seq, "token": "built-by-clicking"},
        follow=True,
    )
    assert f"Applied: {command}" in response.content.decode()
    assert match.moves.filter(seat=seat, source="web").count() == 1


def test_a_step_can_be_undone_and_a_stale_step_starts_again(anna):
    match = start_nieuwstad(anna)
    client = logged_in(anna)
    url = reverse("match_detail", args=[match.pk])
    first_page = client.get(url).content.decode()
    first = links(first_page)
    target, href = sorted(first.items())[0]
    second = client.get(href).content.decode()
    assert "Undo this step" in second
    undo = re.search(r'<a class="step undo" href="([^"#]+)', second).group(1)
    assert links(client.get(undo.replace("&amp;", "&")).content.decode()) == first
    stale = client.get(url, {"s": "cell:Z99"}).content.decode()
    assert "no longer open" in stale and links(stale) == first


def test_with_htmx_only_the_board_is_sent(anna):
    match = start_nieuwstad(anna)
    client = logged_in(anna)
    url = reverse("match_detail", args=[match.pk])
    href = sorted(links(client.get(url).content.decode()).items())[0][1]
    fragment = client.get(href, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="board").content.decode()
    assert fragment.lstrip().startswith('<section class="card board" id="board"')
    assert "<html" not in fragment and 'id="history"' not in fragment


@pytest.mark.parametrize("slug,players", [("nieuwstad", 2), ("new-england", 3), ("blankenburg", 2)])
def test_every_legal_move_of_a_random_playout_can_be_clicked_to(slug, players):
    """The steps of two legal moves never coincide, and clicking along a move's steps ends at
    that move, at every decision of a bot playout."""
    import random

    from games.engine import event_rng

    game = get_game(slug)
    rng = random.Random(7)
    state = game.setup([f"P{i}" for i in range(players)], game.option_defaults(players), rng)
    checked = 0
    for n in range(1, 400):
        if game.result(state) is not None:
            break
        seat = game.to_act(state)[0]
        legal = game.legal_moves(state, seat)
        paths = [tuple(s.target for s in game.move_steps(state, seat, m)) for m in legal]
        assert len(set(paths)) == len(paths)
        for move, path in list(zip(legal, paths))[:: max(1, len(legal) // 8)]:
            picked: list[str] = []
            built = builder.build(game, state, seat, picked)
            while built.move is None:
                taken = {t.step.target for t in built.taken}
                choice = next(
                    c for c in built.choices if c.target in path and c.target not in taken
                )
                built = builder.build(game, state, seat, list(choice.picked))
            assert built.move == move
            checked += 1
        state = game.apply(state, seat, game.bot_move(state, seat, rng), event_rng("t", n))
    assert checked > 20


def test_the_games_reference_is_beside_the_board(anna):
    match = start_nieuwstad(anna)
    page = logged_in(anna).get(reverse("match_detail", args=[match.pk])).content.decode()
    sections = match.game.reference(match.game.view(selectors.load_state(match), 0))
    assert sections and 'id="reference"' in page
    for section in sections:
        assert section.title in page
