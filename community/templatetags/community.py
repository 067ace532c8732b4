from datetime import timedelta

from django import template

register = template.Library()


@register.filter
def ordinal_place(place: int) -> str:
    place = int(place)
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


@register.filter
def timedelta_words(value: timedelta) -> str:
    seconds = int(value.total_seconds())
    if seconds < 3600:
        minutes = max(1, seconds // 60)
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    if seconds < 2 * 86400:
        hours = round(seconds / 3600)
        return f"{hours} hour{'s' if hours != 1 else ''}"
    days = round(seconds / 86400)
    return f"{days} days"
