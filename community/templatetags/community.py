from datetime import timedelta

from django import template
from django.utils.translation import ngettext, pgettext

register = template.Library()


@register.filter
def ordinal_place(place: int) -> str:
    """1st, 2nd, 21st; 1e, 2e (nl); 1., 2. (de); 1er, 2e, 21e (fr): English picks its suffix
    by the last digit, the catalogue says how each suffix reads (first place apart)."""
    place = int(place)
    if place == 1:
        text = pgettext("place", "%(place)sst (first)")
    elif 10 <= place % 100 <= 20:
        text = pgettext("place", "%(place)sth")
    else:
        text = {
            1: pgettext("place", "%(place)sst"),
            2: pgettext("place", "%(place)snd"),
            3: pgettext("place", "%(place)srd"),
        }.get(place % 10) or pgettext("place", "%(place)sth")
    return text.replace(" (first)", "") % {"place": place}


@register.filter
def timedelta_words(value: timedelta) -> str:
    seconds = int(value.total_seconds())
    if seconds < 3600:
        minutes = max(1, seconds // 60)
        return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}
    if seconds < 2 * 86400:
        hours = round(seconds / 3600)
        return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
    days = round(seconds / 86400)
    return ngettext("%(n)s day", "%(n)s days", days) % {"n": days}
