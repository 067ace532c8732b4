"""A board drawn for an email as a PNG image: Gmail, Outlook and most webmail do not show
inline <svg> (PRACTICE.md), so the turn email's HTML carries each drawn board (the game's
`svg.board-svg`, the same SVG as the page's) as an inline image part with a Content-ID and
alt text. Rendered by resvg (resvg-py: a self-contained wheel, no system library; see
docs/dependencies.md). A board that cannot be rendered stays as it was: the plain-text part
has the board as text anyway."""

from __future__ import annotations

import logging
import re
import secrets
from email.mime.image import MIMEImage

from django.utils.html import escape
from django.utils.translation import gettext

log = logging.getLogger(__name__)

BOARD_SVG = re.compile(r"<svg\b[^>]*\bclass=\"board-svg\"[^>]*>.*?</svg>", re.S)
LABEL = re.compile(r'\baria-label="([^"]*)"')
WIDTH = re.compile(r'\bwidth="(\d+)"')
# Twice the drawn size: sharp on a phone's screen, still small (a board is 20-60 kB).
ZOOM = 2


def board_png(svg: str) -> bytes | None:
    """The SVG as PNG bytes, or None if it cannot be rendered."""
    import resvg_py

    if "xmlns=" not in svg[: svg.find(">")]:
        svg = svg.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"', 1)
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=ZOOM, background="#ffffff"))
    except (ValueError, RuntimeError):
        log.exception("a board could not be drawn as PNG")
        return None


def inline_boards(html: str) -> tuple[str, list[MIMEImage]]:
    """The HTML with each drawn board replaced by an <img> of it, and the image parts to
    attach (each with its Content-ID, shown inline)."""
    images: list[MIMEImage] = []

    def replace(found: re.Match) -> str:
        svg = found.group(0)
        png = board_png(svg)
        if png is None:
            return svg
        content_id = f"board-{len(images) + 1}.{secrets.token_hex(6)}@pbm"
        image = MIMEImage(png, "png")
        image.add_header("Content-ID", f"<{content_id}>")
        image.add_header("Content-Disposition", "inline", filename=f"board-{len(images) + 1}.png")
        images.append(image)
        label = LABEL.search(svg)  # already escaped in the SVG
        # In the reader's language: the mail is rendered inside their translation.override.
        alt = escape(
            gettext("The board: %(label)s (the text board is in the plain-text part)")
            if label
            else gettext("The board (the text board is in the plain-text part)")
        )
        alt = alt.replace("%(label)s", label.group(1)) if label else alt
        width = WIDTH.search(svg[: svg.find(">")])
        size = f' width="{width.group(1)}"' if width else ""
        return (
            f'<img src="cid:{content_id}" alt="{alt}"{size} style="max-width: 100%; height: auto;">'
        )

    return BOARD_SVG.sub(replace, html), images


def public_board_svg(match, seq: int) -> str | None:
    """The drawn board after move `seq` as a spectator sees it (the game's board.html for no
    seat), in the active language: what a match's chat channel is shown. None for a game
    without a drawn board."""
    from django.template import TemplateDoesNotExist
    from django.template.loader import get_template

    from games import selectors

    try:
        template = get_template(f"games/{match.game_slug}/board.html")
    except TemplateDoesNotExist:
        return None
    view = match.game.view(selectors.load_state(match, upto=seq), None)
    found = BOARD_SVG.search(template.render({"view": view, "seat": None, "legal_commands": []}))
    return found.group(0) if found else None
