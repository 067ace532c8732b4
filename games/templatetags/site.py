"""Small template helpers for the site's pages."""

from __future__ import annotations

from itertools import zip_longest

from django import template
from django.conf import settings
from django.utils.translation import pgettext_lazy

register = template.Library()


@register.simple_tag
def site_name() -> str:
    return settings.SITE_NAME


@register.filter
def time_left(deadline) -> str:
    """'2 days 3 hours' until `deadline`, or 'overdue'."""
    from games.pages import time_left as left

    return left(deadline)


@register.filter
def game_title(slug: str) -> str:
    """The title of the game called `slug` ("nieuwstad": De Poorters van Nieuwstad)."""
    from games.engine import get_game

    try:
        return get_game(slug).title
    except KeyError:
        return slug


# How a move came, beside its time in the history (a player's own web moves say nothing).
MOVE_SOURCES = {
    "email": pgettext_lazy("move source", "email"),
    "api": pgettext_lazy("move source", "API"),
    "deadline": pgettext_lazy("move source", "deadline"),
    "bot": pgettext_lazy("move source", "bot"),
    "forced": pgettext_lazy("move source", "forced"),
    "standing": pgettext_lazy("move source", "standing order"),
    "admin": pgettext_lazy("move source", "operator"),
    "import": pgettext_lazy("move source", "import"),
}


@register.filter
def move_source(source: str) -> str:
    """How a move came, in the reader's language ("forced": "gedwongen")."""
    return MOVE_SOURCES.get(source, source)


@register.filter
def with_headers(row, headers) -> list[tuple[str, object]]:
    """A table row's cells, each beside its column's header, for the label a phone shows in
    front of each cell (table.reflow in site.css); '' for cells past the last header."""
    return list(zip_longest(headers or (), row, fillvalue=""))[: len(row)]


@register.filter
def limited_session(request) -> bool:
    """Whether this session was opened by a match's email link: it may open that match only,
    so the header offers no lobby, settings or log-out that would ask for a sign-in."""
    from players.decorators import is_limited

    return request is not None and hasattr(request, "session") and is_limited(request)


@register.filter
def written(moment, style: str = "date") -> str:
    """A date or a moment as the page's language writes it (players.dates), in the page's time
    zone as Django's `date` filter shows it: `{{ deadline|written:"deadline" }}`."""
    from django.utils.timezone import template_localtime

    from players.dates import written as said

    return said(template_localtime(moment), style)
