"""Every kind of decision of every game can be made by email with the words its turn email
shows. A match of each game is played through the service (a playout that seeks the move
types it has not played yet, so proposals, reactions and offers come up); the first time a
kind of decision (the set of move types open) is asked, the player answers the turn email's
own example by reply, through the inbound path, quoted as a client quotes it; the next time,
where the question admits it, with one word ("yes", "no")."""

import email
import random
import re
from email.policy import default as default_policy

import pytest
from django.contrib.auth.models import User
from django.core import mail

from games import commands, services
from games.engine import ParseError, available_games, seats_to_ask
from games.selectors import load_state
from notifications import outbox
from replies import inbound
from replies.models import InboundStatus
from replies.tokens import reply_address

pytestmark = pytest.mark.django_db

MAX_DECISIONS = 4000
# The kinds each game must have shown by email, so a playout that stops reaching them fails.
MUST_SEE = {
    "nieuwstad": [("accept", "decline"), ("forest",), ("choose",), ("pass", "propose")],
    "blankenburg": [("bid",)],
    "new-england": [("chip",)],
}


def players_of(game) -> int:
    return min(max(game.min_players, 3), game.max_players)


def the_turn_email(seat: int, address: str):
    """The newest email that asks this seat for this position (sending what is due)."""
    outbox.send_due()
    sent = [m for m in mail.outbox if m.reply_to and m.reply_to[0] == address]
    assert sent, f"no email for seat {seat} answers at {address}"
    return sent[-1]


def example_of(body: str) -> str:
    return re.search(r'for example "([^"]+)"', body).group(1)


def reply(message, text: str, sender: str) -> bytes:
    """A Thunderbird-style reply: the move above the quoted turn email."""
    original = email.message_from_bytes(message.message().as_bytes(), policy=default_policy)
    quoted = "\n".join(f"> {line}" for line in message.body.splitlines())
    answer = email.message.EmailMessage()
    answer["From"] = sender
    answer["To"] = message.reply_to[0]
    answer["Subject"] = "Re: " + message.subject
    answer["Message-ID"] = email.utils.make_msgid(domain="client.example")
    answer["In-Reply-To"] = original["Message-ID"]
    answer.set_content(f"{text}\n\nOn 3 Dec 2026, Postal Boards wrote:\n{quoted}\n")
    return answer.as_bytes()


def a_counter_offer(game, state, seat) -> str | None:
    """A counter-offer to the proposal on the table, typed as the email words it
    ("counter: NAME pays 2 g and 1 wood for 2 points, ..."): the terms with one guilder,
    wood or point moved from one builder to another, the first such that the rules allow."""
    from games.rules.nieuwstad import text as T

    pending = state.get("pending") or {}
    if pending.get("kind") != "proposal" or seat in pending.get("countered", [seat]):
        return None
    seats = [int(s) for s in pending["split"]]
    for field in ("points", "guilders", "wood"):
        for giver in seats:
            for taker in seats:
                split = {s: dict(pending["split"][str(s)]) for s in seats}
                split[giver][field] -= 1
                split[taker][field] += 1
                if giver == taker or split[giver][field] < 0:
                    continue
                move = {"type": "counter", "cells": pending["cells"], "facing": pending["facing"]}
                move.update(
                    {"seats": seats, **{k: [split[s][k] for s in seats] for k in split[seats[0]]}}
                )
                try:
                    game.apply(state, seat, move, None)
                except Exception:
                    continue
                return "counter: " + T.shares_text(state, move)
    return None


def one_word(game, state, seat) -> tuple[str, dict] | None:
    """A one-word answer the question admits, with the move it means."""
    for word in ("yes", "no"):
        try:
            return word, commands.short_answer(game, state, seat, word)
        except ParseError:
            continue
    return None


@pytest.mark.parametrize("slug", [g.slug for g in available_games()])
def test_every_kind_of_decision_by_the_emails_own_words(slug):
    game = next(g for g in available_games() if g.slug == slug)
    users = [
        User.objects.create_user(f"p{n}", f"p{n}@example.com", "pw", first_name=f"P{n}")
        for n in range(players_of(game))
    ]
    match = services.create_match(
        creator=users[0],
        game_slug=slug,
        players=len(users),
        invite_emails=[u.email for u in users[1:]],
        # A fixed seed: the kinds in MUST_SEE depend on the deal, and a random one can miss one.
        seed=f"every-decision-{slug}",
    )
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    match.refresh_from_db()
    rng = random.Random(11)
    by_example: dict[tuple, str] = {}
    by_word: dict[tuple, str] = {}
    played_types: set[str] = set()
    countered: list[str] = []
    for _ in range(MAX_DECISIONS):
        if match.status != "active":
            break
        state = load_state(match)
        seat = seats_to_ask(game, state)[0]
        row = match.seats.select_related("user").get(number=seat)
        legal = game.legal_moves(state, seat)
        kind = tuple(sorted({m["type"] for m in legal}))
        word = one_word(game, state, seat) if kind not in by_word else None
        counter = a_counter_offer(game, state, seat) if not countered else None
        if counter and kind in by_example:
            address = reply_address(match.pk, seat, row.deadline_seq)
            turn = the_turn_email(seat, address)
            assert "counter" in turn.body
            handled = inbound.receive_raw(reply(turn, counter, row.user.email))
            assert handled.outcome.startswith(f"{counter[:80]}: Applied"), handled.outcome
            assert (
                match.moves.filter(source="email").order_by("-seq").first().payload["type"]
                == "counter"
            )
            countered.append(counter)
        elif kind not in by_example or word:
            address = reply_address(match.pk, seat, row.deadline_seq)
            turn = the_turn_email(seat, address)
            text = example_of(turn.body) if kind not in by_example else word[0]
            handled = inbound.receive_raw(reply(turn, text, row.user.email))
            assert handled.status == InboundStatus.DONE, handled.outcome
            assert handled.outcome.startswith(f"{text}: Applied"), (kind, handled.outcome)
            if kind in by_example:
                assert (
                    match.moves.filter(source="email").order_by("-seq").first().payload == word[1]
                )
                by_word[kind] = text
            else:
                by_example[kind] = text
        else:
            fresh = [m for m in legal if m["type"] not in played_types]
            move = rng.choice(fresh) if fresh else game.bot_move(state, seat, rng)
            result = services.submit_move(
                match_id=match.pk, seat=seat, move=move, source="bot", seen_seq=match.head_seq
            )
            assert result.ok, result.message
            played_types.add(move["type"])
        match.refresh_from_db()
    print(f"{slug}: by example {by_example}; by one word {by_word}; countered {countered}")
    for kind in MUST_SEE.get(slug, []):
        assert kind in by_example, f"{kind} never came up: {sorted(by_example)}"
    if slug == "nieuwstad":
        assert countered and ("accept", "decline") in by_word
