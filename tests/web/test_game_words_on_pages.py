"""The game's words on the match page and in the lobby in the player's language (issue 31):
the prompt and the reference tables for a player who chose Dutch, and one who chose German;
the prompt stays stored in English."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services
from players.models import Preferences

pytestmark = pytest.mark.django_db


def test_a_dutch_player_reads_the_prompt_and_the_tables_in_dutch():
    anna, ben = (
        User.objects.create_user(n, f"{n}@example.com", "pw", first_name=n.title())
        for n in ("anna", "ben")
    )
    Preferences.objects.update_or_create(user=anna, defaults={"language": "nl"})
    Preferences.objects.update_or_create(user=ben, defaults={"language": "de"})
    match = services.create_match(
        creator=anna, game_slug="nieuwstad", players=2, invite_emails=[ben.email], seed="pages-nl"
    )
    services.join_match(match_id=match.pk, user=ben)
    match.refresh_from_db()
    assert match.prompt == "take a forest tile"  # stored in English, said in the reader's
    browser = Client()
    browser.force_login(anna)
    page = browser.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "een bostegel nemen" in page and "take a forest tile" not in page
    assert "Verkoop bij de kramen" in page and "Sales at the stalls" not in page
    assert "Tafelpraat" in page and "Table talk" not in page  # the match's chat
    german = Client()
    german.force_login(ben)  # to move first in this deal
    page = german.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "ein Waldplättchen nehmen" in page and "take a forest tile" not in page
    assert "Verkauf an den Ständen" in page
    assert "2 Tage 23 Stunden" in page  # the time left (days per move: 3)
    assert "ein Waldplättchen nehmen" in german.get(reverse("lobby")).content.decode()


def test_the_history_is_told_in_the_readers_language():
    """The platform's words around the game's lines: a resignation and the reader's own name
    marked, for a Dutch and a German reader; the stored log stays as it was."""
    from django.utils import translation

    from games import selectors

    anna, ben, cleo = (
        User.objects.create_user(n, f"{n}@example.com", "pw") for n in ("anna", "ben", "cleo")
    )
    match = services.create_match(
        creator=anna,
        game_slug="new-england",
        players=3,
        invite_emails=[ben.email, cleo.email],
        seed="history-nl",
    )
    services.join_match(match_id=match.pk, user=ben)
    services.join_match(match_id=match.pk, user=cleo)
    assert services.resign(match_id=match.pk, player=cleo, source="web").ok
    seat = match.seats.get(user=cleo).number
    with translation.override("nl"):
        dutch = [e["text"] for e in selectors.history(match, viewer=seat)]
    with translation.override("de"):
        german = [e["text"] for e in selectors.history(match, viewer=seat)]
    english = [e["text"] for e in selectors.history(match, viewer=seat)]
    resigned = english.index("cleo (you) resigned.")  # a bot plays the seat on
    assert dutch[resigned] == "cleo (jij) gaf op."
    assert german[resigned] == "cleo (du) hat aufgegeben."


def test_a_refusal_the_rules_give_as_a_text_is_said_in_the_readers_language():
    from django.utils import translation

    from games.engine.words import Text

    refusal = services.MoveResult(services.Outcome.ILLEGAL, Text("That command could not be read."))
    with translation.override("de"):
        assert refusal.headline() == (
            "Nicht ausgeführt: Dieser Befehl konnte nicht gelesen werden."
        )
    assert refusal.headline() == "Not applied: That command could not be read."


def new_england_in(language: str, names: tuple[str, ...], seed: str):
    """A started match of New England among players who chose `language`."""
    users = [User.objects.create_user(n, f"{n}@example.com", "pw") for n in names]
    for user in users:
        Preferences.objects.update_or_create(user=user, defaults={"language": language})
    match = services.create_match(
        creator=users[0],
        game_slug="new-england",
        players=len(users),
        invite_emails=[u.email for u in users[1:]],
        seed=seed,
    )
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match


def test_a_new_england_board_its_text_board_and_history_in_german():
    match = new_england_in("de", ("dora", "emil", "fritz"), seed="ne-de")
    seat = match.seats.get(number=match.to_act[0])
    played = services.submit_move(
        match_id=match.pk, player=seat.user, command="3 Karten", source="web"
    )
    assert played.ok, played.message
    seat = match.seats.get(number=match.to_act[0])
    browser = Client()
    browser.force_login(seat.user)
    page = browser.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "Familien" in page and "Families</h3>" not in page  # the board's own words
    assert "Runde 1" in page and "Phase 2:" in page  # the status line, a Text of the view
    assert "NEUENGLAND - Runde 1" in page  # the text board
    assert "Bidding chips:" not in page and "Gebotschips:" in page
    assert "wählte 3 Erschließungskarten für die Auslage" in page  # the history


def test_a_prompt_with_numbers_is_said_in_the_readers_language_in_the_lobby():
    """The stored prompt keeps its message and parameters (Match.prompt_words), so the
    lobby and the banners say "nog tot 2 stukken kopen voor 3 shilling" to a Dutch player."""
    import random

    from games import selectors

    match = new_england_in("nl", ("gijs", "hans", "ida"), seed="ne-prompt")
    rng = random.Random(1)
    while not match.prompt_words.get("params"):  # to the buying, whose prompt has a price
        seat = match.seats.get(number=match.to_act[0])
        move = match.game.bot_move(selectors.load_state(match), seat.number, rng)
        assert services.submit_move(match_id=match.pk, seat=seat.number, move=move, source="web").ok
        match.refresh_from_db()
    assert match.prompt.startswith("buy up to")  # the English, as the API and feeds read it
    browser = Client()
    browser.force_login(match.seats.get(number=match.to_act[0]).user)
    lobby = browser.get(reverse("lobby")).content.decode()
    assert "stukken kopen voor" in lobby and "buy up to" not in lobby
    page = browser.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "buy up to" not in page


def test_the_players_panel_names_the_goods_in_the_readers_language():
    from django.utils import translation

    from games.pages import panel_rows
    from games.selectors import load_state

    anna = User.objects.create_user("anna", "anna@example.com", "pw")
    ben = User.objects.create_user("ben", "ben@example.com", "pw")
    match = services.create_match(
        creator=anna, game_slug="blankenburg", players=2, invite_emails=[ben.email], seed="goods"
    )
    services.join_match(match_id=match.pk, user=ben)

    game, seats = match.game, list(match.seats.order_by("number"))
    view = game.view(load_state(match), 0)
    with translation.override("de"):
        stats = dict(panel_rows(view, seats, game)[0].stats)
    assert stats["Waren"] == "1 Holz, 1 Stein", stats  # the start's wood and stone
    assert stats["Silber"] == "12" and "Pläne auf der Hand" in stats, stats


def test_the_buildings_names_on_the_nieuwstad_board_are_in_the_readers_language():
    """Each building's name in its box, said in the reader's language and broken into lines
    that fit the box ('Säge-' 'werk'), as the English is ('Fish-' 'monger')."""
    import re

    from django.template.loader import get_template
    from django.utils import translation

    from games.engine import get_game, playout

    game = get_game("nieuwstad")
    view = game.view(playout.play(game, 3, seed="cap").final, 0)
    template = get_template("games/nieuwstad/board.html")
    caption = re.compile(r'<text x="\d+" y="\d+" font-size="12" fill="#000"[^>]*>([^<]*)</text>')
    english = caption.findall(template.render({"view": view, "seat": 0}))
    with translation.override("de"):
        german = caption.findall(template.render({"view": view, "seat": 0}))
    assert "Church" in english and "Fish-" in english and "monger" in english
    assert "Kirche" in german and "Church" not in german
    assert "Säge-" in german and "werk" in german
