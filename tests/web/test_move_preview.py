"""Before Confirm, the board shows the position the move would leave, from the mover's own
view (games/engine/preview.py); a move that draws by chance or reveals something hidden is
not previewed, and the page says so."""

import random
import re

import pytest
from django.urls import reverse

from games import builder, selectors, services
from games.engine import copy_state, event_rng, get_game
from games.engine.preview import CHANCE, HIDDEN, NoChance, preview
from tests.web.conftest import logged_in, seat_of

pytestmark = pytest.mark.django_db


def play_until(anna, slug: str, players: int, wanted, seed: str, limit: int = 400):
    """A match of `slug` against bots, played on for Anna by her bot until she may make a
    move `wanted(game, state, seat, move)` accepts; returns (match, state, seat, move)."""
    match = services.create_match(
        creator=anna, game_slug=slug, players=players, bots=players - 1, seed=seed
    )
    game, mine = get_game(slug), seat_of(match, anna)
    for turn in range(limit):
        match.refresh_from_db()
        state = selectors.load_state(match)
        assert game.result(state) is None, "the match ended before the move came up"
        assert mine in game.to_act(state)
        found = [m for m in game.legal_moves(state, mine) if wanted(game, state, mine, m)]
        if found:
            return match, state, mine, found[0]
        move = game.bot_move(state, mine, _rng(seed, turn))
        result = services.submit_move(match_id=match.pk, seat=mine, move=move, source="web")
        assert result.ok, result.message
    raise AssertionError(f"no such move within {limit} turns")


def _rng(seed: str, turn: int) -> random.Random:
    return random.Random(f"{seed}:{turn}")


def shown(game, state, seat, move) -> bool:
    return preview(game, state, seat, move).after is not None


def clicks_for(game, state, seat, move) -> list[str]:
    """The targets a player clicks to build `move` (steps the builder takes itself left out)."""
    wanted = [s.target for s in game.move_steps(state, seat, move)]
    picked: list[str] = []
    for _ in range(len(wanted) + 1):
        built = builder.build(game, state, seat, picked)
        if built.move is not None:
            assert built.move == move
            return picked
        picked.append(next(t for t in wanted if t in built.targets))
    raise AssertionError("the move could not be built")


def page_for(anna, match, clicks) -> str:
    url = reverse("match_detail", args=[match.pk])
    return logged_in(anna).get(url, {"s": clicks}).content.decode()


def preview_board(page: str) -> str:
    start = page.index('id="preview-board"')
    return page[start : page.index('<details class="text-board">', start)]


def titles(html: str) -> set[str]:
    return set(re.findall(r"<title>([^<]*)</title>", html))


def previewed(anna, slug: str, players: int, kind: str):
    """A match where Anna may make a previewed move of `kind`: (match, state, seat, move, the
    page one click before Confirm, the page with the preview)."""
    match, state, mine, move = play_until(
        anna,
        slug,
        players,
        lambda g, s, seat, m: m["type"] == kind and shown(g, s, seat, m),
        seed=f"preview-{slug}",
    )
    clicks = clicks_for(match.game, state, mine, move)
    before, page = page_for(anna, match, clicks[:-1]), page_for(anna, match, clicks)
    assert 'id="confirm-form"' in page and 'id="preview-board"' in page
    assert 'id="preview-board"' not in before
    return match, state, mine, move, before, page


def test_nieuwstad_shows_the_building_placed(anna):
    match, state, mine, move, before, page = previewed(anna, "nieuwstad", 2, "build")
    assert "Nothing is played until you confirm" in page
    name = match.game.view(state, mine)["players"][mine]["name"]
    placed = {t for t in titles(preview_board(page)) if t.endswith(f"({name})")}
    assert placed and not placed & titles(before)


def test_new_england_shows_the_tile_laid(anna):
    match, state, mine, move, before, page = previewed(anna, "new-england", 3, "buy_tile")
    head = match.head_seq
    cell = move["at"]
    now = re.search(rf"<title>{cell}(: [^<]*)?</title>", before)
    after = re.search(rf"<title>{cell}: ([^<]*)</title>", preview_board(page))
    assert now is not None and now.group(1) is None, "the parcel was empty"
    assert after is not None, "the tile is not drawn on its parcel"
    match.refresh_from_db()
    assert match.head_seq == head  # looking plays nothing


def test_blankenburg_shows_the_resource_taken(anna):
    def take(g, s, seat, m):
        return m["type"] in ("take", "buy", "build") and shown(g, s, seat, m)

    match, state, mine, move = play_until(anna, "blankenburg", 3, take, seed="preview-blankenburg")
    game = match.game
    page = page_for(anna, match, clicks_for(game, state, mine, move))
    assert 'id="preview-board"' in page
    expected = game.view(game.apply(copy_state(state), mine, move, NoChance()), mine)
    player = expected["players"][mine]
    player_row = r"<tr>\s*<td class=\"row-head\"[^>]*><svg class=\"swatch\".*?</tr>"
    row = re.search(player_row, preview_board(page), re.S)
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", row.group(0))
    assert str(player["prestige"]) in cells and str(player["silver"]) in cells
    assert expected != game.view(state, mine)


@pytest.mark.parametrize(
    ("slug", "players", "kind", "reason", "words"),
    [
        ("nieuwstad", 2, "forest", HIDDEN, "reveals something hidden"),
        ("new-england", 3, "select", HIDDEN, "reveals something hidden"),
        ("blankenburg", 3, "select", CHANCE, "draws by chance"),
    ],
)
def test_a_move_that_draws_or_reveals_is_not_previewed(anna, slug, players, kind, reason, words):
    match, state, mine, move = play_until(
        anna,
        slug,
        players,
        lambda g, s, seat, m: m["type"] == kind and preview(g, s, seat, m).withheld == reason,
        seed=f"withheld-{slug}",
    )
    game = match.game
    page = page_for(anna, match, clicks_for(game, state, mine, move))
    assert 'id="confirm-form"' in page
    assert 'id="preview-board"' not in page and words in page
    # Nothing of what the move would reveal reaches the page.
    after = game.apply(copy_state(state), mine, move, event_rng(match.seed, match.head_seq + 1))
    for holder, texts in game.secrets(after).items():
        if holder != mine:
            assert not [
                t for t in texts if t in page and t not in game.render_text(game.view(state, mine))
            ], holder


def test_a_preview_draws_nothing_from_the_rng():
    game = get_game("blankenburg")
    rng = NoChance()
    with pytest.raises(Exception, match="shuffle|choice|random|sample|randint|randrange"):
        rng.shuffle([1, 2])
    state = game.setup(["A", "B", "C"], game.validate_options(3, {}), _rng("x", 0))
    for move in game.legal_moves(state, game.to_act(state)[0]):
        result = preview(game, state, game.to_act(state)[0], move)
        assert (result.after is None) == bool(result.withheld)
