"""Every setting the tournament and league forms accept (small sizes), drawn by hypothesis
from the forms' own fields and choices: created through the form, signed up, started and
closed round by round by the scheduler's job, every match played to its end by bots. It
finishes, or the form refused it with a sentence, or it was cancelled for too few players
with the reason recorded; nothing fails on the way (no exception, no problem recorded);
and the standings equal a recomputation written here from docs/community.md.

The standings, as the docs state them: points by place (at a table of n, place p earns
(n - p) / (n - 1); players sharing places share their points; a bye is a win, 1 point);
then the game's score summed; then head to head (places ahead of the players still tied,
at the tables they shared); then the seed. A cup ranks first by how far each went.
"""

import itertools
from collections import Counter
from datetime import timedelta
from fractions import Fraction

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engine import get_game
from games.engine.contract import places
from games.models import MatchStatus
from games.services import ServiceError
from tests.factories import make_user
from tests.tournaments.playing import play_by_bots
from tournaments import leagues, services
from tournaments.forms import LeagueForm, TournamentForm
from tournaments.models import League, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)  # rounds follow on commit

# Sized for about a minute each on a loaded 2-core machine: a played example costs seconds.
FEW = dict(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
names = itertools.count()


def choices(form, field: str) -> list:
    return [value for value, _ in form.fields[field].choices]


def bounded(form, field: str, most: int | None = None):
    """Whole numbers the form's field takes, up to `most` (small sizes)."""
    f = form.fields[field]
    high = f.max_value if most is None else min(most, f.max_value)
    return st.integers(f.min_value, high)


def table_sizes(form, game_slug: str):
    """Any size the form takes, and as often one the game is played at (else most draws are
    refused at once and few play)."""
    game = get_game(game_slug)
    return st.one_of(bounded(form, "table_size"), st.integers(game.min_players, game.max_players))


@st.composite
def tournament_settings(draw) -> dict:
    form = TournamentForm()
    by_date = draw(st.booleans())
    by_count = draw(st.booleans()) or not by_date
    game_slug = draw(st.sampled_from(choices(form, "game_slug")))
    return {
        "name": draw(st.text(min_size=1, max_size=80).filter(lambda s: s.strip())),
        "game_slug": game_slug,
        "format": draw(st.sampled_from(choices(form, "format"))),
        "table_size": draw(table_sizes(form, game_slug)),
        "rounds": draw(bounded(form, "rounds", most=3)),
        "signup_until": (
            (timezone.now() + timedelta(hours=draw(st.integers(-5, 5)))).strftime("%Y-%m-%d %H:%M")
            if by_date
            else ""
        ),
        "max_players": draw(bounded(form, "max_players", most=5)) if by_count else "",
        "days_per_move": draw(bounded(form, "days_per_move")),
        "timeout_policy": draw(st.sampled_from(choices(form, "timeout_policy"))),
        "vacation_cap": draw(st.one_of(st.just(""), bounded(form, "vacation_cap"))),
        "signing_up": draw(st.one_of(st.integers(0, 5), st.integers(2, 5))),
        # An entrant who withdraws once the first round is drawn (their matches resigned).
        "withdrawing": draw(st.one_of(st.none(), st.integers(0, 4))),
    }


def run_the_jobs(t: Tournament, later, withdrawing: int | None = None) -> None:
    """The scheduler's job and the bots, until the tournament is over or cannot go on; the
    entrant `withdrawing` (an index, best seed first) leaves once the first round is drawn."""
    for _ in range(40):
        services.start_due(later)
        t.refresh_from_db()
        assert t.problem == "", t.problem  # nothing failed on the way
        if t.status != TournamentStatus.RUNNING:
            return
        entries = list(t.entries.filter(withdrawn_at=None).order_by("seed"))
        if withdrawing is not None and withdrawing < len(entries):
            services.withdraw(t, entries[withdrawing].user)
            withdrawing = None
            continue
        play_by_bots(t)
    raise AssertionError(f"{t} did not finish")


def recomputed_order(t: Tournament) -> list[int]:
    """The standings worked out here from the results, by the docs' rules."""
    seeds = dict(t.entries.values_list("user_id", "seed"))
    points: Counter = Counter()
    score: Counter = Counter()
    reached: Counter = Counter()
    ahead: Counter = Counter()  # (a, b): a finished ahead of b at a table they shared
    for round_ in t.round_set.all():
        for bye in ([round_.bye_id] if round_.bye_id else []) + list(round_.sat_out):
            points[bye] += 1
            reached[bye] += 1
        for table in round_.tables.select_related("match"):
            match = table.match
            users = {s.number: s.user_id for s in match.seats.all()}
            reached.update(users.values())
            if match.status != MatchStatus.FINISHED:
                continue
            n = len(users)
            ranked = places(match.result)
            spans = Counter(place for place, _, _ in ranked)
            scores = match.result.get("scores") or [0] * n
            place_of = {}
            for place, seat, _ in ranked:
                span = range(place, place + spans[place])
                points[users[seat]] += sum(Fraction(n - p, n - 1) for p in span) / spans[place]
                score[users[seat]] += scores[seat]
                place_of[users[seat]] = place
            for a, b in itertools.permutations(place_of, 2):
                if place_of[a] < place_of[b]:
                    ahead[a, b] += 1
    cup = t.format == "knockout"

    def tied_on(p):
        return (reached[p] if cup else 0, points[p], score[p])

    def head_to_head(p):
        return sum(ahead[p, q] for q in seeds if q != p and tied_on(q) == tied_on(p))

    return sorted(seeds, key=lambda p: (*(-x for x in tied_on(p)), -head_to_head(p), seeds[p]))


@settings(max_examples=20, **FEW)
@given(drawn=tournament_settings())
def test_any_accepted_tournament_plays_to_the_end_or_is_refused(drawn):
    signing_up = drawn.pop("signing_up")
    withdrawing = drawn.pop("withdrawing")
    form = TournamentForm(data=drawn)
    if not form.is_valid():
        event("refused by the form")
        assert form.errors  # refused with a sentence
        assert all(str(e).strip() for errors in form.errors.values() for e in errors)
        return
    n = next(names)
    organiser = make_user(f"Organiser{n}")
    t = services.create_tournament(organiser=organiser, **form.cleaned_data)
    for i in range(signing_up):
        try:
            services.join(t, make_user(f"Entrant{n}x{i}"))
        except ServiceError as error:  # full: sign-up closed (the tournament started)
            assert "closed" in error.message
    t.refresh_from_db()
    assert t.problem == "", t.problem
    if t.status == TournamentStatus.SIGNUP and t.signup_until is None:
        try:  # never full: the organiser starts it
            services.start(t.pk, by=str(organiser), reason="enough")
        except ServiceError as error:
            event("refused at the start")
            assert "too few" in error.message.lower()
            return
    run_the_jobs(t, timezone.now() + timedelta(days=1), withdrawing)
    if t.status == TournamentStatus.CANCELLED:  # too few when sign-up ended: said why
        event("cancelled")
        assert t.actions.get(action="cancelled").reason
        return
    assert t.status == TournamentStatus.FINISHED
    event(f"finished: {t.format}, {t.game_slug}")
    assert all(r.finished_at for r in t.round_set.all())
    order = [row.player for row in services.current_standings(t)]
    assert order == recomputed_order(t)


@st.composite
def league_settings(draw) -> dict:
    form = LeagueForm()
    game_slug = draw(st.sampled_from(choices(form, "game_slug")))
    return {
        "name": draw(st.text(min_size=1, max_size=80).filter(lambda s: s.strip())),
        "game_slug": game_slug,
        "table_size": draw(table_sizes(form, game_slug)),
        "division_size": draw(bounded(form, "division_size", most=5)),
        "promoted": draw(st.one_of(bounded(form, "promoted", most=3), st.just(1))),
        "days_per_move": draw(bounded(form, "days_per_move")),
        "timeout_policy": draw(st.sampled_from(choices(form, "timeout_policy"))),
        "members": draw(st.one_of(st.integers(0, 6), st.integers(3, 6))),
    }


@settings(max_examples=12, **FEW)
@given(drawn=league_settings())
def test_any_accepted_league_plays_a_season_and_starts_the_next_or_is_refused(drawn):
    members = drawn.pop("members")
    form = LeagueForm(data=drawn)
    if not form.is_valid():
        event("refused by the form")
        assert all(str(e).strip() for errors in form.errors.values() for e in errors)
        return
    n = next(names)
    league = leagues.create_league(organiser=make_user(f"Chair{n}"), **form.cleaned_data)
    for i in range(members):
        leagues.join_league(league, make_user(f"Member{n}x{i}"))
    if leagues.start_season(league.pk) is None:
        event("too few members")
        assert members < max(3, league.table_size + 1)  # too few to start: said on the page
        return
    season = League.objects.get(pk=league.pk).seasons.get(number=1)
    for division in season.divisions.select_related("tournament"):
        run_the_jobs(division.tournament, timezone.now())
        t = division.tournament
        assert t.status == TournamentStatus.FINISHED
        order = [row.player for row in services.current_standings(t)]
        assert order == recomputed_order(t)
    season.refresh_from_db()
    assert season.finished_at is not None
    assert league.seasons.filter(number=2).exists()  # the next one started by itself
    event(f"season played: {league.game_slug}, tables of {league.table_size}")
