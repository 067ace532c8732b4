"""Every label drawn on a game's SVG reads at least 4.5:1 against what is drawn under it
(WCAG AA), at many positions of a bot playout of each game."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from django.template.loader import get_template

from games.engine import event_rng, get_game

GAMES = [("nieuwstad", 4), ("new-england", 4), ("blankenburg", 6)]
PAGE = "#ffffff"  # the card the board sits on


def luminance(colour: str) -> float:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    channels = [int(colour[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def shapes_and_labels(svg: ET.Element):
    """Filled rectangles and circles in drawing order, and each text with its fill."""
    shapes, labels = [], []
    for element in svg.iter():
        tag = element.tag.rsplit("}", 1)[-1]
        fill = element.get("fill", "")
        if tag == "rect" and fill.startswith("#"):
            x, y = float(element.get("x", 0)), float(element.get("y", 0))
            w, h = float(element.get("width")), float(element.get("height"))
            shapes.append(
                (lambda px, py, x=x, y=y, w=w, h=h: x <= px <= x + w and y <= py <= y + h, fill)
            )
        elif tag in ("circle", "ellipse") and fill.startswith("#"):
            cx, cy = float(element.get("cx")), float(element.get("cy"))
            rx = float(element.get("r") or element.get("rx"))
            ry = float(element.get("r") or element.get("ry"))
            shapes.append(
                (
                    lambda px, py, cx=cx, cy=cy, rx=rx, ry=ry: (
                        ((px - cx) / rx) ** 2 + ((py - cy) / ry) ** 2 <= 1
                    ),
                    fill,
                )
            )
        elif tag == "text" and "".join(element.itertext()).strip():
            size = float(element.get("font-size", 16))
            x, y = float(element.get("x")), float(element.get("y"))
            if element.get("text-anchor") != "middle":
                x += size / 2  # the first letter's middle
            labels.append(
                (x, y - size / 3, element.get("fill", "#000000"), size, "".join(element.itertext()))
            )
    return shapes, labels


def board_svgs(slug: str, players: int):
    game = get_game(slug)
    template = get_template(f"games/{slug}/board.html")
    rng = random.Random(3)
    state = game.setup(
        [f"Player {i + 1}" for i in range(players)], game.option_defaults(players), rng
    )
    for n in range(1, 2000):
        if n % 15 == 1 or game.result(state) is not None:
            html = template.render({"view": game.view(state, 0), "seat": 0, "play": None})
            for svg in re.findall(r"<svg.*?</svg>", html, flags=re.S):
                yield ET.fromstring(svg.replace("&nbsp;", " "))
        if game.result(state) is not None:
            return
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, game.bot_move(state, seat, rng), event_rng("c", n))


@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_every_svg_label_has_contrast_against_its_background(slug, players):
    checked, low = 0, set()
    for svg in board_svgs(slug, players):
        shapes, labels = shapes_and_labels(svg)
        for x, y, fill, size, text in labels:
            under = next((f for inside, f in reversed(shapes) if inside(x, y)), PAGE)
            ratio = contrast(fill, under)
            checked += 1
            if ratio < 4.5:
                low.add(f"{text!r} {fill} on {under}: {ratio:.2f}")
            assert size >= 12, f"{text!r} is {size} px"
    assert checked > 200
    assert not low, sorted(low)[:20]


def distinct(a: str, b: str) -> bool:
    """Two colours a player tells apart at a glance: far apart in RGB, not merely unequal."""
    ca = [int(a.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)]
    cb = [int(b.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)]
    return sum((x - y) ** 2 for x, y in zip(ca, cb)) ** 0.5 >= 60


def test_new_england_family_colours_read_on_the_board_and_differ_from_it():
    """A family's colour is a ring on a white disc, a chip on the page and a starter tile's
    outline (on a white halo): each needs 3:1 against white and the board's paper (WCAG
    1.4.11), and none may look like a land, the sea or the paper."""
    from games.rules.new_england import game as ne

    board = [
        *ne.LAND_FILLS.values(),
        *ne.DEVELOPED_FILLS.values(),
        ne.EMPTY_CELL["fill"],
        ne.SEA_CELL["fill"],
        "#fbf7ec",  # the board's paper
    ]
    seats = list(ne.FAMILY_COLOURS.values())
    for colour in seats:
        assert contrast(colour, PAGE) >= 3, colour
        assert contrast(colour, "#fbf7ec") >= 3, colour
        assert all(distinct(colour, fill) for fill in board), colour
    assert all(distinct(a, b) for i, a in enumerate(seats) for b in seats[i + 1 :])


def test_new_england_tile_outlines_sit_on_a_white_halo():
    game = get_game("new-england")
    template = get_template("games/new-england/board.html")
    state = game.setup(["A", "B", "C"], game.option_defaults(3), random.Random(1))
    while state["phase"] == "start":
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, game.bot_move(state, seat, random.Random(2)), None)
    html = template.render({"view": game.view(state, 0), "seat": 0, "play": None})
    svg = ET.fromstring(re.search(r"<svg.*?</svg>", html, flags=re.S).group(0))
    rects = [e for e in svg.iter() if e.tag.rsplit("}", 1)[-1] == "rect"]
    outlines = [i for i, r in enumerate(rects) if r.get("fill") == "none" and r.get("rx")]
    assert outlines
    for i in outlines:
        if rects[i].get("stroke") == "#ffffff":
            continue
        halo = rects[i - 1]
        assert halo.get("stroke") == "#ffffff" and halo.get("x") == rects[i].get("x")
        assert float(halo.get("stroke-width")) > float(rects[i].get("stroke-width"))


def test_blankenburg_seat_colours_read_on_every_district_and_differ_from_the_board():
    """An owner's dot sits on a space of its district's colour (and a swatch on the page):
    3:1 against each district fill and white; no seat looks like a district, a resource or
    the master builder, nor like another seat."""
    from games.rules.blankenburg import views as bb

    board = [*bb.FILL.values(), *bb.RES_FILL.values()]
    seats = [*bb.PLAYER_COLOURS, bb.MASTER_COLOUR]
    for colour in seats:
        for background in (PAGE, *bb.FILL.values()):
            assert contrast(colour, background) >= 3, (colour, background)
        assert all(distinct(colour, fill) for fill in board), colour
    assert all(distinct(a, b) for i, a in enumerate(seats) for b in seats[i + 1 :])


def test_blankenburg_row_labels_fit_left_of_the_first_space():
    """Each line of a district's label fits in the 106 px before the first space (at about
    0.6 em a character), instead of running under it."""
    game = get_game("blankenburg")
    state = game.setup(["A", "B"], game.option_defaults(2), random.Random(1))
    layout = game.view(state, 0)["svg"]
    first = min(c["x"] for c in layout["cells"])
    for row in layout["rows"]:
        for line in (row["label"], row.get("detail", "")):
            assert 4 + len(line) * 12 * 0.6 <= first - 4, line


def test_a_target_is_told_apart_from_a_seat_outline_by_its_dashes():
    """A clickable place is outlined red and dashed: New England's Annable red (a solid
    outline around a family's tiles) is near the highlight's red, the dashes are not."""
    from pathlib import Path

    css = (Path(__file__).parents[2] / "static" / "css" / "site.css").read_text()
    rule = re.search(r"svg a\.target > :first-child[^{]*\{([^}]*)\}", css).group(1)
    assert "stroke: #b3261e" in rule and "stroke-dasharray" in rule
