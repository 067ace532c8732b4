"""Tournaments in a season (issue 46): an entrant who vanishes in round 1 holds their match
only for its days per move and the sign-of-life window, and the rounds go on; a player
capped at 2 days in a tournament while in uncapped matches times out there after 2 days of
spending, whatever the others spend."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import clock, vacation_bank
from games.models import Match, MoveKind
from games.selectors import verify_match
from tournaments import services as tournaments
from tournaments.models import Table, TournamentStatus

from .community import STEP, Persona, Season

pytestmark = [pytest.mark.django_db, pytest.mark.night]

START = datetime(2025, 3, 24, 6, 0, tzinfo=UTC)
SIGN_OF_LIFE = timedelta(days=2)


@pytest.fixture(autouse=True)
def _site(settings):
    settings.REPLY_DOMAIN = "reply.example.org"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PBM_SIGN_OF_LIFE_DAYS = SIGN_OF_LIFE.days


def test_an_entrant_who_vanishes_in_round_1_holds_the_swiss_for_days_not_weeks():
    personas = [
        Persona("Anna", "Europe/Amsterdam", reply_after=timedelta(hours=1)),
        Persona("Bram", "America/New_York", reply_after=timedelta(hours=3)),
        Persona("Chen", "Asia/Tokyo", plays="web", web_hour=9),
        Persona("Dara", "Australia/Sydney", plays="web", web_hour=20),
        Persona("Eli", "Europe/London", reply_after=timedelta(hours=2)),
        Persona("Jon", "Africa/Nairobi", vanishes_on=0),
    ]
    season = Season(personas, START, days=9)
    with time_machine.travel(START, tick=False):
        season.make_players()
        swiss = tournaments.create_tournament(
            organiser=season.by_name("Anna").user,
            name="Spring Swiss",
            game_slug="sealed-cards",
            format="swiss",
            table_size=2,
            rounds=3,
            signup_until=START + timedelta(hours=1),
            days_per_move=1,
            vacation_cap=3,
        )
        for persona in personas:
            tournaments.join(swiss, persona.user)
    season.run()
    swiss.refresh_from_db()
    jon = season.by_name("Jon").user
    first = Table.objects.get(round__tournament=swiss, round__number=1, match__seats__user=jon)
    waited = []
    for key, decision in season.decisions.items():
        if decision.user_id == jon.pk and key[0] == first.match_id:
            bound = timedelta(days=decision.days_per_move) + SIGN_OF_LIFE + timedelta(hours=12)
            end = decision.end or START + timedelta(days=season.days)
            waited.append(end - decision.start)
            assert end - decision.start <= bound + 2 * STEP, decision
    assert waited
    # Round 1 ended and the Swiss went on without waiting weeks for him.
    assert swiss.round_set.count() == 3 and swiss.status == TournamentStatus.FINISHED
    for match in Match.objects.all():
        assert verify_match(match).ok
        for seat in match.seats.exclude(user=None):
            assert vacation_bank.spent_in(seat.user, match) <= vacation_bank.cap_of(match)


def test_a_tournament_cap_of_2_holds_while_the_player_is_in_uncapped_matches(settings):
    """Anna is seen every day but plays nowhere: the tournament's match (cap 2) times her
    out after 2 days spent; her two casual matches (cap 30) keep spending."""
    settings.PBM_VACATION_DAYS_PER_YEAR = 20
    personas = [Persona("Anna", "UTC"), Persona("Ben", "UTC")]
    season = Season(personas, START, days=0)
    with time_machine.travel(START, tick=False):
        season.make_players()
        anna, ben = (p.user for p in personas)
        cup = tournaments.create_tournament(
            organiser=ben,
            name="Capped",
            game_slug="sealed-cards",
            format="swiss",
            table_size=2,
            rounds=1,
            signup_until=START + timedelta(minutes=30),
            days_per_move=1,
            vacation_cap=2,
        )
        tournaments.join(cup, anna)
        tournaments.join(cup, ben)
        casual = [season.table(["Anna", "Ben"], days_per_move=1, vacation_cap=30) for _ in range(2)]
    with time_machine.travel(START + timedelta(hours=1), tick=False):
        tournaments.start_due()
    capped = Table.objects.get(round__tournament=cup).match
    assert capped.vacation_cap == 2
    deadline = capped.seats.get(user=anna).deadline_at
    # The casual matches began at 06:00: their deadlines, out of the night, are at 08:00, an
    # hour after the tournament's; the sweeps come after both.
    for day in range(4):
        now = deadline + timedelta(days=day, hours=1, minutes=5)
        for user in (anna, ben):
            user.last_login = now - timedelta(hours=1)  # a sign-in every day
            user.save(update_fields=["last_login"])
        with time_machine.travel(now, tick=False):
            clock.sweep_deadlines(now, enforce=clock.enforce)

    def timeouts(match):
        seat = match.seats.get(user=anna).number
        return list(
            match.moves.filter(kind=MoveKind.TIMEOUT, seat=seat).values_list(
                "created_at", flat=True
            )
        )

    # Two days spent, then the third day's sweep times her out there.
    assert vacation_bank.spent_in(anna, capped) == 2
    assert timeouts(capped)[0] == deadline + timedelta(days=2, hours=1, minutes=5)
    for match in casual:
        assert timeouts(match) == [] and vacation_bank.spent_in(anna, match) == 4
