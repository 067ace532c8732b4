"""Dates and times as each language writes them (issue 41): 'Thu 10 Dec 2026' in English,
'do 10 dec. 2026' in Dutch, 'Do., 10. Dez. 2026' in German, 'jeu. 10 déc. 2026' in French.

Django's format characters cannot say these: 'M' gives 'Dec' in Dutch and 'Déc' in French,
'N' gives Dutch months without their dot, 'D' German and French weekdays without theirs. The
abbreviations below are CLDR's (the "format" forms its locales nl, de and fr publish), and
each style is one pattern a language, so a page and a mail say a moment the same way.
"""

from __future__ import annotations

from datetime import date, datetime

from django.utils import translation

MONTHS = {
    "en": "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec",
    "nl": "jan. feb. mrt. apr. mei jun. jul. aug. sep. okt. nov. dec.",
    "de": "Jan. Feb. März Apr. Mai Juni Juli Aug. Sept. Okt. Nov. Dez.",
    "fr": "janv. févr. mars avr. mai juin juil. août sept. oct. nov. déc.",
}
WEEKDAYS = {  # Monday first, as datetime.weekday() counts
    "en": "Mon Tue Wed Thu Fri Sat Sun",
    "nl": "ma di wo do vr za zo",
    "de": "Mo. Di. Mi. Do. Fr. Sa. So.",
    "fr": "lun. mar. mer. jeu. ven. sam. dim.",
}
# {wd} weekday, {d} day, {dd} day in two digits, {mon} month, {y} year, {hm} hours:minutes.
STYLES = {
    "day": {  # a day: "on vacation until ..."
        "en": "{wd} {d} {mon} {y}",
        "nl": "{wd} {d} {mon} {y}",
        "de": "{wd}, {d}. {mon} {y}",
        "fr": "{wd} {d} {mon} {y}",
    },
    "date": {  # a day in a list (finished on, created on)
        "en": "{d} {mon} {y}",
        "nl": "{d} {mon} {y}",
        "de": "{d}. {mon} {y}",
        "fr": "{d} {mon} {y}",
    },
    "date_time": {
        "en": "{d} {mon} {y} {hm}",
        "nl": "{d} {mon} {y} {hm}",
        "de": "{d}. {mon} {y}, {hm}",
        "fr": "{d} {mon} {y} à {hm}",
    },
    "short": {  # within the match's days: its history, its chat
        "en": "{d} {mon} {hm}",
        "nl": "{d} {mon} {hm}",
        "de": "{d}. {mon}, {hm}",
        "fr": "{d} {mon} à {hm}",
    },
    "deadline": {  # soon: the weekday says it, the year need not
        "en": "{wd} {d} {mon}, {hm}",
        "nl": "{wd} {d} {mon}, {hm}",
        "de": "{wd}, {d}. {mon}, {hm}",
        "fr": "{wd} {d} {mon} à {hm}",
    },
    "full": {  # a mail's deadline, read days later: everything
        "en": "{wd} {dd} {mon} {y}, {hm}",
        "nl": "{wd} {d} {mon} {y}, {hm}",
        "de": "{wd}, {d}. {mon} {y}, {hm}",
        "fr": "{wd} {d} {mon} {y} à {hm}",
    },
}
# Styles that name the time zone after the time ("CET"): a deadline is read far away.
ZONED = {"deadline", "full"}


def written(moment: date | datetime | None, style: str = "date", language: str = "") -> str:
    """`moment` in `style` as `language` (the active one by default) writes it, in the time
    zone it carries (the template filter `written` puts it in the page's zone first)."""
    if moment is None or moment == "":
        return ""
    language = (language or translation.get_language() or "en").split("-")[0]
    if language not in MONTHS:
        language = "en"
    hm = f"{moment:%H:%M}" if isinstance(moment, datetime) else ""
    said = STYLES[style][language].format(
        wd=WEEKDAYS[language].split()[moment.weekday()],
        d=moment.day,
        dd=f"{moment.day:02d}",
        mon=MONTHS[language].split()[moment.month - 1],
        y=moment.year,
        hm=hm,
    )
    zone = moment.tzname() if isinstance(moment, datetime) and style in ZONED else None
    return f"{said} {zone}" if zone else said
