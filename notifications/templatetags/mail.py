"""Filters for the plain-text mails."""

from django import template

register = template.Library()


@register.filter
def underline(heading: str, mark: str = "-") -> str:
    """A line of `mark` as long as the heading above it: a translated heading keeps its
    underline the right length."""
    return mark * len(str(heading))
