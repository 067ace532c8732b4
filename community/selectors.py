"""Reads for the leaderboard, profiles and the archive. Every list is paged."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, OuterRef, Q, Value
from django.db.models.functions import Concat
from django.utils import timezone
from django.utils.translation import gettext

from community.charts import Point, rating_chart
from community.models import ProfileSettings, Rating, RatingChange
from community.names import public_name
from community.ratings import places_of
from games.engine import get_game
from games.models import Match, MatchStatus, Move, MoveKind, MoveSource, Seat

PAGE_SIZE = 25
# A player's own decisions: what they chose, on the site, by email, through the API or by
# the standing orders they left. Forced and automatic moves are nobody's decision.
OWN_DECISION_SOURCES = (MoveSource.WEB, MoveSource.EMAIL, MoveSource.API, MoveSource.STANDING)
RECENT_MATCHES_FOR_REPLY_TIME = 20


def is_hidden(user) -> bool:
    return ProfileSettings.objects.filter(user=user, hidden=True).exists()


def leaderboard(game_slug: str, page_number: str | int | None) -> Page:
    ratings = (
        Rating.objects.filter(game_slug=game_slug)
        .select_related("user", "user__profile_settings")
        .order_by("-ordinal", "user_id")
    )
    page = Paginator(ratings, 50).get_page(page_number)
    for offset, rating in enumerate(page.object_list):
        rating.place = page.start_index() + offset
        rating.name = public_name(rating.user)
        settings = getattr(rating.user, "profile_settings", None)
        rating.linked = not (settings and settings.hidden)
    return page


@dataclass
class GameRecord:
    title: str
    slug: str
    played: int = 0
    places: list[tuple[int, int]] = field(default_factory=list)  # (place, times), best first
    rating: Rating | None = None
    chart: str = ""


@dataclass
class Reliability:
    decisions: int
    timeouts: int
    resigned: int

    @property
    def on_time_percent(self) -> int | None:
        total = self.decisions + self.timeouts
        return round(100 * self.decisions / total) if total else None


@dataclass
class Profile:
    user: object
    name: str
    games: list[GameRecord]
    reliability: Reliability
    usual_reply: timedelta | None
    current: list[Match]
    on_vacation_until: date | None


def profile(user, viewer) -> Profile:
    finished = (
        Seat.objects.filter(user=user, match__status=MatchStatus.FINISHED)
        .select_related("match")
        .only("number", "match__game_slug", "match__result", "match__player_count")
    )
    played: Counter[str] = Counter()
    places: dict[str, Counter[int]] = defaultdict(Counter)
    for seat in finished.iterator(chunk_size=500):
        match = seat.match
        played[match.game_slug] += 1
        ranks = places_of(match.result, match.player_count)
        if seat.number < len(ranks):
            places[match.game_slug][ranks[seat.number]] += 1
    ratings = {r.game_slug: r for r in Rating.objects.filter(user=user)}
    games = []
    for slug in sorted(set(played) | set(ratings)):
        title = _title(slug)
        record = GameRecord(
            title=title,
            slug=slug,
            played=played[slug],
            places=sorted(places[slug].items()),
            rating=ratings.get(slug),
        )
        history = RatingChange.objects.filter(user=user, game_slug=slug).order_by(
            "finished_at", "match_id"
        )[:200]
        record.chart = rating_chart(
            [
                Point(
                    c.finished_at,
                    c.ordinal_after,
                    f"#{c.match_id}, place {c.place}: {c.ordinal_after:.1f}",
                )
                for c in history
            ],
            f"{public_name(user)}'s {title} rating after each rated match",
        )
        games.append(record)
    current = Match.objects.filter(seats__user=user, status=MatchStatus.ACTIVE)
    if not (viewer.is_authenticated and (viewer.pk == user.pk or viewer.is_staff)):
        # Matches in play are private unless watchable; a stranger does not learn of them.
        current = current.filter(watchable=True)
    return Profile(
        user=user,
        name=public_name(user),
        games=games,
        reliability=reliability(user),
        usual_reply=usual_reply_time(user),
        current=list(current.order_by("-started_at")[:PAGE_SIZE]),
        on_vacation_until=_vacation_until(user),
    )


def reliability(user) -> Reliability:
    own_seat = Seat.objects.filter(
        match_id=OuterRef("match_id"), number=OuterRef("seat"), user=user
    )
    counts = Move.objects.filter(Exists(own_seat)).aggregate(
        decisions=Count("pk", filter=Q(kind=MoveKind.MOVE, source__in=OWN_DECISION_SOURCES)),
        timeouts=Count("pk", filter=Q(kind=MoveKind.TIMEOUT)),
    )
    resigned = Seat.objects.filter(user=user, resigned=True).count()
    return Reliability(counts["decisions"], counts["timeouts"], resigned)


def usual_reply_time(user) -> timedelta | None:
    """The median time between the entry before a player's own decision and the decision,
    over their most recent matches: how long they usually take once it is their turn."""
    seats = dict(
        Seat.objects.filter(user=user)
        .order_by("-match_id")
        .values_list("match_id", "number")[:RECENT_MATCHES_FOR_REPLY_TIME]
    )
    if not seats:
        return None
    gaps = []
    previous: dict[int, datetime] = {}
    moves = (
        Move.objects.filter(match_id__in=seats)
        .order_by("match_id", "seq")
        .values_list("match_id", "seat", "kind", "source", "created_at")
    )
    for match_id, seat, kind, source, created_at in moves.iterator(chunk_size=2000):
        before = previous.get(match_id)
        if (
            before is not None
            and seat == seats[match_id]
            and kind == MoveKind.MOVE
            and source in OWN_DECISION_SOURCES
        ):
            gaps.append((created_at - before).total_seconds())
        previous[match_id] = created_at
    return timedelta(seconds=statistics.median(gaps)) if gaps else None


def _vacation_until(user) -> date | None:
    try:
        from players.models import Vacation
    except ImportError:  # the notifications app is optional for this page
        return None
    today = timezone.localdate()
    vacation = (
        Vacation.objects.filter(user=user, first_day__lte=today, last_day__gte=today)
        .order_by("-last_day")
        .first()
    )
    return vacation.last_day if vacation else None


def _title(slug: str) -> str:
    try:
        return get_game(slug).title
    except KeyError:
        return slug


@dataclass
class ArchiveFilters:
    game: str = ""
    player: str = ""
    finished_from: date | None = None
    finished_to: date | None = None


@dataclass
class ArchivePage:
    """One page of the archive, newest first. `newer` and `older` are the cursors of the
    pages on either side (None at either end); `number` and `pages` are given only when the
    page was asked for by number (the API's old way: it counts, and deep offsets cost)."""

    matches: list[Match]
    newer: str | None = None
    older: str | None = None
    number: int | None = None
    pages: int | None = None


# Names this short are searched as the start of a word: "Al" is more likely to mean Alice
# than Sal.
SHORT_NAME = 3


def archive(
    filters: ArchiveFilters,
    *,
    older_than: str | None = None,
    newer_than: str | None = None,
    page: int | None = None,
) -> ArchivePage:
    """Finished matches, newest first, with their players and placings: the page after the
    cursor `older_than`, the page before `newer_than`, page number `page` (counted, by
    offset), or the newest. Read through match_finished_newest from the cursor on, so a
    page costs the same at any depth and in any size of archive."""
    matches = _finished(filters)
    if page is not None:
        paginator = Paginator(matches.order_by("-finished_at", "-pk"), PAGE_SIZE)
        numbered = paginator.get_page(page)
        rows = list(numbered.object_list)
        return _placed(
            ArchivePage(
                rows,
                newer=None if numbered.number == 1 or not rows else cursor_of(rows[0]),
                older=cursor_of(rows[-1]) if numbered.has_next() else None,
                number=numbered.number,
                pages=paginator.num_pages,
            )
        )
    newer = read_cursor(newer_than) if older_than is None else None
    if newer is not None:
        rows = list(_newer_than(matches, newer).order_by("finished_at", "pk")[: PAGE_SIZE + 1])
        if len(rows) <= PAGE_SIZE:
            return archive(filters)  # back at the newest: the first page, whole
        rows = rows[:PAGE_SIZE][::-1]
        return _placed(ArchivePage(rows, newer=cursor_of(rows[0]), older=cursor_of(rows[-1])))
    older = read_cursor(older_than)
    if older is not None:
        matches = _older_than(matches, older)
    rows = list(matches.order_by("-finished_at", "-pk")[: PAGE_SIZE + 1])
    more = len(rows) > PAGE_SIZE
    rows = rows[:PAGE_SIZE]
    return _placed(
        ArchivePage(
            rows,
            newer=cursor_of(rows[0]) if older is not None and rows else None,
            older=cursor_of(rows[-1]) if more else None,
        )
    )


def cursor_of(match: Match) -> str:
    """Where a match stands in the archive's order: its finishing time (microseconds since
    the epoch) and its id."""
    return f"{round(match.finished_at.timestamp() * 1_000_000)}_{match.pk}"


def read_cursor(text: str | None) -> tuple[datetime, int] | None:
    """A cursor's (finished_at, id); None for no cursor or one that does not read."""
    try:
        micros, pk = (int(part) for part in (text or "").split("_"))
        return datetime.fromtimestamp(micros / 1_000_000, tz=UTC), pk
    except (ValueError, OverflowError, OSError):
        return None


def _older_than(matches, cursor: tuple[datetime, int]):
    at, pk = cursor
    # The redundant bound gives the index a range to start from.
    return matches.filter(finished_at__lte=at).filter(
        Q(finished_at__lt=at) | Q(finished_at=at, pk__lt=pk)
    )


def _newer_than(matches, cursor: tuple[datetime, int]):
    at, pk = cursor
    return matches.filter(finished_at__gte=at).filter(
        Q(finished_at__gt=at) | Q(finished_at=at, pk__gt=pk)
    )


def _finished(filters: ArchiveFilters):
    matches = Match.objects.filter(status=MatchStatus.FINISHED, finished_at__isnull=False)
    if "\x00" in filters.game + filters.player:
        # No game or name holds a NUL, and PostgreSQL refuses one in a query (a 500, not a page).
        return matches.none()
    if filters.game:
        matches = matches.filter(game_slug=filters.game)
    name = filters.player.strip()
    if name:
        matches = matches.filter(pk__in=_matches_of_players_named(name))
    # Whole days in the site's time zone, as a range the index can read.
    zone = timezone.get_current_timezone()
    if filters.finished_from:
        start = datetime.combine(filters.finished_from, datetime.min.time(), zone)
        matches = matches.filter(finished_at__gte=start)
    if filters.finished_to:
        end = datetime.combine(filters.finished_to + timedelta(days=1), datetime.min.time(), zone)
        matches = matches.filter(finished_at__lt=end)
    return matches


def _matches_of_players_named(name: str):
    """The matches of the players whose public name contains `name` (starts a word of it,
    for a short name): the players are found among the accounts, and their matches through
    their seats (seat_user_match), so a player's page costs what their matches do."""

    def named(field: str) -> Q:
        if len(name) >= SHORT_NAME:
            return Q(**{f"{field}__icontains": name})
        return Q(**{f"{field}__istartswith": name}) | Q(**{f"{field}__icontains": f" {name}"})

    # The name community.names.public_name shows: the full name, else a username that is no
    # address (an address is never searched: it is never shown).
    unnamed = Q(first_name="", last_name="") & ~Q(username__contains="@")
    people = (
        get_user_model()
        .objects.alias(full_name=Concat("first_name", Value(" "), "last_name"))
        .filter(named("full_name") | (unnamed & named("username")))
    )
    return Seat.objects.filter(user__in=people.values("pk")).values("match_id")


def _placed(page: ArchivePage) -> ArchivePage:
    """Each match's players and places, the seats of the page read in one query."""
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(match__in=[m.pk for m in page.matches]).select_related("user"):
        seats[seat.match_id].append(seat)
    for match in page.matches:
        ordered = sorted(seats[match.pk], key=lambda s: s.number)
        ranks = places_of(match.result, len(ordered))
        match.placings = sorted(
            (ranks[s.number] if s.number < len(ranks) else len(ordered), _seat_public_name(s))
            for s in ordered
        )
    return page


def _seat_public_name(seat: Seat) -> str:
    if seat.display_name:
        return seat.display_name
    return public_name(seat.user) if seat.user_id else gettext("Open seat")
