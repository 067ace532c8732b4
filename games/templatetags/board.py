"""Template helpers for boards a move is built on (games/builder.py, games/pages.BoardPlay)."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def step_link(play, target: str) -> str:
    """The URL that clicks `target` now, or '' when it is not a target of this step (or there
    is no move being built: the email's board, a spectator's, the replay's)."""
    if not play or not target:
        return ""
    return play.links.get(target, "")


@register.filter
def picked(play, target: str) -> bool:
    """Whether `target` was clicked (or forced) in the move being built."""
    return bool(play) and bool(target) and target in play.picked


@register.filter
def deselect_link(play, target: str) -> str:
    """The URL that takes the picked `target` out of the move being built ('' if none)."""
    if not play or not target:
        return ""
    return play.deselect.get(target, "")
