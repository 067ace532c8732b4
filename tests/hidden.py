"""The hidden-information check: play a match between people, and at every checked position
render everything each seat can receive — match page, its live fragment, replay pages, the
JSON API, and every email sent to them — and fail if another seat's secret, a secret of
nobody's, or the seed before the end appears in it.

Secrets come from the game's own `secrets(state)`; the check is only as strong as those
strings, so each game's tests also check that `secrets()` is not empty where the rules hide
something.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from unittest import mock

import time_machine
from django.core import mail
from django.test import Client
from ninja.throttling import SimpleRateThrottle

from config.celery import app as celery_app
from games import services
from games.engine import event_rng, get_game, seats_to_ask
from games.models import Match
from games.selectors import load_state
from tests.factories import make_user


@dataclass
class LeakReport:
    positions: int = 0
    outputs: int = 0
    emails: int = 0
    secrets_seen: int = 0
    leaks: list[str] = field(default_factory=list)
    # Asked versus automatic: rows of seats deciding unasked (a forced move waiting for the
    # others) compared with asked seats' rows, and log entries played automatically (forced,
    # standing orders) whose label another viewer saw.
    deferred_rows_compared: int = 0
    skipped_rows_compared: int = 0
    automatic_entries_seen: int = 0
    labels: dict = field(default_factory=dict)  # (viewer, where) -> {"asked": set, "auto": set}
    # Times: each move is made a minute after the one before (automatic entries are logged
    # in the same instant as the move that let them be played). Entries played for a seat
    # that had waited unasked (deferred), and whether the time each viewer is shown for an
    # entry ties it to an earlier entry of another seat, for asked and deferred entries.
    deferred_entries: set = field(default_factory=set)
    timings: dict = field(default_factory=dict)  # viewer -> {"asked": set, "auto": set}


ASKED_SOURCES = {"web", "email", "api"}
AUTOMATIC_SOURCES = {"forced", "standing"}


def _texts_of(message) -> str:
    parts = [message.subject, message.body, json.dumps(dict(message.extra_headers))]
    parts += [content for content, _mime in getattr(message, "alternatives", [])]
    return "\n".join(str(p) for p in parts)


def _normalise(text: str) -> str:
    # Pages escape quotes and ampersands; compare unescaped text.
    return html.unescape(text)


def check_match_for_leaks(
    slug: str,
    players: int,
    *,
    options: dict | None = None,
    seed: str = "leak-check",
    every: int = 1,
    deep_every: int = 1,
    on_commit=None,
) -> LeakReport:
    """Play a match to its end and check it. `every`: check each n-th position (1: all).
    `deep_every`: at each n-th checked position (and the last), also read back through
    the log: the history from half-way and the replay page half-way, for every viewer.
    Every checked position reads the recent history (the match page's window of 40 entries,
    the API's last 60), so each line of history is searched for the secrets of the
    positions that follow it; the deep reads search old lines against later secrets.

    `on_commit` is pytest-django's `django_capture_on_commit_callbacks`, so the emails a move
    causes are sent (Celery runs eagerly here) before the position is checked.
    """
    game = get_game(slug)
    clock = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)
    users = [make_user(f"Seat{n}{seed.replace('-', '')}") for n in range(players)]
    spectator = make_user(f"Watcher{seed.replace('-', '')}")
    clients = {}
    for user in [*users, spectator]:
        client = Client()
        client.force_login(user)
        clients[user.pk] = client
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    report = LeakReport()
    # This check reads every view at every position, far above any player's rate: the API's
    # throttles (tested in tests/api) would answer 429 after the first hundred requests.
    unthrottled = mock.patch.object(SimpleRateThrottle, "allow_request", return_value=True)
    unthrottled.start()
    try:
        with time_machine.travel(clock, tick=False), on_commit(execute=True):
            match = services.create_match(
                creator=users[0],
                game_slug=slug,
                players=players,
                options=options or {},
                invite_emails=[u.email for u in users[1:]],
                seed=seed,
                watchable=True,  # the spectator follows the match from its public view
            )
            for user in users[1:]:
                services.join_match(match_id=match.pk, user=user)
        match = Match.objects.get(pk=match.pk)
        seat_user = {s.number: s.user for s in match.seats.select_related("user")}
        history_of_secrets: dict[int, dict] = {}
        mail_seen = 0
        position = 0
        while True:
            match.refresh_from_db()
            state = load_state(match)
            secrets = game.secrets(state)
            history_of_secrets[match.head_seq] = secrets
            new_mail = mail.outbox[mail_seen:]
            mail_seen = len(mail.outbox)
            deferred = set(match.to_act) - set(seats_to_ask(game, state))
            if position % every == 0 or match.is_over or deferred:
                deep = position % (every * deep_every) == 0 or match.is_over
                _check_position(
                    match,
                    seat_user,
                    spectator,
                    clients,
                    secrets,
                    history_of_secrets,
                    new_mail,
                    report,
                    deferred,
                    deep,
                )
                if not match.is_over:
                    _compare_times(match, seat_user, spectator, clients, report)
            if match.is_over:
                break
            # Only asked seats answer: a seat whose one move waits is played by the server.
            asked = [n for n in match.to_act if n not in deferred]
            seat = (asked or match.to_act)[0]
            move = game.bot_move(state, seat, event_rng(seed + ":leak", match.head_seq))
            clock += timedelta(minutes=1)
            with time_machine.travel(clock, tick=False), on_commit(execute=True):
                result = services.submit_move(match_id=match.pk, seat=seat, move=move, source="api")
            assert result.ok, result.message
            played_for = match.moves.filter(
                seq__gt=match.head_seq, seat__in=deferred, source__in=AUTOMATIC_SOURCES
            ).values_list("seq", flat=True)
            report.deferred_entries.update(played_for)
            if played_for and not Match.objects.get(pk=match.pk).is_over:
                _compare_times(match, seat_user, spectator, clients, report)
            position += 1
    finally:
        celery_app.conf.task_always_eager = eager
        unthrottled.stop()
    for (viewer, where), seen in report.labels.items():
        told = seen["auto"] - seen["asked"]
        if told and seen["asked"]:
            report.leaks.append(
                f"{where} (seat {viewer}) labels automatic moves {sorted(told)}, asked ones "
                f"{sorted(seen['asked'])}"
            )
    for viewer, seen in report.timings.items():
        if seen["auto"] - seen["asked"]:
            report.leaks.append(
                f"history times (seat {viewer}) tie an answer played for a seat that waited "
                f"unasked to an earlier entry {sorted(seen['auto'])}, asked answers "
                f"{sorted(seen['asked'])}"
            )
    return report


TIED = timedelta(seconds=1)


def _compare_times(match, seat_user, spectator, clients, report) -> None:
    """An answer played for a seat that waited unasked is logged in the instant of the
    answer that let it be played. Each viewer's API history must not show that: whether an
    entry of another seat is shown within a second of an earlier entry of yet another seat
    (or with no time) is collected for asked and for deferred entries, and a value only
    deferred entries get is a leak (reported at the end of the match)."""
    match = Match.objects.get(pk=match.pk)
    real = dict(match.moves.values_list("seq", "source"))
    since = max(0, match.head_seq - 60)
    for viewer, user in [*seat_user.items(), (None, spectator)]:
        answer = clients[user.pk].get(f"/api/v1/matches/{match.pk}/history?since={since}")
        assert answer.status_code == 200, answer.content
        earlier: list[tuple[int, datetime | None]] = []
        seen = report.timings.setdefault(viewer, {"asked": set(), "auto": set()})
        for entry in answer.json():
            seat = None if entry["seat"] is None else entry["seat"] - 1
            at = datetime.fromisoformat(entry["at"]) if entry["at"] else None
            tied = at is None or any(
                other != seat and when is not None and abs(at - when) < TIED
                for other, when in earlier
            )
            earlier.append((seat, at))
            if seat is None or seat == viewer:
                continue
            if entry["seq"] in report.deferred_entries:
                seen["auto"].add(tied)
            elif real.get(entry["seq"]) in ASKED_SOURCES:
                seen["asked"].add(tied)


def _check_position(
    match,
    seat_user,
    spectator,
    clients,
    secrets,
    history_of_secrets,
    new_mail,
    report,
    deferred,
    deep=True,
):
    report.positions += 1
    seq = match.head_seq
    earlier = seq // 2
    viewers = [*seat_user.items(), (None, spectator)]
    for seat, user in viewers:
        client = clients[user.pk]
        # After the end everything may be revealed (the replay shows all seats' views).
        forbidden = _others(secrets, seat) if not match.is_over else []
        earlier_forbidden = _others(history_of_secrets.get(earlier, {}), seat)
        if not match.is_over:
            forbidden.append(match.seed)
            earlier_forbidden.append(match.seed)
        report.secrets_seen += len(forbidden)
        outputs = {
            "match page": client.get(f"/matches/{match.pk}/"),
            "live fragment": client.get(f"/matches/{match.pk}/poll/"),
            "board fragment": client.get(
                f"/matches/{match.pk}/", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="board"
            ),
            "replay": client.get(f"/matches/{match.pk}/replay/?n={seq}"),
            "api v1 view": client.get(f"/api/v1/matches/{match.pk}"),
            "api v1 legal": client.get(f"/api/v1/matches/{match.pk}/legal"),
        }
        if deep:
            outputs["api v1 history"] = client.get(
                f"/api/v1/matches/{match.pk}/history?since={earlier}"
            )
        _compare_asked_and_automatic(match, seat, outputs, deferred, report)
        for name, response in outputs.items():
            assert response.status_code == 200, f"{name} for seat {seat}: {response.status_code}"
            _search(_text_of(response), forbidden, f"{name} (seat {seat})", seq, report)
        if deep and not match.is_over:  # after the end, the replay reveals all on purpose
            earlier_page = client.get(f"/matches/{match.pk}/replay/?n={earlier}")
            _search(
                _normalise(earlier_page.content.decode()),
                earlier_forbidden,
                f"replay of {earlier} (seat {seat})",
                seq,
                report,
            )
        for message in new_mail:
            if user.email in message.to:
                report.emails += 1
                _search(
                    _texts_of(message),
                    forbidden,
                    f"email {message.subject!r} (seat {seat})",
                    seq,
                    report,
                )
    report.outputs += len(viewers) * (9 if deep else 7)


def _text_of(response) -> str:
    """A page unescaped; a JSON answer as its strings and numbers, one a line, so that a
    secret escaped by the encoder (quotes, newlines, non-ASCII) is still found."""
    if not response.get("Content-Type", "").startswith("application/json"):
        return _normalise(response.content.decode())
    found = []

    def walk(value) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                found.append(str(key))
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif value is not None:
            found.append(str(value))

    walk(response.json())
    return "\n".join(found)


def _others(secrets: dict, seat: int | None) -> list[str]:
    """Secrets `seat` must not see. A string equal to one of its own secrets (two players
    holding the same single card) tells it nothing and cannot be told apart: left out."""
    own = set(secrets.get(seat, [])) if seat is not None else set()
    return [s for owner, found in secrets.items() if owner != seat for s in found if s not in own]


def _search(text: str, forbidden: list[str], where: str, seq: int, report: LeakReport) -> None:
    for secret in forbidden:
        if secret and secret in text:
            report.leaks.append(f"after move {seq}: {where} shows {secret!r}")


def _compare_asked_and_automatic(match, viewer, outputs, deferred, report) -> None:
    """What `viewer` is shown about another seat must not depend on whether that seat was
    asked or plays automatically (a forced move, a standing order): the players list row of a
    seat deciding unasked equals an asked seat's, and a log entry's label is one that asked
    entries get too (checked over the whole match, at its end)."""
    seats = list(match.seats.order_by("number"))
    page = _normalise(outputs["match page"].content.decode())
    rows = _player_rows(page, seats)
    others = [
        s.number
        for s in seats
        if s.number != viewer and s.number in match.to_act and not s.is_bot and not s.resigned
    ]
    # Seats the rules skip (not to act now, for whatever reason) all look alike: nothing on
    # the platform's side tells why a seat is not deciding.
    waiting = {
        rows[s.number]
        for s in seats
        if s.number != viewer and s.number not in match.to_act and not s.is_bot
        if not s.resigned and s.number in rows
    }
    report.skipped_rows_compared += len(waiting) > 0
    if len(waiting) > 1:
        report.leaks.append(
            f"after move {match.head_seq}: match page (seat {viewer}) shows seats that are "
            f"not deciding differently: {sorted(waiting)!r}"
        )
    asked_rows = {rows[n] for n in others if n not in deferred}
    for number in others:
        if number in deferred and asked_rows:
            report.deferred_rows_compared += 1
            if rows[number] not in asked_rows:
                report.leaks.append(
                    f"after move {match.head_seq}: match page (seat {viewer}) shows seat "
                    f"{number}, which decides unasked, as {rows[number]!r}, asked seats as "
                    f"{sorted(asked_rows)!r}"
                )
    real = dict(match.moves.values_list("seq", "source"))
    humans = {s.number for s in seats if not s.is_bot}
    api_history = outputs["api v1 view"].json().get("history", [])
    page_labels = dict(_history_labels(page))
    for entry in api_history:
        seat = None if entry["seat"] is None else entry["seat"] - 1  # v1 counts seats from 1
        source = real.get(entry["seq"])
        if seat is None or seat == viewer or seat not in humans:
            continue
        kind = "auto" if source in AUTOMATIC_SOURCES else "asked" if source in ASKED_SOURCES else ""
        if not kind:
            continue
        report.automatic_entries_seen += kind == "auto"
        shown = {"match page": page_labels.get(entry["seq"])}
        for where, label in shown.items():
            if label is None:  # the page shows a window of recent entries only
                continue
            seen = report.labels.setdefault((viewer, where), {"asked": set(), "auto": set()})
            seen[kind].add(label)


def _player_rows(page: str, seats) -> dict[int, str]:
    """Each seat's row in the players list, without its number and name."""
    listing = re.search(r'<ul class="players">(.*?)</ul>', page, re.S)
    items = re.findall(r"<li[^>]*>(.*?)</li>", listing.group(1), re.S) if listing else []
    rows = {}
    for seat, item in zip(seats, items, strict=False):
        item = re.sub(r'<span class="seat-no">\d+</span>', "", item)
        # What the game's view says of the seat (score, money, a hand's count) differs from
        # seat to seat whatever they decide; the leak search covers it. Compared here is the
        # platform's part: badges, "to act", time left.
        item = re.sub(r'<span class="seat-stats">.*?</span></span>', "", item, flags=re.S)
        item = re.sub(r'<svg class="swatch".*?</svg>', "", item, flags=re.S)
        item = item.replace(seat.name, "")
        rows[seat.number] = " ".join(item.split())
    return rows


def _history_labels(page: str) -> list[tuple[int, str]]:
    """(seq, label) of the history entries on the page: what follows the entry's time."""
    found = re.findall(
        r'<li value="(\d+)"><span class="text">.*?</span> <span class="when muted">(.*?)</span>',
        page,
        re.S,
    )
    labels = []
    for seq, when in found:
        label = when.split("\u00b7", 1)[1].strip() if "\u00b7" in when else ""
        labels.append((int(seq), label))
    return labels
