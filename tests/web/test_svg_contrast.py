"""Every label drawn on a game's SVG reads at least 4.5:1 against everything drawn under its
letters, roads included (WCAG AA), at many positions of a bot playout of each game."""

from __future__ import annotations

import math
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

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


def on_segment(px, py, x1, y1, x2, y2, half_width) -> bool:
    """Is (px, py) on a line of this width (butt ends)?"""
    dx, dy = x2 - x1, y2 - y1
    length2 = dx * dx + dy * dy or 1e-9
    t = ((px - x1) * dx + (py - y1) * dy) / length2
    if not 0 <= t <= 1:
        return False
    return math.hypot(px - (x1 + t * dx), py - (y1 + t * dy)) <= half_width


def glyph_points(x: float, y: float, size: float, text: str, anchor: str | None):
    """Points inside a label's letters, estimated at 0.55 em a character and a 0.7 em cap
    height: each letter's middle and both ends, at three heights."""
    width = len(text) * 0.55 * size
    left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
    xs = [left + 0.1 * size, *(left + (i + 0.5) * width / len(text) for i in range(len(text)))]
    xs.append(left + width - 0.1 * size)
    return [(px, y - k * size) for px in xs for k in (0.1, 0.35, 0.65)]


def shapes_and_labels(svg: ET.Element):
    """Filled rectangles, circles and lines (roads, grooves) in drawing order, and each text
    with its fill, the points its letters cover, its halo (a stroke painted under it) and how
    many shapes were drawn before it."""
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
        elif tag == "line" and element.get("stroke", "").startswith("#"):
            ends = [float(element.get(k)) for k in ("x1", "y1", "x2", "y2")]
            half = float(element.get("stroke-width", 1)) / 2
            shapes.append(
                (
                    lambda px, py, ends=ends, half=half: on_segment(px, py, *ends, half),
                    element.get("stroke"),
                )
            )
        elif tag == "text" and "".join(element.itertext()).strip():
            text = "".join(element.itertext())
            size = float(element.get("font-size", 16))
            x, y = float(element.get("x")), float(element.get("y"))
            halo = None
            if (
                element.get("paint-order") == "stroke"
                and float(element.get("stroke-width", 0)) >= 2
            ):
                halo = element.get("stroke")
            points = glyph_points(x, y, size, text.strip(), element.get("text-anchor"))
            labels.append((points, element.get("fill", "#000000"), size, text, halo, len(shapes)))
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
        for points, fill, size, text, halo, before in labels:
            under = {halo} if halo else set()
            for x, y in [] if halo else points:
                drawn = reversed(shapes[:before])
                under.add(next((f for inside, f in drawn if inside(x, y)), PAGE))
            checked += 1
            for colour in under:
                if (ratio := contrast(fill, colour)) < 4.5:
                    low.add(f"{text!r} {fill} on {colour}: {ratio:.2f}")
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
    from games.rules.new_england import view as ne

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
    from games.rules.blankenburg import view as bb

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


SITE_CSS = Path(__file__).parents[2] / "static" / "css" / "site.css"


def css_rule(selector: str) -> str:
    """The declarations of the first rule whose selector list starts with `selector`."""
    css = SITE_CSS.read_text()
    return re.search(re.escape(selector) + r"[^{]*\{([^}]*)\}", css).group(1)


def highlights() -> dict[str, str]:
    """The board's highlight colours, from the custom properties site.css defines them in."""
    root = css_rule(":root")
    return {
        name: re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{6}})", root).group(1)
        for name in ("target", "target-halo", "picked", "picked-halo")
    }


def lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    channels = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: str, b: str) -> float:
    """CIE76 colour difference: under about 10, two colours are hard to tell apart."""
    return math.dist(lab(a), lab(b))


def seat_colours() -> dict[str, list[str]]:
    """Every colour a seat (or the city, or the master builder) is drawn in, per game."""
    from games.rules.blankenburg import view as bb
    from games.rules.new_england import view as ne
    from games.rules.nieuwstad import view as nv

    return {
        "nieuwstad": [*nv.SEAT_FILL.values(), nv.CITY_SEAL],
        "new-england": list(ne.FAMILY_COLOURS.values()),
        "blankenburg": [*bb.PLAYER_COLOURS, bb.MASTER_COLOUR],
    }


def target_backgrounds() -> dict[str, list[str]]:
    """The fills a highlight outlines: each game's clickable spaces, tiles, chips and cards."""
    from games.rules.blankenburg import view as bb
    from games.rules.new_england import view as ne
    from games.rules.nieuwstad import view as nv

    return {
        "nieuwstad": [nv.AREA_FILL["city"], nv.AREA_FILL["country"], nv.FOREST_FILL],
        "new-england": [
            *ne.LAND_FILLS.values(),
            *ne.DEVELOPED_FILLS.values(),
            ne.EMPTY_CELL["fill"],
            "#ffffff",  # a chip
            *ne.FAMILY_COLOURS.values(),  # a chip a family holds
        ],
        "blankenburg": [*bb.FILL.values(), *bb.RES_FILL.values()],
    }


@pytest.mark.parametrize("slug", ["nieuwstad", "new-england", "blankenburg"])
def test_highlights_are_unlike_every_seat_colour(slug):
    """Nieuwstad's red and blue seals were the target's red (delta E 6.7) and the picked
    blue (4.6): a highlighted place could be read as a seat's."""
    colours = highlights()
    seats = seat_colours()[slug]
    game = get_game(slug)
    state = game.setup(["A", "B", "C", "D"], game.option_defaults(4), random.Random(1))
    assert set(game.seat_colours(state)) <= set(seats)
    near = [
        f"{name} {colours[name]} ~ {seat}: {delta_e(colours[name], seat):.1f}"
        for name in ("target", "picked")
        for seat in seats
        if delta_e(colours[name], seat) < 20
    ]
    assert not near, near
    assert delta_e(colours["target"], colours["picked"]) >= 20


@pytest.mark.parametrize("slug", ["nieuwstad", "new-england", "blankenburg"])
def test_highlights_read_on_every_space_they_outline(slug):
    """3:1 (WCAG 1.4.11) on light and dark spaces alike: no one colour has it on both sand and
    forest, so each highlight is two tones, a line on a halo 3:1 apart, one of which has 3:1
    against the space."""
    colours = highlights()
    for name in ("target", "picked"):
        line, halo = colours[name], colours[f"{name}-halo"]
        assert contrast(line, halo) >= 3, name
        for fill in target_backgrounds()[slug]:
            assert max(contrast(line, fill), contrast(halo, fill)) >= 3, (name, fill)


def test_the_board_rules_draw_the_highlights_with_their_halos():
    """A place to click is dashed (New England's Annable red outlines a family's tiles solid)
    and haloed; a picked or hovered one is solid and haloed."""
    root = css_rule(":root")
    target = css_rule("svg a.target > :first-child")
    assert "stroke: var(--target)" in target and "stroke-dasharray" in target
    assert "filter: var(--target-glow)" in target
    assert "drop-shadow(1.5px 0 0 var(--target-halo))" in root
    for selector in ("svg a.target:hover > :first-child", "svg .picked"):
        rule = css_rule(selector)
        assert "stroke: var(--picked)" in rule and "filter: var(--picked-glow)" in rule
    assert "drop-shadow(1.5px 0 0 var(--picked-halo))" in root


def test_the_score_chart_draws_each_seat_in_its_board_colour():
    """Nieuwstad's first seat has white seals: its line is white with a dark outline, as the
    seal has, not the blue of another seat (and the orange seat's line is outlined too)."""
    from games.pages import score_chart

    game = get_game("nieuwstad")
    state = game.setup(["A", "B", "C", "D"], game.option_defaults(4), random.Random(1))
    colours = game.seat_colours(state)
    chart = score_chart([(1, [0, 0, 0, 0]), (2, [3, 4, 5, 6])], list("ABCD"), colours)
    lines = chart["lines"]
    assert [line["colour"] for line in lines] == colours == seat_colours()["nieuwstad"][:4]
    assert lines[0]["colour"] == "#ffffff" and lines[0]["outline"]
    for line in lines:  # a line too light for the chart (white, orange) gets a dark outline
        if contrast(line["colour"], PAGE) >= 3:
            assert not line["outline"], line
        else:
            assert contrast(line["outline"], PAGE) >= 3, line


def test_nieuwstad_boat_labels_stay_on_the_lake():
    """Each line under a boat fits in its lake space (at 0.6 em a character, wide for a sans
    serif): "Boat (card)" on one line ran past the lake's right edge."""
    from games.rules.nieuwstad import view as nv

    game = get_game("nieuwstad")
    state = game.setup(["A", "B", "C", "D"], game.option_defaults(4), random.Random(1))
    state["boats"] = [0, None]
    state["loose_boats"] = [1, 2]
    boats = nv.svg_shapes(state)["boats"]
    assert len(boats) == 4
    for boat in boats:
        right = (boat["x"] - 30) // nv.CELL * nv.CELL + 30 + nv.CELL
        for line in boat["lines"]:
            assert boat["x"] + len(line["text"]) * 0.6 * 12 <= right - 2, line["text"]
