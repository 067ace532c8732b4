"""A tournament's chat channels: connected by its organiser or a player, they hear each
round's draw and the end, and follow every match of the tournament as the match's own
channels do (notifications.hooks, which writes the rows)."""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import get_game
from games.models import Match, Seat
from games.services import ServiceError
from notifications.emails import match_label
from notifications.hooks import Channels, channel_row, check_channel, follow, may_manage
from notifications.models import HookKind, MatchHook, Notification

from .models import Table, Tournament, TournamentHook


def may_connect_tournament(tournament, user) -> bool:
    """The organiser or anyone signed up."""
    return (
        tournament.organiser_id == user.pk
        or tournament.entries.filter(user=user, withdrawn_at__isnull=True).exists()
    )


def add_tournament_hook(tournament, user, url: str, kind: str = HookKind.DISCORD, chat=False):
    """Connect a channel to a tournament: it hears each round's draw and the end, and every
    match of the tournament from then on (the running ones too) as the match's own channel."""
    if not may_connect_tournament(tournament, user):
        raise ServiceError(_("Only the organiser or a player may connect a channel."))
    check_channel(url, kind)
    with transaction.atomic():
        # The tournament's row, as a round's draw locks it: a round drawn at the same time
        # either sees this channel or is among the running tables below.
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        hook = TournamentHook.objects.create(
            tournament=tournament, url=url, kind=kind, chat=chat, added_by=user
        )
        running = Table.objects.filter(
            round__tournament=tournament, match__status__in=("waiting", "active")
        ).select_related("match")
        for table in running:
            follow(table.match, hook)
    return hook


def may_manage_tournament_hook(tournament, hook, user) -> bool:
    return may_manage(
        hook,
        user,
        organiser_id=tournament.organiser_id,
        permission="tournaments.change_tournamenthook",
    )


def may_open_tournament_hooks(tournament, user) -> bool:
    """Who may open a tournament's channels page: who may connect one, who connected one of
    them, and staff with the permission."""
    return (
        may_connect_tournament(tournament, user)
        or tournament.hooks.filter(added_by=user).exists()
        or (user.is_staff and user.has_perm("tournaments.view_tournamenthook"))
    )


def remove_tournament_hook(tournament, user, hook_id: int) -> None:
    """Disconnect a channel from a tournament and from its matches: by who connected it, the
    organiser, or staff."""
    with transaction.atomic():
        hook = tournament.hooks.filter(pk=hook_id).first()
        if hook is None:
            raise ServiceError(_("That channel is not connected to this tournament."))
        if not may_manage_tournament_hook(tournament, hook, user):
            raise ServiceError(
                _("Only who connected a channel, the organiser or staff may remove it.")
            )
        # The matches' copies of it (follow), not a channel a player connected to a match.
        followed = MatchHook.objects.filter(
            match__tournament_table__round__tournament=tournament,
            url=hook.url,
            added_by=hook.added_by,
        )
        matches = set(followed.values_list("match_id", flat=True))
        followed.delete()
        Match.objects.filter(pk__in=matches).exclude(hooks__isnull=False).update(hooked=False)
        hook.delete()


def tournament_channels(tournament) -> Channels:
    return Channels(
        hooks=tournament.hooks.all,
        may_open=partial(may_open_tournament_hooks, tournament),
        may_connect=partial(may_connect_tournament, tournament),
        may_manage=partial(may_manage_tournament_hook, tournament),
        add=partial(add_tournament_hook, tournament),
        remove=partial(remove_tournament_hook, tournament),
    )


def _tournament_rows(tournament, key: str, text_for) -> list[Notification]:
    return [
        channel_row(hook, f"tournament-hook:{hook.pk}:{key}", text_for)
        for hook in tournament.hooks.select_related("added_by")
    ]


def _tournament_url(tournament) -> str:
    return settings.SITE_URL + reverse("tournament_detail", args=[tournament.pk])


def rows_for_round(tournament, round_) -> list[Notification]:
    """A round was drawn: its tables (each match named), and who has the bye."""
    tables = Table.objects.filter(round=round_).select_related("match")
    sitting_out = list(get_user_model().objects.filter(pk__in=round_.sat_out or []).order_by("pk"))
    seats = Seat.objects.filter(match__tournament_table__round=round_).order_by("number")

    def text() -> str:
        names: dict[int, list[str]] = {}
        for seat in seats:
            names.setdefault(seat.match_id, []).append(seat.name)
        drawn = "; ".join(
            f"{match_label(t.match)}: {', '.join(names.get(t.match_id, []))}" for t in tables
        )
        said = _("%(tournament)s (%(game)s), round %(round)s of %(rounds)s: %(tables)s.") % {
            "tournament": tournament.name,
            "game": get_game(tournament.game_slug).title,
            "round": round_.number,
            "rounds": tournament.rounds,
            "tables": drawn,
        }
        from community.names import public_name

        if round_.bye_id:
            said += " " + _("%(name)s has the bye.") % {"name": public_name(round_.bye)}
        if sitting_out:  # the tables could not seat them (tournaments.services)
            names = ", ".join(public_name(user) for user in sitting_out)
            said += " " + ngettext(
                "%(names)s sits this round out.", "%(names)s sit this round out.", len(sitting_out)
            ) % {"names": names}
        return f"{said} {_tournament_url(tournament)}"

    return _tournament_rows(tournament, f"round:{round_.pk}", text)


def rows_for_tournament_end(tournament, standings: list[str]) -> list[Notification]:
    """The tournament is over: its final standings, best first."""

    def text() -> str:
        said = _("%(tournament)s (%(game)s) is over: %(standings)s.") % {
            "tournament": tournament.name,
            "game": get_game(tournament.game_slug).title,
            "standings": ", ".join(standings),
        }
        return f"{said} {_tournament_url(tournament)}"

    return _tournament_rows(tournament, "end", text)
