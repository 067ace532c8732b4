"""The one place tournaments change: created, joined, started, a round drawn and its matches
made (through the games service layer), the next round when the last match of one ends,
withdrawals. Pairing and standings are pure (pairing.py, standings.py)."""

from __future__ import annotations

import logging
import random
from collections import Counter
from datetime import datetime
from functools import partial

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from community.models import Rating
from games import services as games
from games.engine import get_game
from games.engine.contract import places
from games.models import Match, MatchStatus, MoveKind, MoveSource, Seat
from games.services import ServiceError
from notifications import hooks as match_hooks
from notifications import outbox
from notifications.emails import absolute as outbox_absolute
from notifications.models import Kind

from . import hooks, pairing
from .models import (
    DEFAULT_VACATION_CAP,
    Entry,
    Format,
    OrganiserAction,
    Round,
    Table,
    Tournament,
    TournamentStatus,
)
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
    vacation_cap: int | None = DEFAULT_VACATION_CAP,
    seed: str | None = None,
) -> Tournament:
    game = check_settings(
        game_slug=game_slug,
        format=format,
        table_size=table_size,
        rounds=rounds,
        signup_until=signup_until,
        max_players=max_players,
    )
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


def game_at_tables(game_slug: str, table_size: int):
    """The game of `game_slug`, if it is played at tables of `table_size`; else a
    ServiceError that says why."""
    try:
        game = get_game(game_slug)
    except KeyError:
        raise ServiceError(_("There is no game called %(slug)r.") % {"slug": game_slug}) from None
    if not game.min_players <= table_size <= game.max_players:
        raise ServiceError(
            _("%(game)s is played by %(low)s to %(high)s players.")
            % {"game": game.title, "low": game.min_players, "high": game.max_players}
        )
    return game


def check_settings(
    *,
    game_slug: str,
    format: str,
    table_size: int,
    rounds: int,
    signup_until: datetime | None,
    max_players: int | None,
):
    """The game, if the server can play a tournament of these settings to its end; else a
    ServiceError that says why and what would work (the form shows it)."""
    game = game_at_tables(game_slug, table_size)
    if format in (Format.ROUND_ROBIN, Format.SWISS) and table_size != 2:
        raise ServiceError(_("Round robin and Swiss pair two players: choose tables for more."))
    if format == Format.TABLES and table_size < 3:
        raise ServiceError(_("Tables seat 3 to 6 players; pair two-player games otherwise."))
    if format in (Format.SWISS, Format.TABLES) and not 1 <= rounds <= 20:
        raise ServiceError(_("Choose 1 to 20 rounds."))
    if signup_until is None and not max_players:
        raise ServiceError(_("Sign-up needs an end: a date, a number of players, or both."))
    least = max(2, game.min_players)
    if max_players and max_players < least:
        raise ServiceError(
            _("%(game)s needs at least %(least)s players: sign-up cannot end at %(most)s.")
            % {"game": game.title, "least": least, "most": max_players}
        )
    if format == Format.KNOCKOUT and max_players:
        if not pairing.knockout_plan(max_players, table_size, game.min_players):
            works = [
                str(n)
                for n in range(least, 65)
                if pairing.knockout_plan(n, table_size, game.min_players)
            ][:6]
            raise ServiceError(
                _(
                    "A cup of %(count)s at tables of %(size)s cannot end in a final of "
                    "%(game)s (%(low)s to %(size)s players): choose %(works)s players, "
                    "or another table size."
                )
                % {
                    "count": max_players,
                    "size": table_size,
                    "game": game.title,
                    "low": game.min_players,
                    "works": ", ".join(works),
                }
            )
    return game


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
            # Full: the first round now, after this commits (a failure is the tournament's).
            transaction.on_commit(partial(safely, t.pk, "start", partial(start_or_cancel, t.pk)))
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
    check_organiser(t, by)
    if not Table.objects.filter(round__tournament=t, match=match).exists():
        raise ServiceError(_("That match is not part of this tournament."))
    games.offer_seat(match_id=match.pk, seat=seat, by=by, organiser=True)
    OrganiserAction.objects.create(
        tournament=t,
        by=str(by),
        action=f"offered seat {seat + 1} of {match}",
        reason=reason.replace("\x00", "").strip() or "the seat timed out",
    )


def check_organiser(t: Tournament, by) -> None:
    if t.organiser_id != getattr(by, "pk", None) and not getattr(by, "is_staff", False):
        raise ServiceError(_("Only the tournament's organiser may do that."))


def _why(reason: str) -> str:
    reason = reason.replace("\x00", "").strip()  # PostgreSQL stores no NUL
    if not reason:
        raise ServiceError(_("Say why: it is recorded with what you did."))
    return reason


def withdraw_player(t: Tournament, user, *, by, reason: str) -> None:
    """The organiser withdraws an entrant (as `withdraw`), recorded with who and why."""
    check_organiser(t, by)
    withdraw(t, user, by=str(by), reason=_why(reason))


def cancel(t: Tournament, *, by, reason: str) -> None:
    """The organiser calls the tournament off: its matches in play are abandoned (not
    rated), no round follows; recorded with who and why."""
    check_organiser(t, by)
    reason = _why(reason)
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=t.pk)
        if t.status not in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING):
            raise ServiceError(_("This tournament is over already."))
        t.status = TournamentStatus.CANCELLED
        t.save(update_fields=["status"])
        OrganiserAction.objects.create(tournament=t, by=str(by), action="cancelled", reason=reason)
        playing = Match.objects.filter(
            tournament_table__round__tournament=t,
            status__in=(MatchStatus.ACTIVE, MatchStatus.OPEN),
        )
        for match_id in playing.values_list("pk", flat=True):
            games.abandon_match(match_id=match_id, reason=reason)


def describe(t: Tournament, *, by, description: str) -> None:
    """The organiser's words on the tournament's page (rules of the house, a schedule...)."""
    check_organiser(t, by)
    Tournament.objects.filter(pk=t.pk).update(description=description.strip())
    OrganiserAction.objects.create(
        tournament=t, by=str(by), action="edited the description", reason="—"
    )


def extend_signup(t: Tournament, *, by, until: datetime, reason: str) -> None:
    """The organiser moves the end of sign-up later, recorded with who and why."""
    check_organiser(t, by)
    reason = _why(reason)
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=t.pk)
        if t.status != TournamentStatus.SIGNUP:
            raise ServiceError(_("Sign-up for this tournament is closed."))
        if until <= timezone.now() or (t.signup_until and until <= t.signup_until):
            raise ServiceError(_("Choose a moment later than now and than the present end."))
        t.signup_until = until
        t.save(update_fields=["signup_until"])
        OrganiserAction.objects.create(
            tournament=t,
            by=str(by),
            action=f"extended sign-up to {until:%Y-%m-%d %H:%M} UTC",
            reason=reason,
        )


def preview_draw(t: Tournament) -> tuple[int, list[tuple], list[int]] | None:
    """What the next round's draw would be now: round 1 from the entrants signed up (seeded
    as the start will), or the next round from the standings as they are (a cup's waits
    for its results). None when there is no next round or it cannot be drawn yet."""
    try:
        if t.status == TournamentStatus.SIGNUP:
            entries = list(t.entries.filter(withdrawn_at__isnull=True))
            seeded = [e.user_id for e in _seeded(t, entries)]
            if len(seeded) < max(2, get_game(t.game_slug).min_players):
                return None
            return (1, *_draw(t, 1, seeded, seeded))
        if t.status != TournamentStatus.RUNNING or t.format == Format.KNOCKOUT:
            return None
        if t.current_round >= t.rounds:
            return None
        players = list(
            t.entries.filter(withdrawn_at__isnull=True)
            .order_by("seed")
            .values_list("user_id", flat=True)
        )
        return (t.current_round + 1, *_draw(t, t.current_round + 1, players))
    except Exception:  # a preview never stands in the page's way; the start says why
        log.exception("tournament %s: the preview of the draw failed", t.pk)
        return None


def start_due(now: datetime | None = None) -> int:
    """Start every tournament whose sign-up has ended (beat, every minute), and close the
    rounds whose last match ended. Each tournament is its own unit of work: one that fails
    is logged and its problem recorded for its organiser, and the others go on."""
    now = now or timezone.now()
    due = Tournament.objects.filter(status=TournamentStatus.SIGNUP, signup_until__lte=now)
    started = 0
    for pk in due.values_list("pk", flat=True):
        started += bool(safely(pk, "start", partial(start_or_cancel, pk)))
    # A round whose last match ended while its on-commit hand-off was lost (a killed
    # process) is closed here: round_over re-reads under the lock and does nothing twice.
    running = Tournament.objects.filter(status=TournamentStatus.RUNNING)
    for pk, number in running.values_list("pk", "current_round"):
        safely(pk, "round", partial(round_over, pk, number))
    return started


def start_or_cancel(tournament_id: int) -> bool:
    """Start a tournament whose sign-up ended; with too few players it does not take place."""
    try:
        return start(tournament_id)
    except ServiceError as error:
        Tournament.objects.filter(pk=tournament_id, status=TournamentStatus.SIGNUP).update(
            status=TournamentStatus.CANCELLED
        )
        OrganiserAction.objects.create(
            tournament_id=tournament_id, by="—", action="cancelled", reason=error.message
        )
        log.info("tournament %s cancelled: %s", tournament_id, error)
        return False


def safely(tournament_id: int, work: str, do):
    """Run `do()` (which has its own transaction) for one tournament: an error is logged and
    recorded on the tournament, for its organiser's page, and goes no further, so that a
    broken tournament never stops the others, nor a move that ends a round. A success
    clears a recorded problem."""
    try:
        done = do()
    except Exception as error:
        log.exception("tournament %s: %s failed", tournament_id, work)
        Tournament.objects.filter(pk=tournament_id).update(
            problem=f"{work}: {type(error).__name__}: {error}", problem_at=timezone.now()
        )
        return None
    Tournament.objects.filter(pk=tournament_id).exclude(problem="").update(
        problem="", problem_at=None
    )
    return done


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
        if t.format == Format.KNOCKOUT:
            _fit_the_cup(t, entries, game.min_players)
        entries = _seeded(t, entries)
        for number, entry in enumerate(entries, start=1):
            entry.seed = number
        Entry.objects.bulk_update(entries, ["seed"])
        if t.format == Format.ROUND_ROBIN:
            t.rounds = len(pairing.round_robin(range(len(entries))))
        if t.format == Format.KNOCKOUT:
            t.rounds = pairing.knockout_rounds(len(entries), t.table_size, game.min_players)
        t.status = TournamentStatus.RUNNING
        t.save(update_fields=["status", "rounds"])
        if by:
            OrganiserAction.objects.create(
                tournament=t, by=by, action="started", reason=reason.replace("\x00", "")
            )
        _draw_round(t, 1)
    return True


def _seeded(t: Tournament, entries: list[Entry]) -> list[Entry]:
    """Entries best first: by rating in the game, unrated after the rated by sign-up time."""
    ratings = {
        r.user_id: r.ordinal
        for r in Rating.objects.filter(game_slug=t.game_slug, user__in=[e.user_id for e in entries])
    }
    return sorted(
        entries, key=lambda e: (-ratings.get(e.user_id, float("-inf")), e.joined_at, e.pk)
    )


def _fit_the_cup(t: Tournament, entries: list[Entry], smallest: int) -> None:
    """A cup whose count of players cannot end in a final (New England's at tables of 3
    with an even count) leaves out the last to sign up, as few as it takes; each is told
    by the page, and the organiser's record says why."""
    entries.sort(key=lambda e: (e.joined_at, e.pk))
    while entries and not pairing.knockout_plan(len(entries), t.table_size, smallest):
        entry = entries.pop()
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["withdrawn_at"])
        OrganiserAction.objects.create(
            tournament=t,
            by="—",
            action=f"left out {entry.user}",
            reason=f"a cup of {len(entries) + 1} at tables of {t.table_size} cannot end in "
            "a final; the last to sign up sits it out",
        )
    if not entries:
        raise ServiceError(_("Too few players signed up for a cup that ends in a final."))


def _meetings(t: Tournament) -> Counter:
    met: Counter = Counter()
    for table in Table.objects.filter(round__tournament=t).prefetch_related("match__seats"):
        pairing.record(met, [tuple(s.user_id for s in table.match.seats.all())])
    return met


def _draw(
    t: Tournament, number: int, players: list[int], seeded: list[int] | None = None
) -> tuple[list[tuple], list[int]]:
    """The tables of round `number` for `players` (user ids, best seed first), and who has
    a bye (the first is the round's bye; tables and cups may leave out more). `seeded`: the
    order before the first round, for a preview while sign-up is open. Reads, never writes."""
    rng = random.Random(f"{t.seed}:{number}")
    if t.format == Format.ROUND_ROBIN:
        everyone = seeded or list(t.entries.order_by("seed").values_list("user_id", flat=True))
        pairs = pairing.round_robin(everyone)[number - 1]
        playing = set(players)
        kept = [p for p in pairs if set(p) <= playing]
        seated = {u for p in kept for u in p}
        # The round's bye, and whoever was to meet a player who withdrew: a forfeit, a win.
        return kept, [u for u in players if u not in seated]
    ranked = seeded or [row.player for row in current_standings(t) if row.player in set(players)]
    if t.format == Format.SWISS:
        had_bye = set(byes(t))
        pairs, bye = pairing.swiss(ranked, _meetings(t), had_bye)
        return pairs, [bye] if bye else []
    game = get_game(t.game_slug)
    if t.format == Format.KNOCKOUT:
        return pairing.knockout(seeded or still_in(t, number), t.table_size, game.min_players)
    # Tables: a count they cannot seat exactly seats the most they can; who sits out is
    # who sat out least, the lowest in the standings first (as the Swiss bye).
    seated = pairing.largest_seatable(len(players), t.table_size, game.min_players)
    sat_out: Counter = Counter(byes(t))
    out = sorted(reversed(ranked), key=lambda p: sat_out[p])[: len(players) - seated]
    playing = [p for p in players if p not in out]
    sizes = pairing.table_sizes(len(playing), t.table_size, game.min_players)
    return pairing.tables(playing, sizes, _meetings(t), rng), out


def still_in(t: Tournament, number: int) -> list[int]:
    """A cup's players still in before round `number`, best seed first: the top of each
    table of the round before and its byes, less those who withdrew. A place shared at the
    cut (a drawn table) sends on the better seed."""
    active = list(
        t.entries.filter(withdrawn_at__isnull=True)
        .order_by("seed")
        .values_list("user_id", flat=True)
    )
    if number == 1:
        return active
    before = t.round_set.get(number=number - 1)
    seeds = dict(t.entries.values_list("user_id", "seed"))
    going_on = set(([before.bye_id] if before.bye_id else []) + list(before.sat_out or []))
    for table in before.tables.select_related("match"):
        by_seat = {s.number: s.user_id for s in table.match.seats.all()}
        top = pairing.goes_on(len(by_seat))
        ranked = sorted(
            places(table.match.result or {}),
            key=lambda p: (p[0], seeds.get(by_seat[p[1]], 0)),
        )
        going_on |= {by_seat[seat] for _, seat, _ in ranked[:top]}
    return [u for u in active if u in going_on]


def _draw_round(t: Tournament, number: int) -> Round:
    players = list(
        t.entries.filter(withdrawn_at__isnull=True)
        .order_by("seed")
        .values_list("user_id", flat=True)
    )
    tables, out = _draw(t, number, players)
    round_ = Round.objects.create(
        tournament=t, number=number, bye_id=out[0] if out else None, sat_out=out[1:]
    )
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
    _tell_round(t, round_, [users[u] for u in out])
    return round_


def _tell_round(t: Tournament, round_: Round, out: list) -> None:
    """Each player of the round gets one mail naming their table (the match's own start
    mail follows); a player with a bye is told so; the tournament's channels hear the
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
    for user in out:
        outbox.write(
            outbox.row_for(
                kind=Kind.ROUND,
                user=user,
                dedupe_key=f"round:{round_.pk}:{user.pk}",
                context={
                    "tournament": t.name,
                    "tournament_id": t.pk,
                    "round": round_.number,
                    "rounds": t.rounds,
                    "bye": True,
                },
            )
        )


def _tell_the_end(t: Tournament) -> None:
    """Every entrant gets a mail with the final standings; the channels hear them too."""
    from community.names import public_name

    users = {e.user_id: e.user for e in t.entries.select_related("user")}
    rows = current_standings(t)
    standings_lines = [
        {
            "place": place,
            "name": public_name(users[row.player]),
            "points": f"{float(row.points):g}",
        }
        for place, row in enumerate(rows, start=1)
    ]
    if t.hooks.exists():
        outbox.write_many(hooks.rows_for_tournament_end(t, [s["name"] for s in standings_lines]))
    for user in users.values():
        outbox.write(
            outbox.row_for(
                kind=Kind.ROUND,
                user=user,
                dedupe_key=f"tournament-end:{t.pk}:{user.pk}",
                context={
                    "event": "end",
                    "tournament": t.name,
                    "tournament_id": t.pk,
                    "standings": standings_lines,
                },
            )
        )


def on_moves_appended(sender, match, seats, moves, **kwargs) -> None:
    """A deadline passed for a seat of a tournament's match (games.events, inside its
    transaction): the organiser is told, with the page where they can offer the seat to a
    substitute or withdraw the player, since the round waits on that match."""
    timeouts = [m for m in moves if m.kind == MoveKind.TIMEOUT]
    if not timeouts:
        return
    table = Table.objects.filter(match=match).select_related("round__tournament").first()
    if table is None or table.round.tournament.organiser_id is None:
        return
    t = table.round.tournament
    names = {s.number: s.name for s in seats}
    for move in timeouts:
        outbox.write(
            outbox.row_for(
                kind=Kind.ROUND,
                user=t.organiser,
                dedupe_key=f"tournament-stalled:{match.pk}:{move.seat}:{move.seq}",
                context={
                    "event": "stalled",
                    "tournament": t.name,
                    "tournament_id": t.pk,
                    "round": table.round.number,
                    "rounds": t.rounds,
                    "match_label": str(match),
                    "match_id": match.pk,
                    "player": names.get(move.seat, "?"),
                    "organiser": True,  # it replies to the organiser's address
                },
            )
        )


def on_match_finished(sender, match, seats, **kwargs) -> None:
    """A match ended (games.events, inside its transaction): if it was the last of its
    round, the next round is drawn once this commits, or the tournament ends."""
    table = Table.objects.filter(match=match).select_related("round").first()
    if table is not None:
        tournament_id, number = table.round.tournament_id, table.round.number
        # After the move commits; a failure is recorded on the tournament, never the mover's.
        transaction.on_commit(
            partial(safely, tournament_id, "round", partial(round_over, tournament_id, number))
        )


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
        smallest = get_game(t.game_slug).min_players
        if t.format == Format.KNOCKOUT:
            # No final is drawn that cannot be played (withdrawals may leave too few): the
            # cup ends, and the standings rank who went furthest.
            left = len(still_in(t, number + 1))
            over = not pairing.knockout_plan(left, t.table_size, smallest)
        else:  # withdrawals may leave too few for a single table
            over = number >= t.rounds or active < max(2, smallest)
        if over:
            t.status = TournamentStatus.FINISHED
            t.save(update_fields=["status"])
            _tell_the_end(t)
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


def byes(t: Tournament) -> list[int]:
    """A player id for every bye had in the tournament's rounds (a player who sat out a
    round of tables counts as one too)."""
    out = []
    for bye_id, sat_out in t.round_set.values_list("bye_id", "sat_out"):
        out += ([bye_id] if bye_id else []) + list(sat_out or [])
    return out


def current_standings(t: Tournament) -> list[Row]:
    """The standings from the complete result list: every finished match and every bye."""
    seeds = dict(t.entries.values_list("user_id", "seed"))
    had_byes = byes(t)
    reached = None
    if t.format == Format.KNOCKOUT:  # a cup ranks by how far each went, then as above
        counted: Counter = Counter(had_byes)
        for table in Table.objects.filter(round__tournament=t).prefetch_related("match__seats"):
            counted.update(s.user_id for s in table.match.seats.all())
        reached = dict(counted)
    return standings(seeds, finished_matches(t), had_byes, reached)


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
