"""How many queries a move costs on each path players use, counted so a regression fails:
the web Confirm with a session, API v1 with a token, and an email reply.

Counted: every statement Django sends for the request (for an email reply: for the move,
since reading the mail is its own work). Not counted: transaction control (BEGIN and COMMIT
in production, a savepoint inside a test's transaction). The position cache is warm, as it
is for the next move of a match in play; the cache is this process's own, so a parallel run
that clears a shared Redis cannot make a move miss it.

A move that asks nobody new costs at most 6 statements: who is asking (the session's user,
or the token), the lock that reads the match and its seats with their people, the move's
insert, the match's projections and the seats' deadlines. Asking someone new adds the
notices' insert; a snapshot (every SNAPSHOT_EVERY moves) adds its insert.
"""

from __future__ import annotations

import random
import secrets
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from api.tokens import make_token
from games import services
from games.engine import available_games
from games.models import Match
from games.selectors import load_state
from replies import inbound
from replies.tokens import reply_address
from tests.factories import make_user, two_player_match

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("own_cache")]

MOVE_BUDGET = 6


@pytest.fixture
def own_cache(settings):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "q"}
    }
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


TRANSACTION_CONTROL = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")
EXTRA = ('INSERT INTO "notifications_notification"', 'INSERT INTO "games_snapshot"')


class Counted:
    def __init__(self):
        self.capture = CaptureQueriesContext(connection)

    def __enter__(self):
        self.capture.__enter__()
        return self

    def __exit__(self, *exc):
        self.capture.__exit__(*exc)

    @property
    def sql(self) -> list[str]:
        return [q["sql"] for q in self.capture if not q["sql"].startswith(TRANSACTION_CONTROL)]

    def __len__(self) -> int:
        return len(self.sql)

    def for_the_move(self) -> int:
        """The statements a move that asks nobody new would send: without the notices of a
        seat asked anew, and without a snapshot."""
        return len([q for q in self.sql if not q.startswith(EXTRA)])


# --- the three paths, each playing one command for a user ---------------------------------


class Web:
    def __init__(self, user):
        self.client = Client()
        self.client.force_login(user)

    def play(self, match: Match, command: str) -> bool:
        response = self.client.post(
            f"/matches/{match.pk}/move/",
            {"command": command, "seq": match.head_seq, "token": secrets.token_hex(8)},
        )
        assert response.status_code == 302, response.status_code
        return True


class Api:
    def __init__(self, user):
        _token, key = make_token(user=user, name="queries", scope="play")
        self.client = Client(headers={"Authorization": f"Bearer {key}"})
        assert self.client.get("/api/v1/me").status_code == 200  # the token's first use noted

    def play(self, match: Match, command: str) -> bool:
        response = self.client.post(
            f"/api/v1/matches/{match.pk}/moves",
            {"command": command, "seq": match.head_seq},
            content_type="application/json",
        )
        assert response.status_code == 200, response.content
        return True


class Email:
    """Counts the move itself: the reply's reading and answering are the pipe's own work."""

    def __init__(self, user):
        self.user = user

    def play(self, match: Match, command: str) -> bool:
        seat = match.seats.get(user=self.user)
        address = reply_address(match.pk, seat.number, seat.deadline_seq)
        message = EmailMessage()
        message["From"] = self.user.email
        message["To"] = address
        message["Subject"] = "Re: Your turn"
        message["Message-ID"] = make_msgid(domain="player.example")
        message.set_content(f"{command}\n\nOn Monday, Postal Boards wrote:\n> Your turn.\n")
        handled = inbound.receive_raw(message.as_bytes(), recipient=address)
        assert "Applied" in handled.outcome, handled.outcome
        return True


PATHS = {"web": Web, "api": Api, "email": Email}


@pytest.fixture
def counted_moves(monkeypatch):
    """The statements of each `submit_move` call (the email path's move)."""
    moves: list[Counted] = []
    submit = services.submit_move

    def counting(**arguments):
        with Counted() as queries:
            result = submit(**arguments)
        moves.append(queries)
        return result

    monkeypatch.setattr(services, "submit_move", counting)
    return moves


def play_counted(path: str, player, match: Match, command: str, counted_moves) -> Counted:
    player_path = PATHS[path](player)
    match.refresh_from_db()
    load_state(match)  # the position cache is warm, as in play
    seen = match.head_seq
    if path == "email":
        player_path.play(match, command)
        queries = counted_moves[-1]
    else:
        with Counted() as queries:
            player_path.play(match, command)
    match.refresh_from_db()
    assert match.head_seq > seen, f"{command!r} was not applied"
    return queries


# --- the sealed-cards duel: a move that asks nobody new, exactly -------------------------


@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_move_that_asks_nobody_new_costs_at_most_six_queries(path, counted_moves):
    match, anna, _bram = two_player_match()
    player = match.seats.select_related("user").get(number=anna).user
    card = min(load_state(match)["hands"][anna])
    queries = play_counted(path, player, match, f"play {card}", counted_moves)
    # Both seats were asked at once; Anna's card asks nobody new.
    assert len(queries) <= MOVE_BUDGET, "\n".join(queries.sql)
    assert not any(q.startswith(EXTRA) for q in queries.sql)
    writes = [q.split(" ")[:3] for q in queries.sql if q.startswith(("INSERT", "UPDATE"))]
    assert writes == [
        ["INSERT", "INTO", '"games_move"'],
        ["UPDATE", '"games_match"', "SET"],
        ["UPDATE", '"games_seat"', "SET"],
    ], queries.sql
    locks = [q for q in queries.sql if "FOR UPDATE" in q]
    if connection.vendor == "postgresql":  # SQLite has no row locks
        assert len(locks) == 1 and 'OF "games_seat", "games_match"' in locks[0], locks
    assert match.moves.count() == 1


def test_a_move_that_asks_both_seats_again_adds_the_notices(counted_moves):
    match, anna, bram = two_player_match()
    services.submit_move(
        match_id=match.pk,
        seat=anna,
        move={"type": "play", "card": min(load_state(match)["hands"][anna])},
        source="web",
    )
    player = match.seats.select_related("user").get(number=bram).user
    card = min(load_state(Match.objects.get(pk=match.pk))["hands"][bram])
    queries = play_counted("api", player, match, f"play {card}", counted_moves)
    notices = [q for q in queries.sql if q.startswith('INSERT INTO "notifications_notification"')]
    assert len(notices) == 1  # both turn notices (mail and webhook rows) in one insert
    assert len(queries) <= MOVE_BUDGET + 1, "\n".join(queries.sql)


# --- every hosted game, every path --------------------------------------------------------


def hosted_games():
    return [g for g in available_games() if g.slug != "sealed-cards"]


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("slug", [g.slug for g in hosted_games()])
def test_every_game_moves_within_the_budget_on_every_path(slug, path, counted_moves):
    game = next(g for g in hosted_games() if g.slug == slug)
    users = [make_user(f"{slug}-{path}-{n}") for n in range(game.min_players)]
    match = services.create_match(
        creator=users[0],
        game_slug=slug,
        players=len(users),
        invite_emails=[u.email for u in users[1:]],
        seed=f"queries-{slug}",
    )
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    rng = random.Random(3)
    counts = []
    for _ in range(6):
        match.refresh_from_db()
        if match.status != "active":
            break
        state = load_state(match)
        seat = next(s for s in match.seats.select_related("user") if s.deadline_at is not None)
        command = game.format_move(state, seat.number, game.bot_move(state, seat.number, rng))
        queries = play_counted(path, seat.user, match, command, counted_moves)
        counts.append(queries.for_the_move())
        assert queries.for_the_move() <= MOVE_BUDGET, (command, [q[:150] for q in queries.sql])
    assert len(counts) >= 3, counts
