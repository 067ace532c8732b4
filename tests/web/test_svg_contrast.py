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
