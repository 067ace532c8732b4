"""Small template helpers for the site's pages."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def site_name() -> str:
    return settings.SITE_NAME


@register.filter
def time_left(deadline) -> str:
    """'2 days 3 hours' until `deadline`, or 'overdue'."""
    from games.pages import time_left as left

    return left(deadline)
