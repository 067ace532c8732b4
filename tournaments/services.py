"""The one place tournaments change: created, joined, started, a round drawn and its matches
made (through the games service layer), the next round when the last match of one ends,
withdrawals. Pairing and standings are pure (pairing.py, standings.py)."""

from __future__ import annotations

import logging
import random
from collections import Counter
from datetime import datetime

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from community.models import Rating
from games import services as games
from games.engine import get_game
from games.engine.contract import places
from games.models import Match, MatchStatus, MoveSource, Seat
from games.services import ServiceError
from notifications import hooks as match_hooks
from notifications import outbox
from notifications.emails import absolute as outbox_absolute
from notifications.models import Kind

from . import hooks, pairing
from .models import Entry, Format, OrganiserAction, Round, Table, Tournament, TournamentStatus
from .standings import Finished, Row, standings

log = logging.getLogger(__name__)


def create_tournament(
    *,
    organiser,
    name: str,
    game_slug: str,
    format: str,
    table_size: int,
    rounds: int = 0,
    signup_until: datetime | None = None,
    max_players: int | None = None,
    days_per_move: int = 3,
    timeout_policy: str = "default",
    vacation_cap: int | None = None,
    seed: str | None = None,
) -> Tournament:
    try:
        game = get_game(game_slug)
    except KeyError:
        raise ServiceError(_("There is no game called %(slug)r.") % {"slug": game_slug}) from None
    if not game.min_players <= table_size <= game.max_players:
        raise ServiceError(
            _("%(game)s is played by %(low)s to %(high)s players.")
            % {"game": game.title, "low": game.min_players, "high": game.max_players}
        )
    if format in (Format.ROUND_ROBIN, Format.SWISS) and table_size != 2:
        raise ServiceError(_("Round robin and Swiss pair two players: choose tables for more."))
    if format == Format.TABLES and table_size < 3:
        raise ServiceError(_("Tables seat 3 to 6 players; pair two-player games otherwise."))
    if format in (Format.SWISS, Format.TABLES) and not 1 <= rounds <= 20:
        raise ServiceError(_("Choose 1 to 20 rounds."))
    if signup_until is None and not max_players:
        raise ServiceError(_("Sign-up needs an end: a date, a number of players, or both."))
    return Tournament.objects.create(
        organiser=organiser,
        name=name.strip()[:80] or game.title,
        game_slug=game_slug,
        format=format,
        table_size=table_size,
        rounds=rounds,
        signup_until=signup_until,
        max_players=max_players,
        days_per_move=days_per_move,
        timeout_policy=timeout_policy,
        vacation_cap=vacation_cap,
        seed=seed or random.SystemRandom().randbytes(16).hex(),
    )


def new_seed() -> str:
    return random.SystemRandom().randbytes(16).hex()


def join(tournament: Tournament, user) -> Entry:
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status != TournamentStatus.SIGNUP:
            raise ServiceError(_("Sign-up for this tournament is closed."))
        entry, created = Entry.objects.get_or_create(tournament=t, user=user)
        if not created and entry.withdrawn_at is not None:
            entry.withdrawn_at = None
            entry.save(update_fields=["withdrawn_at"])
        active = t.entries.filter(withdrawn_at__isnull=True).count()
        if t.max_players and active >= t.max_players:
            transaction.on_commit(lambda: start(t.pk))  # full: the first round now
        return entry


def withdraw(tournament: Tournament, user, *, by: str = "", reason: str = "") -> None:
    """Leave a tournament: before it starts, the entry goes; after, the player's matches in
    play are resigned (a bot plays the seat on and it ranks last, as a resignation does) and
    no later round seats them. An organiser's withdrawal is recorded with who and why."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        entry = t.entries.filter(user=user, withdrawn_at__isnull=True).first()
        if entry is None:
            raise ServiceError(_("That player is not in this tournament."))
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["withdrawn_at"])
        if by:
            OrganiserAction.objects.create(
                tournament=t, by=by, action=f"withdrew {user}", reason=reason or "—"
            )
        playing = Match.objects.filter(
            tournament_table__round__tournament=t, status=MatchStatus.ACTIVE, seats__user=user
        )
        ids = list(playing.values_list("pk", flat=True))
    for match_id in ids:
        games.resign(
            match_id=match_id,
            player=user,
            source=MoveSource.ADMIN,
            note="Withdrew from the tournament.",
        )


def offer_seat(t: Tournament, match: Match, seat: int, *, by, reason: str) -> None:
    """The organiser offers a seat of one of the tournament's matches that timed out to a
    substitute, as its other players may; recorded with who and why."""
    if t.organiser_id != getattr(by, "pk", None) and not getattr(by, "is_staff", False):
        raise ServiceError(_("Only the tournament's organiser may do that."))
    if not Table.objects.filter(round__tournament=t, match=match).exists():
        raise ServiceError(_("That match is not part of this tournament."))
    games.offer_seat(match_id=match.pk, seat=seat, by=by, organiser=True)
    OrganiserAction.objects.create(
        tournament=t,
        by=str(by),
        action=f"offered seat {seat + 1} of {match}",
        reason=reason.strip() or "the seat timed out",
    )


def start_due(now: datetime | None = None) -> int:
    """Start every tournament whose sign-up has ended (beat, every minute)."""
    now = now or timezone.now()
    due = Tournament.objects.filter(status=TournamentStatus.SIGNUP, signup_until__lte=now)
    started = 0
    for pk in due.values_list("pk", flat=True):
        try:
            started += bool(start(pk))
        except ServiceError as error:  # too few players: the tournament does not take place
            Tournament.objects.filter(pk=pk, status=TournamentStatus.SIGNUP).update(
                status=TournamentStatus.CANCELLED
            )
            log.info("tournament %s cancelled: %s", pk, error)
    # A round whose last match ended while its on-commit hand-off was lost (a killed
    # process) is closed here: round_over re-reads under the lock and does nothing twice.
    running = Tournament.objects.filter(status=TournamentStatus.RUNNING)
    for pk, number in running.values_list("pk", "current_round"):
        round_over(pk, number)
    return started


def start(tournament_id: int, *, by: str = "", reason: str = "") -> bool:
    """Seed the entrants by rating and draw the first round. False if it had started."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if t.status != TournamentStatus.SIGNUP:
            return False
        entries = list(t.entries.filter(withdrawn_at__isnull=True).select_related("user"))
        game = get_game(t.game_slug)
        if len(entries) < max(2, game.min_players):
            raise ServiceError(
                _("%(count)s players signed up: too few to start.") % {"count": len(entries)}
            )
        ratings = {
            r.user_id: r.ordinal
            for r in Rating.objects.filter(
                game_slug=t.game_slug, user__in=[e.user for e in entries]
            )
        }
        entries.sort(key=lambda e: (-ratings.get(e.user_id, float("-inf")), e.joined_at, e.pk))
        for number, entry in enumerate(entries, start=1):
            entry.seed = number
        Entry.objects.bulk_update(entries, ["seed"])
        if t.format == Format.ROUND_ROBIN:
            t.rounds = len(pairing.round_robin(range(len(entries))))
        if t.format == Format.TABLES:
            pairing.table_sizes(len(entries), t.table_size, game.min_players)  # or refuse now
        if t.format == Format.KNOCKOUT:
            t.rounds = pairing.knockout_rounds(len(entries), t.table_size, game.min_players)
        t.status = TournamentStatus.RUNNING
        t.save(update_fields=["status", "rounds"])
        if by:
            OrganiserAction.objects.create(tournament=t, by=by, action="started", reason=reason)
        _draw_round(t, 1)
    return True


def _meetings(t: Tournament) -> Counter:
    met: Counter = Counter()
    for table in Table.objects.filter(round__tournament=t).prefetch_related("match__seats"):
        pairing.record(met, [tuple(s.user_id for s in table.match.seats.all())])
    return met


def _draw(t: Tournament, number: int, players: list[int]) -> tuple[list[tuple], int | None]:
    """The tables of round `number` for `players` (user ids, best seed first), and the bye."""
    rng = random.Random(f"{t.seed}:{number}")
    if t.format == Format.ROUND_ROBIN:
        everyone = list(t.entries.order_by("seed").values_list("user_id", flat=True))
        pairs = pairing.round_robin(everyone)[number - 1]
        playing = set(players)
        kept = [p for p in pairs if set(p) <= playing]
        seated = {u for p in kept for u in p}
        byes = [u for u in players if u not in seated]
        return kept, byes[0] if byes else None
    if t.format == Format.SWISS:
        ranked = [row.player for row in current_standings(t) if row.player in set(players)]
        had_bye = set(t.round_set.exclude(bye=None).values_list("bye_id", flat=True))
        return pairing.swiss(ranked, _meetings(t), had_bye)
    game = get_game(t.game_slug)
    if t.format == Format.KNOCKOUT:
        return pairing.knockout(still_in(t, number), t.table_size, game.min_players)
    sizes = pairing.table_sizes(len(players), t.table_size, game.min_players)
    return pairing.tables(players, sizes, _meetings(t), rng), None


def still_in(t: Tournament, number: int) -> list[int]:
    """A cup's players still in before round `number`, best seed first: the top of each
    table of the round before and its bye, less those who withdrew."""
    active = list(
        t.entries.filter(withdrawn_at__isnull=True)
        .order_by("seed")
        .values_list("user_id", flat=True)
    )
    if number == 1:
        return active
    before = t.round_set.get(number=number - 1)
    going_on = {before.bye_id} if before.bye_id else set()
    for table in before.tables.select_related("match"):
        by_seat = {s.number: s.user_id for s in table.match.seats.all()}
        top = pairing.goes_on(len(by_seat))
        going_on |= {by_seat[seat] for place, seat, _ in places(table.match.result or {})[:top]}
    return [u for u in active if u in going_on]


def _draw_round(t: Tournament, number: int) -> Round:
    players = list(
        t.entries.filter(withdrawn_at__isnull=True)
        .order_by("seed")
        .values_list("user_id", flat=True)
    )
    tables, bye = _draw(t, number, players)
    round_ = Round.objects.create(tournament=t, number=number, bye_id=bye)
    users = {e.user_id: e.user for e in t.entries.select_related("user")}
    for table in tables:
        first, *others = [users[u] for u in table]
        match = games.create_match(
            creator=first,
            game_slug=t.game_slug,
            players=len(table),
            days_per_move=t.days_per_move,
            timeout_policy=t.timeout_policy,
            rated=True,
        )
        if t.vacation_cap is not None:
            Match.objects.filter(pk=match.pk).update(vacation_cap=t.vacation_cap)
        for hook in t.hooks.all():  # the tournament's channels follow its matches
            match_hooks.follow(match, hook)
        Table.objects.create(round=round_, match=match)
        for user in others:
            games.join_match(match_id=match.pk, user=user)
    t.current_round = number
    t.save(update_fields=["current_round"])
    _tell_round(t, round_)
    return round_


def _tell_round(t: Tournament, round_: Round) -> None:
    """Each player of the round gets one mail naming their table (the match's own start
    mail follows); the player with the bye is told so; the tournament's channels hear the
    draw."""
    outbox.write_many(hooks.rows_for_round(t, round_))
    seats = Seat.objects.filter(match__tournament_table__round=round_).select_related(
        "user", "match"
    )
    for seat in seats:
        outbox.write(
            outbox.row_for(
                kind=Kind.ROUND,
                user=seat.user,
                match=seat.match,
                seat=seat.number,
                dedupe_key=f"round:{round_.pk}:{seat.user_id}",
                context={
                    "tournament": t.name,
                    "tournament_id": t.pk,
                    "round": round_.number,
                    "rounds": t.rounds,
                },
            )
        )
    if round_.bye_id:
        outbox.write(
            outbox.row_for(
                kind=Kind.ROUND,
                user=round_.bye,
                dedupe_key=f"round:{round_.pk}:{round_.bye_id}",
                context={
                    "tournament": t.name,
                    "tournament_id": t.pk,
                    "round": round_.number,
                    "rounds": t.rounds,
                    "bye": True,
                },
            )
        )


def on_match_finished(sender, match, seats, **kwargs) -> None:
    """A match ended (games.events, inside its transaction): if it was the last of its
    round, the next round is drawn once this commits, or the tournament ends."""
    table = Table.objects.filter(match=match).select_related("round").first()
    if table is not None:
        tournament_id, number = table.round.tournament_id, table.round.number
        transaction.on_commit(lambda: round_over(tournament_id, number))


def round_over(tournament_id: int, number: int) -> bool:
    """Close round `number` if all its matches are over; then draw the next or finish.
    Safe to call twice: the tournament row is locked and the round's state re-read."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        round_ = t.round_set.filter(number=number, finished_at=None).first()
        if t.status != TournamentStatus.RUNNING or round_ is None or t.current_round != number:
            return False
        if Match.objects.filter(tournament_table__round=round_, status=MatchStatus.ACTIVE).exists():
            return False
        round_.finished_at = timezone.now()
        round_.save(update_fields=["finished_at"])
        active = t.entries.filter(withdrawn_at__isnull=True).count()
        if t.format == Format.KNOCKOUT:
            over = len(still_in(t, number + 1)) < 2
        else:
            over = number >= t.rounds or active < 2
        if over:
            t.status = TournamentStatus.FINISHED
            t.save(update_fields=["status"])
            if t.hooks.exists():
                from community.names import public_name

                users = {e.user_id: e.user for e in t.entries.select_related("user")}
                order = [public_name(users[row.player]) for row in current_standings(t)]
                outbox.write_many(hooks.rows_for_tournament_end(t, order))
            from .leagues import tournament_finished  # leagues build on tournaments

            tournament_finished(t)
            return True
        _draw_round(t, number + 1)
        return True


def finished_matches(t: Tournament) -> list[Finished]:
    out = []
    matches = Match.objects.filter(
        tournament_table__round__tournament=t, status=MatchStatus.FINISHED
    ).prefetch_related("seats")
    for match in matches:
        by_seat = {s.number: s.user_id for s in match.seats.all()}
        place_of = {seat: place for place, seat, _ in places(match.result or {})}
        numbers = sorted(by_seat)
        scores = (match.result or {}).get("scores") or []  # none after a resignation
        out.append(
            Finished(
                players=[by_seat[n] for n in numbers],
                places=[place_of.get(n, len(numbers)) for n in numbers],
                scores=[scores[n] if n < len(scores) else 0 for n in numbers],
            )
        )
    return out


def current_standings(t: Tournament) -> list[Row]:
    seeds = dict(t.entries.values_list("user_id", "seed"))
    rows = standings(seeds, finished_matches(t))
    for round_ in t.round_set.exclude(bye=None):  # a bye counts as a win
        for row in rows:
            if row.player == round_.bye_id:
                row.points += 1
    if t.format == Format.KNOCKOUT:  # a cup ranks by how far each went, then as above
        reached: Counter = Counter()
        for table in Table.objects.filter(round__tournament=t).prefetch_related("match__seats"):
            reached.update(s.user_id for s in table.match.seats.all())
        reached.update(t.round_set.exclude(bye=None).values_list("bye_id", flat=True))
        return sorted(
            rows, key=lambda r: (-reached[r.player], -r.points, -r.score, -r.head_to_head, r.seed)
        )
    return sorted(rows, key=lambda r: (-r.points, -r.score, -r.head_to_head, r.seed))


def calendar_days(sender, user, **kwargs) -> list[tuple]:
    """The rounds of `user`'s tournaments in play, for their calendar (notifications.feeds)."""
    rounds = Round.objects.filter(
        tournament__entries__user=user,
        tournament__entries__withdrawn_at__isnull=True,
        tournament__status=TournamentStatus.RUNNING,
    ).select_related("tournament")
    return [
        (
            f"round-{r.pk}@pbm",
            f"{r.tournament.name}: round {r.number} of {r.tournament.rounds}",
            outbox_absolute(reverse("tournament_detail", args=[r.tournament_id])),
            r.started_at.date(),
        )
        for r in rounds
    ]
