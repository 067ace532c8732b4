"""A bot's daily summary for its owner (issue 29, item 3): a bot account gets no mail, but its
owner may ask (PUT /api/v1/me/summary) for one email a day saying what the bot's matches did:
those started and finished since the last summary (with the bot's place), and the turns it
has left waiting over an hour (a bot that stopped answering). It goes to the bot account's
own address, the one its owner signed it up with; nothing else is ever mailed to it.

Beat runs `send_summaries` every hour (config/schedule.py); each bot's row is claimed for
the day with a compare-and-set update before its mail is sent, so two runs, or two beats,
send it at most once a day, and a day with nothing to say sends nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db.models import Q
from django.utils import timezone

from api.models import BotSummary
from games.engine.contract import places
from games.models import Match, MatchStatus, Seat

STUCK_AFTER = timedelta(hours=1)  # a bot answers in seconds: an hour means it stopped


@dataclass
class Summary:
    started: list[Match] = field(default_factory=list)
    finished: list[tuple[Match, str]] = field(default_factory=list)  # with the bot's place
    stuck: list[Seat] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.started or self.finished or self.stuck)


def summary_for(bot, since: datetime, now: datetime) -> Summary:
    mine = Match.objects.filter(seats__user=bot)
    found = Summary()
    found.started = list(mine.filter(started_at__gte=since).order_by("started_at", "pk"))
    for match in mine.filter(finished_at__gte=since).order_by("finished_at", "pk"):
        found.finished.append((match, _place(match, bot)))
    found.stuck = list(
        Seat.objects.filter(
            user=bot,
            match__status=MatchStatus.ACTIVE,
            deadline_at__isnull=False,
            waiting_since__lte=now - STUCK_AFTER,
        )
        .select_related("match")
        .order_by("waiting_since")
    )
    return found


def _place(match: Match, bot) -> str:
    if match.status != MatchStatus.FINISHED or not match.result:
        return match.status
    seat = next(s.number for s in match.seats.all() if s.user_id == bot.pk)
    for place, number, shared in places(match.result):
        if number == seat:
            return f"place {place} of {match.player_count}" + (" (shared)" if shared else "")
    return "finished"


def render(bot, found: Summary) -> str:
    site = settings.SITE_URL
    lines = [f"What your bot {bot.email} did since its last summary on {settings.SITE_NAME}.", ""]
    lines.append(f"Matches started: {len(found.started)}")
    lines += [f"  #{m.pk} {m.game_title}, {m.player_count} players" for m in found.started]
    lines.append(f"Matches finished: {len(found.finished)}")
    lines += [f"  #{m.pk} {m.game_title}: {place}" for m, place in found.finished]
    lines.append(f"Turns waiting over an hour: {len(found.stuck)}")
    for seat in found.stuck:
        lines.append(
            f"  #{seat.match_id} {seat.match.game_title}: asked at "
            f"{seat.waiting_since:%Y-%m-%d %H:%M} UTC, {site}/matches/{seat.match_id}/"
        )
    lines += ["", 'Stop these: PUT /api/v1/me/summary with {"daily": false}.']
    return "\n".join(lines) + "\n"


def send_summaries(now: datetime | None = None) -> int:
    """Mail today's summary to every bot whose owner asked and has not had it; how many."""
    now = now or timezone.now()
    today = now.date()
    sent = 0
    due = BotSummary.objects.filter(daily=True).filter(
        Q(last_sent_on__isnull=True) | Q(last_sent_on__lt=today)
    )
    for row in due.select_related("bot"):
        if not _claim(row, today):
            continue  # another run has it
        since = _since(row.last_sent_on, now)
        found = summary_for(row.bot, since, now)
        if not found:
            continue
        message = EmailMessage(
            subject=f"Your bot's day on {settings.SITE_NAME}",
            body=render(row.bot, found),
            to=[row.bot.email],
            headers={"Auto-Submitted": "auto-generated"},
        )
        message.send()
        sent += 1
    return sent


def _claim(row: BotSummary, today: date) -> bool:
    return bool(
        BotSummary.objects.filter(pk=row.pk, last_sent_on=row.last_sent_on).update(
            last_sent_on=today
        )
    )


def _since(last_sent_on: date | None, now: datetime) -> datetime:
    if last_sent_on is None:
        return now - timedelta(days=1)
    return datetime.combine(last_sent_on, datetime.min.time(), tzinfo=now.tzinfo)
