"""Matches in play and the three paths players move by, shared by bench.http and
bench.profile_move.

`start_matches` starts matches between people (each match with accounts of its own, so the
API's budget of 120 requests a minute per account never refuses a benchmark's move) and
works out each one's script of legal moves. `Player` plays a scripted move in-process the
way each path does it: the web Confirm (a signed-in session, Django's test client), API v1
(a play token) and an email reply (`inbound.receive_raw`, what `manage.py receive_email`
runs on the message an MTA pipes to it).
"""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from bench.common import bench_seed

PATHS = ("web", "api", "email")
WEB_URL = "/matches/{id}/move/"
API_URL = "/api/v1/matches/{id}/moves"
BACKEND = "django.contrib.auth.backends.ModelBackend"


def start_matches(game, players: int, count: int, *, label: str) -> list[dict]:
    """`count` started matches between people, and for each the moves a player will send.

    The script is worked out the way the platform plays it: forced decisions resolve
    themselves, and each person answers with the first legal move, as "1" (the first entry
    of the numbered menu) or, when there is no numbered menu (too long to number, or a
    number is the game's own command there, as New England's "3" cards), as the game's own
    command for that move. Each entry is (seat, seq seen, command, idempotency key).
    """
    from django.contrib.auth import get_user_model

    from games import services
    from games.commands import menu
    from games.engine import event_rng, next_automatic
    from games.models import Match
    from games.selectors import load_state

    User = get_user_model()
    out = []
    for n in range(count):
        name = f"{game.slug}-{label}-{n}"
        people = [
            User.objects.create_user(username=f"{name}-{p}", email=f"{name}-{p}@bench.invalid")
            for p in range(players)
        ]
        match = services.create_match(
            creator=people[0],
            game_slug=game.slug,
            players=players,
            seed=bench_seed(f"bench-{label}:{n}"),
        )
        for user in people[1:]:
            services.join_match(match_id=match.pk, user=user)
        match = Match.objects.get(pk=match.pk)
        if match.status != "active":
            continue
        state, seq, script = load_state(match), match.head_seq, []
        while game.result(state) is None:
            automatic = next_automatic(game, state)
            if automatic is not None:
                seat, move = automatic.seat, automatic.move
            else:
                seat = game.to_act(state)[0]
                move = game.legal_moves(state, seat)[0]
                command = "1" if menu(game, state, seat) else game.format_move(state, seat, move)
                script.append((seat, seq, command, f"bench-{match.pk}-{len(script)}"))
            seq += 1
            state = game.apply(state, seat, move, event_rng(match.seed, seq))
        users = {s.number: s.user for s in match.seats.select_related("user")}
        out.append({"id": match.pk, "users": users, "script": script})
    return out


def web_session(user) -> tuple[str, str]:
    """A signed-in session's cookie and a CSRF secret for `user` (cookie and header)."""
    from django.conf import settings
    from django.test import Client
    from django.utils.crypto import get_random_string

    client = Client()
    client.force_login(user, backend=BACKEND)
    return client.cookies[settings.SESSION_COOKIE_NAME].value, get_random_string(32)


def api_key(user) -> str:
    from api.tokens import make_token

    return make_token(user=user, name="bench", scope="play")[1]


def reply(match_id: int, seat: int, seq: int, user, command: str) -> tuple[str, bytes]:
    """The envelope recipient and the message of a player's reply to a turn notice."""
    from replies.tokens import reply_address

    address = reply_address(match_id, seat, seq)
    message = EmailMessage()
    message["From"] = user.email
    message["To"] = address
    message["Subject"] = "Re: Your turn"
    message["Message-ID"] = make_msgid(domain="player.example")
    message.set_content(f"{command}\n\nOn Monday, Postal Boards wrote:\n> Your turn.\n")
    return address, message.as_bytes()


class Player:
    """Plays scripted moves in-process by one path, each seat with its own credentials."""

    def __init__(self, path: str):
        from django.conf import settings

        if "testserver" not in settings.ALLOWED_HOSTS:
            settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        self.path = path
        self.clients: dict[int, object] = {}

    def client(self, user):
        from django.test import Client

        if user.pk not in self.clients:
            if self.path == "web":
                client = Client()
                client.force_login(user, backend=BACKEND)
            else:
                client = Client(headers={"Authorization": f"Bearer {api_key(user)}"})
                client.get("/api/v1/me")  # its first use noted here (then once a minute)
            self.clients[user.pk] = client
        return self.clients[user.pk]

    def send(self, match: dict, seat: int, seq: int, command: str, key: str):
        """Send the move: the response (web, API) or the handled message (email)."""
        user = match["users"][seat]
        if self.path == "email":
            from replies import inbound

            address, raw = reply(match["id"], seat, seq, user, command)
            return inbound.receive_raw(raw, recipient=address, sender=user.email)
        client = self.client(user)
        if self.path == "web":
            data = {"command": command, "seq": seq, "token": key}
            return client.post(WEB_URL.format(id=match["id"]), data)
        return client.post(
            API_URL.format(id=match["id"]),
            {"command": command, "seq": seq, "idempotency_key": key},
            content_type="application/json",
        )

    def played(self, answer) -> bool:
        """Whether the path answered that the move was played."""
        if self.path == "email":
            return "Applied" in answer.outcome
        if self.path == "api":
            return answer.status_code == 200
        from django.contrib.messages import get_messages

        shown = get_messages(answer.wsgi_request)
        return answer.status_code == 302 and any(str(m).startswith("Applied:") for m in shown)
