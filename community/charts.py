"""A rating history as a small SVG line chart, drawn on the server (no script needed)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from xml.sax.saxutils import escape

WIDTH, HEIGHT, PAD = 480, 160, 32


@dataclass
class Point:
    at: datetime
    value: float
    label: str


def rating_chart(points: list[Point], title: str) -> str:
    """An accessible SVG: a line through the ratings after each match, oldest first, with
    the lowest and highest values on the axis and a title per point."""
    if not points:
        return ""
    values = [p.value for p in points]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / max(1, len(points) - 1)

    def xy(i: int, value: float) -> tuple[float, float]:
        x = PAD + i * step if len(points) > 1 else WIDTH / 2
        y = HEIGHT - PAD - (value - low) / span * (HEIGHT - 2 * PAD)
        return round(x, 1), round(y, 1)

    coords = [xy(i, p.value) for i, p in enumerate(points)]
    line = " ".join(f"{x},{y}" for x, y in coords)
    dots = "".join(
        f'<circle cx="{x}" cy="{y}" r="3.5" class="point"><title>{escape(p.label)}</title></circle>'
        for (x, y), p in zip(coords, points, strict=True)
    )
    return (
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(title)}</title>"
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}"'
        ' class="axis"/>'
        f'<text x="4" y="{PAD}" class="label">{high:.1f}</text>'
        f'<text x="4" y="{HEIGHT - PAD}" class="label">{low:.1f}</text>'
        f'<polyline points="{line}" class="line" fill="none"/>{dots}</svg>'
    )
