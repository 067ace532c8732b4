"""The game's own words in a turn email are in the recipient's language (issue 31): the
prompt and the menu of commands for a player who chose Dutch or German, English for one
who did not."""

import random

import pytest
from django.contrib.auth.models import User

from games import services
from games.engine import seats_to_ask
from games.selectors import load_state
from players.models import Preferences

from .conftest import send_all, start_match

pytestmark = pytest.mark.django_db

# Each player's words for the opening's two questions: (prompt, a command of its menu).
EXPECTED = {
    "anna@example.com": {
        "opening_forest": ("een bostegel nemen", "neem bos"),
        "opening_building": ("je startgebouw plaatsen", "bouw "),
    },
    "bernd@example.com": {
        "opening_forest": ("ein Waldplättchen nehmen", "nimm Wald"),
        "opening_building": ("dein Startgebäude legen", "baue "),
    },
    "cor@example.com": {
        "opening_forest": ("take a forest tile", "take forest"),
        "opening_building": ("place your starting building", "build "),
    },
}
ENGLISH = ("take a forest tile", "take forest", "place your starting building", "build ")


def test_the_prompt_and_the_menu_in_each_recipients_words():
    anna, bernd, cor = (
        User.objects.create_user(name, f"{name}@example.com", "pw", first_name=name.title())
        for name in ("anna", "bernd", "cor")
    )
    Preferences.objects.update_or_create(user=anna, defaults={"language": "nl"})
    Preferences.objects.update_or_create(user=bernd, defaults={"language": "de"})
    match = start_match(anna, bernd, cor, game_slug="nieuwstad", seed="game-words-in-mail")
    rng = random.Random(3)
    seen = set()
    for _ in range(8):
        state = load_state(match)
        if state["phase"] not in ("opening_forest", "opening_building"):
            break
        seat = seats_to_ask(match.game, state)[0]
        row = match.seats.select_related("user").get(number=seat)
        turns = [m for m in send_all() if m.reply_to and m.to == [row.user.email]]
        assert turns, f"no turn email for {row.user.email}"
        prompt, command = EXPECTED[row.user.email][state["phase"]]
        body = turns[-1].body
        assert prompt in body and command in body, body
        if row.user.email != "cor@example.com":
            assert not [e for e in ENGLISH if e in body], body
        seen.add((row.user.email, state["phase"]))
        move = match.game.bot_move(state, seat, rng)
        assert services.submit_move(match_id=match.pk, seat=seat, move=move, source="bot").ok
        match.refresh_from_db()
    assert {email for email, _phase in seen} == set(EXPECTED)
    assert {phase for _email, phase in seen} == {"opening_forest", "opening_building"}
