"""A player's preferences: reading them, their time zone, quiet hours, vacations."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import NoticeMode, Preferences, Vacation

UTC = ZoneInfo("UTC")


def vacation_allowance() -> int:
    """Vacation days every player has each calendar year, before the days earned by playing
    (games.vacation_bank)."""
    return int(getattr(settings, "PBM_VACATION_DAYS_PER_YEAR", 20))


def prefs_for(user) -> Preferences:
    """The user's preferences; the defaults (unsaved) for a user who never set any."""
    if user is None or user.pk is None:
        return Preferences()
    try:
        return user.notification_prefs
    except Preferences.DoesNotExist:
        return Preferences(user=user)


def saved_prefs_for(user) -> Preferences:
    with transaction.atomic():
        prefs, _ = Preferences.objects.get_or_create(user=user)
    return prefs


def zone(prefs: Preferences) -> ZoneInfo:
    try:
        return ZoneInfo(prefs.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


# The tz database's regions: names outside them (US/Eastern, Etc/GMT+1, W-SU, Zulu,
# localtime) are old aliases and technical names a player should not have to wade through.
REGIONS = (
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)
ZONE_TABLES = ("/usr/share/zoneinfo/zone1970.tab", "/usr/share/zoneinfo/zone.tab")


@cache
def time_zone_choices() -> tuple[str, ...]:
    """The zones a player picks from, sorted: UTC and the canonical zone of every place (the
    tz database's zone tables, where the system has them; else every name in a region, old
    links such as Asia/Calcutta included). `available_timezones()` walks the tz database
    (tens of milliseconds), so this is read once per process."""
    known = available_timezones()
    canonical: set[str] = set()
    for table in ZONE_TABLES:
        try:
            with open(table, encoding="utf-8") as lines:
                for line in lines:
                    fields = line.split("\t")
                    if not line.startswith("#") and len(fields) >= 3:
                        canonical.add(fields[2].strip())
        except OSError:
            continue
    zones = canonical & known or {z for z in known if z.split("/")[0] in REGIONS}
    return ("UTC", *sorted(zones))


@cache
def time_zone_form_choices() -> tuple[tuple[str, object], ...]:
    """The choices grouped by region, each place named as people write it:
    ("Europe", (("Europe/Amsterdam", "Amsterdam"), ...)), UTC first on its own."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for name in time_zone_choices()[1:]:
        region, _, place = name.partition("/")
        groups.setdefault(region, []).append((name, place.replace("_", " ").replace("/", " / ")))
    return (("UTC", "UTC"), *((region, tuple(places)) for region, places in groups.items()))


def is_valid_time_zone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def _at(day: date, clock: time, tz: ZoneInfo) -> datetime:
    return datetime.combine(day, clock, tzinfo=tz).astimezone(UTC)


def _quiet_window(prefs: Preferences) -> tuple[time, time] | None:
    start, end = prefs.quiet_start, prefs.quiet_end
    if start is None or end is None or start == end:
        return None
    return start, end


def night_window(prefs: Preferences) -> tuple[time, time] | None:
    """The player's night: their quiet hours, or, when they set none, PBM_NIGHT_START to
    PBM_NIGHT_END (22:00 to 07:00) in their time zone (None: no night but quiet hours, as
    in tests that do not set their clock). Reminders, digests and the mail the clock writes
    on its own never come in it, nor deadlines, nor mail for a player who is not up."""
    start = getattr(settings, "PBM_NIGHT_START", 22)
    end = getattr(settings, "PBM_NIGHT_END", 7)
    if start is None or end is None:
        return _quiet_window(prefs)
    return _quiet_window(prefs) or (time(int(start)), time(int(end)))


# The three rules below read the clock time of `at` in the player's zone and build moments
# from dates with that zone (datetime.combine(..., tzinfo=zone)), so each day's own UTC
# offset applies: a window follows the change to and from summer time.


def _inside(window: tuple[time, time] | None, tz: ZoneInfo, at: datetime) -> bool:
    if window is None:
        return False
    start, end = window
    clock = at.astimezone(tz).time()
    if start < end:
        return start <= clock < end
    return clock >= start or clock < end  # overnight, e.g. 22:00 to 07:00


def _end_after(window: tuple[time, time] | None, tz: ZoneInfo, at: datetime) -> datetime:
    if not _inside(window, tz, at):
        return at
    start, end = window
    local = at.astimezone(tz)
    if start > end and local.time() >= start:
        return _at(local.date() + timedelta(days=1), end, tz)
    return _at(local.date(), end, tz)


def _start_before(window: tuple[time, time] | None, tz: ZoneInfo, at: datetime) -> datetime:
    if not _inside(window, tz, at):
        return at
    start, end = window
    local = at.astimezone(tz)
    if start > end and local.time() < end:
        return _at(local.date() - timedelta(days=1), start, tz)
    return _at(local.date(), start, tz)


def in_quiet_hours(prefs: Preferences, at: datetime) -> bool:
    return _inside(_quiet_window(prefs), zone(prefs), at)


def quiet_end_after(prefs: Preferences, at: datetime) -> datetime:
    """`at` itself outside quiet hours, else the moment those quiet hours end."""
    return _end_after(_quiet_window(prefs), zone(prefs), at)


def quiet_start_before(prefs: Preferences, at: datetime) -> datetime:
    """`at` itself outside quiet hours, else the moment those quiet hours began."""
    return _start_before(_quiet_window(prefs), zone(prefs), at)


def in_night(prefs: Preferences, at: datetime) -> bool:
    return _inside(night_window(prefs), zone(prefs), at)


def night_end_after(prefs: Preferences, at: datetime) -> datetime:
    """`at` itself outside the player's night, else the moment it ends."""
    return _end_after(night_window(prefs), zone(prefs), at)


def night_start_before(prefs: Preferences, at: datetime) -> datetime:
    """`at` itself outside the player's night, else the moment it began."""
    return _start_before(night_window(prefs), zone(prefs), at)


def local_time(prefs: Preferences, at: datetime | None) -> str:
    """A moment as the player reads it: 'Tue 14 May 2024, 18:00 CEST', in the active
    language as it writes one: 'di 14 mei 2024, 18:00 CEST' (players.dates)."""
    from players.dates import written

    if at is None:
        return ""
    return written(at.astimezone(zone(prefs)), "full")


def vacation_days(user) -> set[date]:
    if user is None or user.pk is None:
        return set()
    return vacation_days_by_user([user.pk]).get(user.pk, set())


def prefs_by_user(user_ids) -> dict[int, Preferences]:
    """The saved preferences of several users in one query (users without any are absent)."""
    ids = {pk for pk in user_ids if pk is not None}
    if not ids:
        return {}
    return {p.user_id: p for p in Preferences.objects.filter(user_id__in=ids)}


def vacation_booked() -> Exists:
    """Whether the seat's player has any vacation booked, as an annotation of a seat query."""
    return Exists(Vacation.objects.filter(user_id=OuterRef("user_id")))


def vacation_days_by_user(user_ids) -> dict[int, set[date]]:
    """Every user's vacation days, booked or spent by the clock in any match (what their
    bank counts), for several users in one query."""
    days: dict[int, set[date]] = {}
    for user_id, (booked, spent) in calendar_days_by_user(user_ids).items():
        days[user_id] = booked | {day for _, day in spent}
    return days


def calendar_days_by_user(user_ids) -> dict[int, tuple[set[date], set[tuple[int, date]]]]:
    """Every user's days off as their matches' clocks read them, in one query: the days
    they booked (every match skips them), and the days the clock spent from their bank,
    as (match id, day): only that match skips those."""
    ids = {pk for pk in user_ids if pk is not None}
    days: dict[int, tuple[set[date], set[tuple[int, date]]]] = {pk: (set(), set()) for pk in ids}
    if not ids:
        return days
    for vacation in Vacation.objects.filter(user_id__in=ids):
        booked, spent = days[vacation.user_id]
        for n in range(vacation.days):
            day = vacation.first_day + timedelta(days=n)
            if vacation.automatic and vacation.match_id is not None:
                spent.add((vacation.match_id, day))
            else:
                booked.add(day)
    return days


def book_vacation(
    *, user, first_day: date, last_day: date, allowance: Callable[[int], int] | None = None
) -> Vacation:
    """Book days off; refused (ValueError with a sentence) beyond the yearly allowance
    (`allowance(year)`: the player's, games.vacation_bank.allowance; else the base one)."""
    allowed = allowance or (lambda year: vacation_allowance())
    if last_day < first_day:
        raise ValueError(_("The last day of a vacation cannot be before its first day."))
    today = timezone.now().astimezone(zone(prefs_for(user))).date()
    if last_day < today:
        raise ValueError(_("That vacation is already over."))
    with transaction.atomic():
        taken = vacation_days(user)
        wanted = {first_day + timedelta(days=n) for n in range((last_day - first_day).days + 1)}
        for year in {d.year for d in wanted}:
            total = len({d for d in taken | wanted if d.year == year})
            if total > allowed(year):
                raise ValueError(
                    _(
                        "That makes %(total)s vacation days in %(year)s; "
                        "your allowance is %(allowed)s that year."
                    )
                    % {"total": total, "year": year, "allowed": allowed(year)}
                )
        return Vacation.objects.create(user=user, first_day=first_day, last_day=last_day)


def email_status(user) -> dict:
    """What the site tells a player about their email: failing (delivery gave up, or the ESP
    reported a bounce; their deadlines are stopped meanwhile), or none chosen (deadlines
    still run)."""
    from .calendar import clock_stopped

    prefs = prefs_for(user)
    return {
        "webhook_failing": prefs.webhook_failing,
        "webhook_reason": prefs.webhook_failure,
        "webhook_since": prefs.webhook_failed_at,
        "clock_stopped": clock_stopped(prefs),
        "failing": prefs.email_failing,
        "permanent": prefs.email_failure_permanent,
        "reason": prefs.email_failure,
        "since": prefs.email_failed_at,
        "no_email": prefs.mode == NoticeMode.NONE,
    }
