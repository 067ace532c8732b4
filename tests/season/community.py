"""A correspondence community on a simulated clock (issue 46): personas who reply by mail,
play on the web once a day, book a vacation, keep quiet hours in several zones or vanish;
the beat's tasks on their schedule; every mail in by the real reply path and every mail out
through the outbox. `Season.run()` plays it; the tests read what it recorded.

The clock moves in steps of STEP. At each step the personas whose moment has come act, then
the beat's work runs: the deadline sweep (enforcing at once), reminders, digests, the
tournaments' starts, and the outbox's delivery. Everything happens in the test's database
transaction, so nothing is handed to Celery: the outbox is sent by `send_due`, as the sweep
would.
"""

from __future__ import annotations

import email
import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from email.policy import default as default_policy
from zoneinfo import ZoneInfo

import time_machine
from django.contrib.auth.models import User
from django.core import mail

from games import clock, services
from games.models import Match, MatchStatus, Seat
from games.selectors import load_state
from notifications import digest, outbox, reminders
from notifications.models import Notification
from players.models import NoticeMode, Preferences
from players.preferences import book_vacation
from replies import inbound
from tournaments import services as tournaments

STEP = timedelta(minutes=10)
AWAKE = (time(8), time(22))  # when a persona reads mail and plays, in their own zone


@dataclass
class Persona:
    name: str
    zone: str
    plays: str = "mail"  # "mail": replies to the mail; "web": plays on the page daily
    quiet: tuple[time, time] | None = None
    reply_after: timedelta = timedelta(hours=2)  # how long a mail waits to be answered
    web_hour: int = 19  # when a web player comes by, in their zone
    mode: str = NoticeMode.EVERY_TURN
    vanishes_on: int | None = None  # the season's day from which they do nothing
    vacation: tuple[int, int] | None = None  # the season's days they booked off
    books_on: int = 1  # the day they book it
    confirm_each_move: bool = False
    user: User | None = None

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)


@dataclass
class Decision:
    """A seat asked a decision: from when, until when, whose."""

    user_id: int
    match_id: int
    days_per_move: int
    start: datetime
    end: datetime | None = None


@dataclass
class Season:
    personas: list[Persona]
    start: datetime
    days: int
    sent: list[tuple[datetime, object]] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)  # Message-IDs of the players' mails
    decisions: dict[tuple[int, int, int], Decision] = field(default_factory=dict)
    made: Counter = field(default_factory=Counter)  # moves each user made themself
    seated: Counter = field(default_factory=Counter)  # seats each user took (created, joined)
    rematch_until: int = 0  # the last day a finished match is played again
    tables: dict[int, dict] = field(default_factory=dict)  # match id: how to play it again
    _answered: set[str] = field(default_factory=set)
    _booked: set[str] = field(default_factory=set)
    _mail_seen: int = 0

    # --- the world ---------------------------------------------------------------------

    def make_players(self) -> None:
        for persona in self.personas:
            address = f"{persona.name.lower()}@players.test"
            persona.user = User.objects.create_user(
                username=address, email=address, password="pw", first_name=persona.name
            )
            Preferences.objects.create(
                user=persona.user,
                time_zone=persona.zone,
                quiet_start=persona.quiet[0] if persona.quiet else None,
                quiet_end=persona.quiet[1] if persona.quiet else None,
                mode=persona.mode,
                digest_hour=18,
                confirm_each_move=persona.confirm_each_move,
            )

    def by_name(self, name: str) -> Persona:
        return next(p for p in self.personas if p.name == name)

    def table(self, names: list[str], **options) -> Match:
        """A casual match of these players (the first creates it, the others join)."""
        users = [self.by_name(n).user for n in names]
        match = services.create_match(
            creator=users[0],
            game_slug="sealed-cards",
            players=len(users),
            invite_emails=[u.email for u in users[1:]],
            seed=hashlib.sha256(f"{names}{len(self.tables)}".encode()).hexdigest()[:32],
            **options,
        )
        for user in users[1:]:
            services.join_match(match_id=match.pk, user=user)
        for user in users:  # taking a seat is a decision of the player's, as a move is
            self.seated[user.pk] += 1
        self.tables[match.pk] = {"names": names, "options": options}
        return match

    # --- the clock ---------------------------------------------------------------------

    def day(self, now: datetime) -> int:
        return (now - self.start).days

    def run(self) -> None:
        now = self.start
        end = self.start + timedelta(days=self.days)
        while now < end:
            with time_machine.travel(now, tick=False):
                self.step(now)
            now += STEP

    def step(self, now: datetime) -> None:
        for persona in self.personas:
            if self.present(persona, now):
                self.act(persona, now)
        clock.sweep_deadlines(now, enforce=clock.enforce)
        reminders.send_reminders(now)
        digest.send_digests(now)
        tournaments.start_due(now)
        self.play_again(now)
        outbox.send_due(now)
        self.record(now)

    def present(self, persona: Persona, now: datetime) -> bool:
        day = self.day(now)
        if persona.vanishes_on is not None and day >= persona.vanishes_on:
            return False
        if persona.vacation and persona.vacation[0] <= day <= persona.vacation[1]:
            return False
        local = now.astimezone(persona.tz).time()
        return AWAKE[0] <= local < AWAKE[1]

    # --- what the personas do ----------------------------------------------------------

    def asked_seats(self, user: User) -> list[Seat]:
        return [
            s
            for s in Seat.objects.filter(
                user=user, deadline_seq__isnull=False, match__status=MatchStatus.ACTIVE
            ).select_related("match")
            if s.number in s.match.to_act and not s.played_by_bot
        ]

    def act(self, persona: Persona, now: datetime) -> None:
        day = self.day(now)
        if persona.vacation and persona.name not in self._booked and day >= persona.books_on:
            self._booked.add(persona.name)
            first = (self.start + timedelta(days=persona.vacation[0])).astimezone(persona.tz)
            last = (self.start + timedelta(days=persona.vacation[1])).astimezone(persona.tz)
            book_vacation(user=persona.user, first_day=first.date(), last_day=last.date())
        if persona.plays == "web":
            local = now.astimezone(persona.tz)
            if local.hour == persona.web_hour and local.minute < STEP.seconds // 60:
                self.play_on_the_page(persona, now)
        else:
            self.answer_mail(persona, now)

    def play_on_the_page(self, persona: Persona, now: datetime) -> None:
        user = persona.user
        user.last_login = now  # signing in is a sign of life
        user.save(update_fields=["last_login"])
        for seat in self.asked_seats(user):
            match = seat.match
            state = load_state(match)
            move = match.game.legal_moves(state, seat.number)[0]
            result = services.submit_move(
                match_id=match.pk, player=user, move=move, source="web", seen_seq=match.head_seq
            )
            if result.ok:
                self.made[user.pk] += 1

    def answer_mail(self, persona: Persona, now: datetime) -> None:
        """Answer, with the first choice, the newest mail of each match that asks them
        something, once it has waited `reply_after`."""
        for seat in self.asked_seats(persona.user):
            latest = self.latest_mail(persona.user, seat.match_id)
            if latest is None:
                continue
            at, message = latest
            message_id = message.extra_headers["Message-ID"]
            if now < at + persona.reply_after or message_id in self._answered:
                continue
            self._answered.add(message_id)
            reply = self.reply_to(message, "1\n\nThanks,\n" + persona.name)
            row = inbound.receive_raw(reply)
            self.replies.append(row.message_id)
            if "Applied" in row.outcome and "Not applied" not in row.outcome:
                self.made[persona.user.pk] += 1

    def latest_mail(self, user: User, match_id: int):
        for at, message in reversed(self.sent):
            if (
                message.to == [user.email]
                and message.reply_to
                and f"#{match_id} " in (message.subject + " ")
            ):
                return at, message
        return None

    @staticmethod
    def reply_to(message, body: str) -> bytes:
        original = email.message_from_bytes(message.message().as_bytes(), policy=default_policy)
        reply = email.message.EmailMessage()
        reply["From"] = message.to[0]
        reply["To"] = message.reply_to[0]
        reply["Subject"] = "Re: " + message.subject
        reply["Message-ID"] = email.utils.make_msgid(domain="players.test")
        reply["In-Reply-To"] = original["Message-ID"]
        quoted = "\n".join("> " + line for line in message.body.splitlines())
        reply.set_content(f"{body}\n\nOn a day, Postal Boards wrote:\n{quoted}\n")
        return reply.as_bytes()

    def play_again(self, now: datetime) -> None:
        """A finished casual match is played again by the same table the next morning (at
        09:00 of its creator), while the season lasts: six tables are six matches a day."""
        if self.day(now) > self.rematch_until:
            return
        for match in Match.objects.filter(pk__in=list(self.tables), status=MatchStatus.FINISHED):
            spec = self.tables[match.pk]
            local = now.astimezone(self.by_name(spec["names"][0]).tz)
            if local.hour == 9 and local.minute < STEP.seconds // 60:
                del self.tables[match.pk]
                self.table(spec["names"], **spec["options"])

    # --- what it recorded ---------------------------------------------------------------

    def record(self, now: datetime) -> None:
        for message in mail.outbox[self._mail_seen :]:
            self.sent.append((now, message))
        self._mail_seen = len(mail.outbox)
        asked = Seat.objects.filter(
            deadline_seq__isnull=False, match__status=MatchStatus.ACTIVE, user__isnull=False
        ).select_related("match")
        current = set()
        for seat in asked:
            if seat.number not in seat.match.to_act or seat.played_by_bot:
                continue
            key = (seat.match_id, seat.number, seat.deadline_seq)
            current.add(key)
            if key not in self.decisions:
                self.decisions[key] = Decision(
                    seat.user_id, seat.match_id, seat.match.days_per_move, seat.waiting_since
                )
        for key, decision in self.decisions.items():
            if decision.end is None and key not in current:
                decision.end = now

    def notification_of(self, message) -> Notification:
        return Notification.objects.get(message_id=message.extra_headers["Message-ID"])

    def mails_per_player_day(self) -> dict[tuple[str, str], int]:
        """(persona, their local date): mails they got that day."""
        counts: dict[tuple[str, str], int] = defaultdict(int)
        by_address = {p.user.email: p for p in self.personas}
        for at, message in self.sent:
            persona = by_address.get(message.to[0])
            if persona is not None:
                counts[(persona.name, str(at.astimezone(persona.tz).date()))] += 1
        return counts
