"""A compressed season of a correspondence community (issue 46): twelve players in nine time
zones over two weeks, in casual matches played again the morning after they end; mail
repliers, daily web players, a digest reader, a vacationer and three who vanish. What it
holds (the figures are the ones docs/notifications.md states, printed at the end):

- no match waits on a silent player longer than the match's days per move plus the
  sign-of-life window (2 days) and a night;
- a match's vacation cap holds, whatever else the player plays; a booked vacation is
  honoured;
- every reply is answered once: by a mail at once, or in the next mail of its match;
- mails per decision made (every kind counted) and per player-day stay under the stated
  figures;
- nothing in a player's night but answers to their own mail and, for a player without quiet
  hours who moved in the last hour, what another player's move writes; no reminder, digest
  or mail of the clock's in it;
- every log verifies.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import UTC, datetime, time, timedelta

import pytest
import time_machine
from django.db.models import F

from games import vacation_bank
from games.models import Match, Move, MoveKind, MoveSource
from games.selectors import verify_match
from notifications import emails
from notifications.models import Kind, Notification, Status
from players.preferences import in_night, in_quiet_hours, prefs_for
from replies.models import InboundMessage

from .community import STEP, Persona, Season

pytestmark = [pytest.mark.django_db, pytest.mark.night]

# Monday: the season spans Europe's change to summer time (Sunday 30 March).
START = datetime(2025, 3, 24, 6, 0, tzinfo=UTC)
DAYS = 14
SIGN_OF_LIFE = timedelta(days=2)
NIGHT = timedelta(hours=12)  # a deadline moved past the night, and the sweep's step

# What docs/notifications.md ("How much mail") states and this season holds, every kind of
# mail counted. A player who plays gets one mail per decision they make (a move, or taking a
# seat): the first turn notice of a match tells its start, an applied reply is confirmed in
# the next mail, and a match's end is the one mail more than its moves. Per day, in six
# matches that each play a whole match a day (two decisions asked, an end): 3 a match.
MAILS_PER_DECISION = 1.0
# A player who is gone: per decision asked, the mail asking it and the timeout's notice (or
# the end mail that tells it).
MAILS_PER_DECISION_GONE = 2.0
MAILS_PER_DAY_IN_SIX = 18
AWAKE_WITHIN = timedelta(hours=1)  # a move this recent: the player is up
NIGHT_KINDS = (Kind.REMINDER, Kind.DIGEST, Kind.VACATION, Kind.TIMEOUT)


def moved_since(user, since: datetime) -> bool:
    """A move of the player's own (on the page, by mail) since `since`: they are up."""
    return Move.objects.filter(
        created_at__gte=since,
        source__in=[MoveSource.WEB, MoveSource.EMAIL, MoveSource.API],
        match__seats__user=user,
        seat=F("match__seats__number"),
    ).exists()


def community() -> list[Persona]:
    quiet = (time(22, 30), time(7, 0))
    return [
        Persona("Anna", "Europe/Amsterdam", quiet=quiet, reply_after=timedelta(hours=1)),
        Persona("Bram", "America/New_York", reply_after=timedelta(hours=3)),
        Persona(
            "Chen",
            "Asia/Tokyo",
            quiet=(time(23), time(7)),
            reply_after=timedelta(hours=2),
            confirm_each_move=True,
        ),
        Persona("Dara", "Australia/Sydney", reply_after=timedelta(hours=4)),
        Persona("Eli", "Europe/London", plays="web", web_hour=19),
        Persona("Fay", "America/Los_Angeles", plays="web", web_hour=20),
        Persona("Gus", "Asia/Kolkata", plays="web", web_hour=9),
        Persona("Hana", "America/Sao_Paulo", plays="web", web_hour=19, mode="digest"),
        Persona("Ivo", "Europe/Amsterdam", vacation=(3, 9), reply_after=timedelta(hours=5)),
        Persona("Jon", "Africa/Nairobi", vanishes_on=2),
        Persona("Kim", "America/New_York", plays="web", web_hour=12, vanishes_on=4),
        Persona("Lea", "Asia/Tokyo", vanishes_on=0),
    ]


TABLES = [
    (["Anna", "Bram"], {"days_per_move": 1}),
    (["Anna", "Chen", "Eli"], {"days_per_move": 2}),
    (["Anna", "Dara", "Fay", "Gus"], {"days_per_move": 2}),
    (["Anna", "Jon"], {"days_per_move": 1}),
    (["Anna", "Hana", "Kim"], {"days_per_move": 2}),
    (["Anna", "Ivo"], {"days_per_move": 1}),
    (["Bram", "Lea", "Gus"], {"days_per_move": 1}),
    (["Chen", "Dara"], {"days_per_move": 1}),
    (["Eli", "Fay", "Ivo", "Kim"], {"days_per_move": 2, "vacation_cap": 3}),
    (["Hana", "Jon", "Lea"], {"days_per_move": 1, "vacation_cap": 2}),
]


@pytest.fixture
def season(settings) -> Season:
    settings.REPLY_DOMAIN = "reply.example.org"
    settings.SITE_URL = "https://boards.example.org"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PBM_SIGN_OF_LIFE_DAYS = SIGN_OF_LIFE.days
    played = Season(community(), START, DAYS, rematch_until=DAYS - 4)
    with time_machine.travel(START, tick=False):
        played.make_players()
        for names, options in TABLES:
            played.table(names, **options)
    played.run()
    return played


def test_a_season(season: Season):
    by_user = {p.user.pk: p for p in season.personas}
    end = START + timedelta(days=DAYS)

    # No match waits on a silent player longer than its time per move, the sign-of-life
    # window and a night.
    waits = []
    for decision in season.decisions.values():
        persona = by_user[decision.user_id]
        if persona.vanishes_on is None:
            continue
        if decision.start < START + timedelta(days=persona.vanishes_on):
            continue
        waited = (decision.end or end) - decision.start
        bound = timedelta(days=decision.days_per_move) + SIGN_OF_LIFE + NIGHT + 2 * STEP
        waits.append(waited)
        assert waited <= bound, (persona.name, decision)
    assert waits, "the vanished players were asked nothing"

    # A match's cap holds, counted in that match alone.
    for match in Match.objects.all():
        for seat in match.seats.exclude(user=None):
            assert vacation_bank.spent_in(seat.user, match) <= vacation_bank.cap_of(match)

    # The vacationer's booked week is honoured: none of his decisions timed out in it.
    ivo = season.by_name("Ivo")
    first, last = (START + timedelta(days=d) for d in ivo.vacation)
    for match in Match.objects.filter(seats__user=ivo.user):
        seat = match.seats.get(user=ivo.user).number
        assert not match.moves.filter(
            kind=MoveKind.TIMEOUT, seat=seat, created_at__gte=first, created_at__lt=last
        ).exists()

    # Every reply answered once: at once, or in the next mail of its match.
    assert len(season.replies) > 50
    sent_rows = {row.pk: row for row in Notification.objects.filter(status=Status.SENT)}
    for inbound_row in InboundMessage.objects.all():
        answers = Notification.objects.filter(
            kind=Kind.ANSWER, dedupe_key=f"answer:{inbound_row.pk}"
        )
        (answer,) = answers
        if answer.status == Status.SENT:
            continue
        assert answer.status == Status.SKIPPED
        if answer.last_error == emails.CONFIRM_LATER:  # waiting for a mail still to come
            assert (
                not Notification.objects.filter(
                    user=answer.user,
                    match=answer.match,
                    status=Status.SENT,
                    sent_at__gt=answer.created_at,
                )
                .exclude(kind=Kind.ANSWER)
                .exists()
            )
            continue
        carrier = sent_rows[int(answer.last_error.removeprefix(emails.CARRIED_BY))]
        assert carrier.match_id in (answer.match_id, None) and carrier.user_id == answer.user_id

    # No night mail: nothing in a player's night (their quiet hours, or 22:00 to 07:00 in
    # their zone) but the answer to their own mail, and, for a player without quiet hours,
    # what another player's move writes while they are up (a move of their own in the hour
    # before it). Reminders, digests and the clock's mail never.
    night: Counter = Counter()
    for at, message in season.sent:
        row = season.notification_of(message)
        prefs = prefs_for(row.user)
        if row.kind == Kind.ANSWER or not in_night(prefs, at):
            continue
        assert row.kind not in NIGHT_KINDS, (row.kind, row.user, at)
        assert not in_quiet_hours(prefs, at), (row.kind, row.user, at)
        assert moved_since(row.user, at - AWAKE_WITHIN), (row.kind, row.user, at)
        night[row.kind] += 1

    # Every log verifies.
    for match in Match.objects.all():
        assert verify_match(match).ok, match

    # An applied reply has no mail of its own: an answer of moves applied that was sent
    # at once either asked the player again (it carries the next position) or went to a
    # player who asked for each move confirmed at once.
    for answer in Notification.objects.filter(kind=Kind.ANSWER, status=Status.SENT):
        if by_user[answer.user_id].confirm_each_move:
            continue
        if (
            answer.context["summary"].startswith("Applied")
            and "not applied" not in (answer.context["summary"])
        ):
            assert (answer.match_id, answer.seat, answer.seq) in season.decisions, answer

    # Mail counts, per persona, every kind counted: printed, and held to the figures
    # docs/notifications.md states ("How much mail"). A decision made is a move of their own
    # or a seat they took (creating a match, or joining it).
    kinds: dict[int, Counter] = defaultdict(Counter)
    for _, message in season.sent:
        row = season.notification_of(message)
        kinds[row.user_id][row.kind] += 1
    asked = Counter(d.user_id for d in season.decisions.values())
    mailed = Counter(  # the mails each player sent us
        InboundMessage.objects.filter(
            sender__in=[p.user.email for p in season.personas]
        ).values_list("sender", flat=True)
    )
    per_day = season.mails_per_player_day()
    print(
        f"\nSeason of {DAYS} days: {Match.objects.count()} matches, {len(season.replies)} "
        f"replies, {len(season.sent)} mails; in a night: {dict(night)}"
    )
    print(
        f"{'persona':8} {'matches':>7} {'asked':>5} {'moves':>5} {'seats':>5} {'mails':>5} "
        f"{'/made':>5} {'/asked':>6} {'max/day':>7}  by kind"
    )
    over = []
    for persona in season.personas:
        pk = persona.user.pk
        mine = kinds[pk]
        total = sum(mine.values())
        made = season.made[pk] + season.seated[pk]
        most = max((c for (n, _), c in per_day.items() if n == persona.name), default=0)
        matches = Match.objects.filter(seats__user=persona.user).count()
        print(
            f"{persona.name:8} {matches:>7} {asked[pk]:>5} {season.made[pk]:>5} "
            f"{season.seated[pk]:>5} {total:>5} {total / made:>5.2f} "
            f"{total / max(1, asked[pk]):>6.2f} {most:>7}  {dict(mine)}"
        )
        if persona.vanishes_on is not None:
            # Gone: they decide nothing; per decision they are asked, its mail and the
            # timeout's notice (or the end that tells it).
            within = total <= MAILS_PER_DECISION_GONE * asked[pk]
        else:
            # One mail per decision made; the answers they asked for on top, one per mail
            # they sent.
            asked_for = mailed[persona.user.email] if persona.confirm_each_move else 0
            within = total <= MAILS_PER_DECISION * made + asked_for
        if not within or most > MAILS_PER_DAY_IN_SIX:
            over.append(persona.name)
    made = sum(season.made.values()) + sum(season.seated.values())
    print(f"mails per decision made, all players and kinds: {len(season.sent) / made:.2f}")
    assert not over, over
