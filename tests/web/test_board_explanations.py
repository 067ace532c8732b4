"""What a player needs to read is on the page as text, not only in a tooltip: Blankenburg's
characters, New England's card shapes."""

import html
import re

import pytest
from django.urls import reverse

from games.rules.blankenburg.data import CHARACTER_BY_KEY
from games.rules.new_england.text import shape_picture
from tests.web.conftest import logged_in
from tests.web.test_move_preview import play_until

pytestmark = pytest.mark.django_db


def visible_text(page: str) -> str:
    """The page's text outside tags and outside tooltips (<title>, title="...")."""
    page = re.sub(r"<title>.*?</title>", "", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_blankenburg_shows_every_players_character_as_text(anna):
    match, state, mine, _move = play_until(
        anna, "blankenburg", 3, lambda g, s, seat, m: True, seed="characters"
    )
    page = logged_in(anna).get(reverse("match_detail", args=[match.pk])).content.decode()
    text = " ".join(visible_text(page).split())
    for seat, player in enumerate(state["players"]):
        character = CHARACTER_BY_KEY[player["char"]]
        name = state["names"][seat]
        you = " (you)" if seat == mine else ""
        assert f"{name}{you}: {character.name} {' '.join(character.text.split())}" in text


def test_new_england_explains_the_shape_notation_beside_the_cards(anna):
    def cards_on_offer(game, state, seat, move):
        return any(item and "card" in item for item in state["selection"])

    match, state, _mine, _move = play_until(anna, "new-england", 3, cards_on_offer, seed="shapes")
    page = logged_in(anna).get(reverse("match_detail", args=[match.pk])).content.decode()
    selection = page[page.index("<h3>Selection</h3>") : page.index("<h3>Families</h3>")]
    assert 'id="shape-notation"' in selection
    assert "<code>#</code> a parcel" in selection and "turned, not mirrored" in selection
    assert f"[{shape_picture('corner')}]" in selection  # the example is the real notation
    drawn = re.findall(r'<svg class="shape"[^>]*aria-label="shape ([a-z ]+): (\d) parcels"', page)
    assert drawn, "no card's shape is drawn"
    for shape, parcels in drawn:
        assert int(parcels) == shape_picture(shape).count("#")


@pytest.mark.parametrize(
    ("slug", "players", "action", "kind"),
    [("nieuwstad", 2, "act:build", "building"), ("blankenburg", 2, "act:build", "plan")],
)
def test_a_building_or_plan_to_choose_says_what_it_costs_and_gives(
    anna, slug, players, action, kind
):
    def builds(game, state, seat, move):
        """Two or more kinds to choose from once `action` is clicked."""
        chosen = {
            steps[1].target
            for m in game.legal_moves(state, seat)
            if (steps := game.move_steps(state, seat, m))[0].target == action
        }
        return len(chosen) > 1

    match, state, mine, move = play_until(anna, slug, players, builds, seed=f"costs-{slug}")
    url = reverse("match_detail", args=[match.pk])
    page = logged_in(anna).get(url, {"s": [action]}).content.decode()
    notes = re.findall(
        r'data-target="' + kind + r':[^"]+"[^>]*>[^<]*<span class="note">([^<]+)', page
    )
    assert notes, "no choice says what it costs"
    for note in notes:
        assert re.search(r"\d+ (guilders?|wood|stone|glass|marble|iron)", html.unescape(note))
        assert re.search(r"points?|prestige", note)


def test_nieuwstad_says_why_each_building_not_offered_is_not_open(anna):
    from games.rules.nieuwstad.data import ALL_BUILDINGS

    def building_step(game, state, seat, move):
        return state["phase"] == "act" and any(
            game.move_steps(state, seat, m)[0].target == "act:build"
            for m in game.legal_moves(state, seat)
        )

    match, state, mine, _move = play_until(anna, "nieuwstad", 2, building_step, seed="not-open")
    url = reverse("match_detail", args=[match.pk])
    page = logged_in(anna).get(url, {"s": ["act:build"]}).content.decode()
    offered = set(re.findall(r'data-target="building:([^"]+)"', page))
    closed = html.unescape(page[page.index('id="not-open"') :].split("</details>")[0])
    reasons = dict(re.findall(r"<strong>([^<]+)</strong>: ([^<]+)</li>", closed))
    assert reasons, "nothing is said about the buildings not offered"
    names = {key: b.name for key, b in ALL_BUILDINGS.items()}
    assert {names[k] for k in offered} | set(reasons) == set(names.values())
    assert not {names[k] for k in offered} & set(reasons)
    assert all(why.endswith(".") for why in reasons.values())


def test_blankenburg_says_why_a_plan_it_holds_cannot_be_built(anna):
    from games.rules.blankenburg import rules

    def build_step_with_a_closed_plan(game, state, seat, move):
        return (
            game.move_steps(state, seat, move)[0].target == "act:build"
            and rules.plans_not_open(state, seat) != []
        )

    match, state, mine, _move = play_until(
        anna, "blankenburg", 2, build_step_with_a_closed_plan, seed="closed-plan"
    )
    url = reverse("match_detail", args=[match.pk])
    page = logged_in(anna).get(url, {"s": ["act:build"]}).content.decode()
    closed = html.unescape(page[page.index('id="not-open"') :].split("</details>")[0])
    reasons = dict(re.findall(r"<strong>([^<]+)</strong>: ([^<]+)</li>", closed))
    assert reasons == dict(rules.plans_not_open(state, mine))
    for why in reasons.values():
        assert "you do not have enough" in why or "no room" in why


def test_blankenburg_explains_the_letters_of_a_plans_cost(anna):
    from games.rules.blankenburg.data import RESOURCES

    match, _state, _mine, _move = play_until(
        anna, "blankenburg", 2, lambda g, s, seat, m: True, seed="letters"
    )
    page = logged_in(anna).get(reverse("match_detail", args=[match.pk])).content.decode()
    for resource in RESOURCES:
        assert f"<strong>{resource[0].upper()}</strong> {resource}" in page
