"""Leagues in seasons: each season every division is a round-robin tournament (tables for
games of more than two at a table); when the last division of a season finishes, the top
`promoted` of each division go up, as many go down, newcomers start in the bottom division,
and the next season starts by itself."""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.services import ServiceError

from . import services
from .models import (
    DEFAULT_VACATION_CAP,
    Division,
    Entry,
    Format,
    League,
    LeagueMember,
    Season,
    Tournament,
    TournamentStatus,
)


def create_league(
    *,
    organiser,
    name: str,
    game_slug: str,
    table_size: int = 2,
    division_size: int = 6,
    promoted: int = 1,
    days_per_move: int = 3,
    timeout_policy: str = "default",
) -> League:
    game = check_league_settings(
        game_slug=game_slug,
        table_size=table_size,
        division_size=division_size,
        promoted=promoted,
    )
    return League.objects.create(
        organiser=organiser,
        name=name.strip()[:80] or game.title,
        game_slug=game_slug,
        table_size=table_size,
        division_size=division_size,
        promoted=promoted,
        days_per_move=days_per_move,
        timeout_policy=timeout_policy,
    )


def check_league_settings(*, game_slug: str, table_size: int, division_size: int, promoted: int):
    """The game, if a league of these settings can be played; else a ServiceError that says
    why and what would work (the form shows it). A division that its tables cannot seat
    exactly seats the most they can each round, the others sitting it out with a bye."""
    game = services.game_at_tables(game_slug, table_size)
    if division_size < max(table_size + 1, 3) or division_size > 20:
        raise ServiceError(
            _("A division needs %(least)s to 20 players.") % {"least": max(table_size + 1, 3)}
        )
    if not 1 <= promoted <= division_size // 2:
        raise ServiceError(_("Promote at least one and at most half a division."))
    return game


def join_league(league: League, user) -> LeagueMember:
    """A newcomer plays from the next season on, in the bottom division."""
    member, created = LeagueMember.objects.get_or_create(league=league, user=user)
    if not created and member.left_at is not None:
        member.left_at = None
        member.save(update_fields=["left_at"])
    return member


def leave_league(league: League, user) -> None:
    """Leave from the next season on (the season in play is finished as any tournament)."""
    LeagueMember.objects.filter(league=league, user=user).update(left_at=timezone.now())


def _divisions(order: list[int], size: int, smallest: int) -> list[list[int]]:
    """`order` (best first) cut into divisions of `size`; a last one under `smallest` joins
    the one above it."""
    cut = [order[i : i + size] for i in range(0, len(order), size)]
    if len(cut) > 1 and len(cut[-1]) < smallest:
        cut[-2].extend(cut.pop())
    return cut


def next_order(league: League) -> list[int]:
    """Who plays where next season, best first: the last season's divisions with their top
    `promoted` moved up and bottom `promoted` down, members who left taken out, newcomers
    last (the bottom division)."""
    active = set(
        LeagueMember.objects.filter(league=league, left_at=None).values_list("user_id", flat=True)
    )
    last = league.seasons.order_by("-number").first()
    placed: list[tuple[int, int, int, int]] = []  # (level, 0 down / 1 stay / 2 up, place, player)
    seen = set()
    if last is not None:
        divisions = list(last.divisions.select_related("tournament"))
        for division in divisions:
            rows = services.current_standings(division.tournament)
            for place, row in enumerate(rows):
                level, bucket = division.level, 1
                if place < league.promoted and level > 1:
                    level, bucket = level - 1, 2  # up: at the foot of the division above
                elif place >= len(rows) - league.promoted and level < len(divisions):
                    level, bucket = level + 1, 0  # down: at the head of the one below
                placed.append((level, bucket, place, row.player))
                seen.add(row.player)
    order = [player for *_, player in sorted(placed) if player in active]
    newcomers = LeagueMember.objects.filter(league=league, left_at=None).exclude(user_id__in=seen)
    order += list(newcomers.order_by("joined_at").values_list("user_id", flat=True))
    return order


def start_season(league_id: int) -> Season | None:
    """The next season: a tournament per division, started now. None if too few play."""
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league_id)
        last = league.seasons.order_by("-number").first()
        if last is not None and last.finished_at is None:
            return None
        order = next_order(league)
        if len(order) < max(3, league.table_size + 1):
            return None
        season = Season.objects.create(league=league, number=(last.number + 1 if last else 1))
        for level, players in enumerate(
            _divisions(order, league.division_size, max(3, league.table_size + 1)), start=1
        ):
            two = league.table_size == 2
            tournament = Tournament.objects.create(
                name=f"{league.name}, season {season.number}, division {level}",
                game_slug=league.game_slug,
                table_size=league.table_size,
                format=Format.ROUND_ROBIN if two else Format.TABLES,
                rounds=0 if two else len(players) - 1,
                max_players=len(players),
                days_per_move=league.days_per_move,
                timeout_policy=league.timeout_policy,
                vacation_cap=DEFAULT_VACATION_CAP,
                organiser=league.organiser,
                seed=services.new_seed(),
            )
            Entry.objects.bulk_create(Entry(tournament=tournament, user_id=u) for u in players)
            Division.objects.create(season=season, level=level, tournament=tournament)
            services.start(tournament.pk)
        return season


def tournament_finished(tournament: Tournament) -> None:
    """A tournament ended: if it was the last division of its season, the season ends and
    the next one starts (after this commits)."""
    division = Division.objects.filter(tournament=tournament).select_related("season").first()
    if division is None:
        return
    season = division.season
    open_divisions = season.divisions.exclude(tournament__status=TournamentStatus.FINISHED)
    if open_divisions.exclude(tournament=tournament).exists():
        return
    Season.objects.filter(pk=season.pk, finished_at=None).update(finished_at=timezone.now())
    league_id = season.league_id
    # After the move commits; a failure is recorded on the division, never the mover's.
    transaction.on_commit(
        partial(services.safely, tournament.pk, "next season", partial(start_season, league_id))
    )
