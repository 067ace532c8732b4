"""A match's chat channels: a player (or the match's creator) connects a Discord or Slack
incoming webhook, or any JSON webhook, and it is told of each move, whose turn it is, the
end, and the chat if chosen, each message naming the match and the game. Rows go through
the outbox like mail (never lost, retried, once each) to the URL checked as players'
webhooks are (public addresses only, the name resolved once). A channel may have other
readers: it is told only what a spectator may know."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.language import localize
from games.models import Match, MoveKind, Seat
from games.pages import board_template
from games.services import ServiceError
from players.language import language_of

from .emails import match_label, match_url
from .models import Channel, HookKind, Kind, MatchHook, Notification, Status
from .transports import check_webhook_url


def check_channel(url: str, kind: str) -> None:
    """ServiceError unless `url` is a webhook we may post to and `kind` one we know."""
    problem = check_webhook_url(url)
    if problem:
        raise ServiceError(problem)
    if kind not in HookKind.values:
        raise ServiceError(_("Choose Discord, Slack or JSON."))


def may_connect(match: Match, user) -> bool:
    """A player of the match or its creator."""
    return match.created_by_id == user.pk or match.seats.filter(user=user).exists()


def _organiser_id(match: Match) -> int | None:
    table = getattr(match, "tournament_table", None)
    return table.round.tournament.organiser_id if table is not None else None


def may_manage(hook, user, *, organiser_id: int | None, permission: str) -> bool:
    """Whether `user` may see `hook`'s (masked) address and remove it: who connected it, the
    tournament's organiser, or staff given `permission` ('app.change_model')."""
    return (
        (hook.added_by_id is not None and hook.added_by_id == user.pk)
        or (organiser_id is not None and organiser_id == user.pk)
        or (user.is_staff and user.has_perm(permission))
    )


def may_manage_match_hook(match: Match, hook, user) -> bool:
    return may_manage(
        hook, user, organiser_id=_organiser_id(match), permission="notifications.change_matchhook"
    )


def may_open_match_hooks(match: Match, user) -> bool:
    """Who may open a match's channels page: who may connect one, the tournament's organiser,
    who connected one of them, and staff with the permission; to anyone else the page does
    not exist (a private match's existence is no stranger's business)."""
    return (
        may_connect(match, user)
        or _organiser_id(match) == user.pk
        or match.hooks.filter(added_by=user).exists()
        or (user.is_staff and user.has_perm("notifications.view_matchhook"))
    )


@dataclass(frozen=True)
class Channels:
    """What a channels page may do for whom: a match's (match_channels) or a tournament's
    (tournaments.hooks.tournament_channels). Each takes the user; `may_manage` the hook too."""

    hooks: Callable[[], QuerySet]
    may_open: Callable
    may_connect: Callable
    may_manage: Callable
    add: Callable
    remove: Callable


def match_channels(match: Match) -> Channels:
    return Channels(
        hooks=match.hooks.all,
        may_open=partial(may_open_match_hooks, match),
        may_connect=partial(may_connect, match),
        may_manage=partial(may_manage_match_hook, match),
        add=partial(add_hook, match),
        remove=partial(remove_hook, match),
    )


def add_hook(match: Match, user, url: str, kind: str = HookKind.DISCORD, chat: bool = False):
    if not may_connect(match, user):
        raise ServiceError(_("Only a player or the match's creator may connect a channel."))
    check_channel(url, kind)
    with transaction.atomic():
        hook = MatchHook.objects.create(match=match, url=url, kind=kind, chat=chat, added_by=user)
        Match.objects.filter(pk=match.pk).update(hooked=True)
    return hook


def remove_hook(match: Match, user, hook_id: int) -> None:
    """Disconnect a channel: by who connected it, the tournament's organiser, or staff."""
    with transaction.atomic():
        hook = MatchHook.objects.filter(match=match, pk=hook_id).first()
        if hook is None:
            raise ServiceError(_("That channel is not connected to this match."))
        if not may_manage_match_hook(match, hook, user):
            raise ServiceError(
                _("Only who connected a channel, the organiser or staff may remove it.")
            )
        hook.delete()
        if not match.hooks.exists():
            Match.objects.filter(pk=match.pk).update(hooked=False)


BOARD_SALT = "notifications.hook-board"


def board_image_url(match: Match, seq: int, language: str) -> str:
    """A signed address of the board after move `seq` as a PNG, as a spectator sees it, in
    `language`: for the services that show a message's image (Discord's embed, Slack's image
    block), which fetch it from us. Unguessable, and it names a position that never changes."""
    token = signing.dumps([match.pk, seq, language], salt=BOARD_SALT)
    return settings.SITE_URL + reverse("notifications:hook_board", args=[token])


def _rows(
    match: Match, key: str, text_for, chat: bool = False, board: bool = False
) -> list[Notification]:
    """A row for each of the match's channels (with chat, those that chose it), its text
    written by `text_for()` in the language of who connected the channel; with `board`, the
    address of the board's image after it too (for a game that draws one)."""
    board = board and board_template(match.game_slug) is not None
    hooks = match.hooks.select_related("added_by")
    if chat:
        hooks = hooks.filter(chat=True)

    addresses: dict[str, str] = {}  # one signed address per language: the same image

    def image(language: str) -> dict:
        if not board:
            return {}
        if language not in addresses:
            addresses[language] = board_image_url(match, match.head_seq, language)
        return {"image": addresses[language]}

    return [
        channel_row(hook, f"hook:{hook.pk}:{key}", text_for, image, match=match) for hook in hooks
    ]


def channel_row(hook, key: str, text_for, extra=None, match: Match | None = None):
    """The row that tells `hook`'s channel `text_for()`, said in the language of who
    connected it (`extra(language)`: more of the row's context)."""
    language = language_of(hook.added_by) if hook.added_by else settings.LANGUAGE_CODE
    with translation.override(language):
        text = text_for()
    return Notification(
        kind=Kind.CHANNEL,
        channel=Channel.WEBHOOK,
        status=Status.PENDING,
        dedupe_key=key[:200],
        address=hook.url,
        match=match,
        seq=match.head_seq if match else None,
        context={"text": text, "hook": hook.kind, "language": language}
        | (extra(language) if extra else {}),
        send_after=timezone.now(),
    )


def moves_text(match: Match, seats: list[Seat], moves: list) -> str:
    """What the moves did, in the active language."""
    names = {s.number: s.name for s in seats}
    played = [m for m in moves if m.kind in (MoveKind.MOVE, MoveKind.TIMEOUT, MoveKind.RESIGN)]
    who = ", ".join(dict.fromkeys(names.get(m.seat, "?") for m in played if m.seat is not None))
    waiting = ", ".join(names[s] for s in match.to_act if s in names)
    text = ngettext(
        "%(match)s: %(count)s move by %(who)s.",
        "%(match)s: %(count)s moves by %(who)s.",
        len(played),
    ) % {"match": match_label(match), "count": len(played), "who": who}
    if waiting:
        text += " " + _("Now: %(waiting)s (%(prompt)s).") % {
            "waiting": waiting,
            "prompt": localize(match.prompt_text),
        }
    return f"{text} {match_url(match)}"


def rows_for_moves(match: Match, seats: list[Seat], moves: list) -> list[Notification]:
    if not match.hooked or not moves:
        return []
    return _rows(
        match, f"moves:{moves[-1].seq}", lambda: moves_text(match, seats, moves), board=True
    )


def rows_for_end(match: Match, seats: list[Seat]) -> list[Notification]:
    if not match.hooked:
        return []
    names = {s.number: s.name for s in seats}
    ranking = (match.result or {}).get("ranking") or []
    order = ", ".join(names.get(s, "?") for s in ranking)

    def text() -> str:
        if order:
            over = _("%(match)s is over: %(order)s.") % {
                "match": match_label(match),
                "order": order,
            }
        else:
            over = _("%(match)s is over.") % {"match": match_label(match)}
        return f"{over} {match_url(match)}"

    return _rows(match, "end", text, board=True)


def rows_for_chat(match: Match, message, seats: list[Seat]) -> list[Notification]:
    if not match.hooked:
        return []
    names = {s.number: s.name for s in seats}

    def text() -> str:
        who = names.get(message.seat) or _("a player")
        return f"{match_label(match)}, {who}: {message.text}"

    return _rows(match, f"chat:{message.pk}", text, chat=True)


def follow(match: Match, hook) -> None:
    """`match` told to a tournament's channel, as its own channel would be."""
    if not MatchHook.objects.filter(match=match, url=hook.url).exists():
        MatchHook.objects.create(
            match=match, url=hook.url, kind=hook.kind, chat=hook.chat, added_by=hook.added_by
        )
        Match.objects.filter(pk=match.pk).update(hooked=True)
