"""The admin in the operator's language: the names of our models and their fields (index,
changelists, filters, change forms and their inlines) are marked and translated, so a Dutch,
German or French operator reads none of them in English; the English admin reads as before.

The English names are collected from the models themselves (every model of our apps: its
names and its fields'), the apps' names, and the registered admins' columns and filter
titles. On a page, the words read as names are those of table headings, form labels, the
index's captions, headings, and the filters' titles."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.utils import label_for_field
from django.urls import reverse
from django.utils import timezone, translation

from games import services
from games.engine import event_rng
from games.models import ChatMessage
from games.selectors import load_state
from notifications.models import Kind, Notification
from players.models import Preferences, Vacation
from replies.models import InboundMessage
from tests.web.conftest import logged_in, make_user
from tournaments import services as tournaments
from tournaments.models import Entry, Table

pytestmark = pytest.mark.django_db

OUR_APPS = ("api", "community", "games", "notifications", "players", "replies", "tournaments")

# Names a language spells as English does (compared without case).
SAME_IN = {
    "nl": {
        "status",
        "rating",
        "ratings",
        "token",
        "chat",
        "deadline",
        "context",
        "seed",
        "url",
        "bot",
    },
    "de": {"name", "status", "text", "seed", "url", "bot", "division", "divisions"},
    "fr": {
        "options",
        "notification",
        "notifications",
        "source",
        "note",
        "place",
        "table",
        "tables",
        "action",
        "division",
        "divisions",
        "mode",
        "url",
        "bot",
    },
}
SAME_EVERYWHERE = {"mu", "sigma", "p256dh", "id"}


def fold(text) -> str:
    return " ".join(str(text).split()).rstrip(":").strip().casefold()


def english_names() -> dict[str, list]:
    """Each English name people read in our part of the admin -> the (lazy) texts it is."""
    names: dict[str, list] = {}

    def add(text) -> None:
        with translation.override("en"):
            names.setdefault(fold(text), []).append(text)

    for label in OUR_APPS:
        config = apps.get_app_config(label)
        add(config.verbose_name)
        for model in config.get_models():
            add(model._meta.verbose_name)
            add(model._meta.verbose_name_plural)
            for field in model._meta.get_fields():
                if field.concrete and not field.auto_created:
                    add(field.verbose_name)
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in OUR_APPS:
            continue
        for name in model_admin.list_display:
            add(label_for_field(name, model, model_admin))
        for item in model_admin.list_filter:
            if isinstance(item, type) and issubclass(item, admin.SimpleListFilter):
                add(item.title)
    return names


class Labels(HTMLParser):
    """The texts of headings, labels, captions and titles on an admin page."""

    NAMED = {"th", "label", "caption", "h1", "h2", "h3"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.found: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        if tag in self.NAMED:
            self.open.append(tag)
            self.text = []
        title = dict(attrs).get("data-filter-title")
        if title:
            self.found.add(fold(title))

    def handle_endtag(self, tag) -> None:
        if self.open and tag == self.open[-1]:
            self.open.pop()
            self.found.add(fold("".join(self.text)))
            self.text = []

    def handle_data(self, data) -> None:
        if self.open:
            self.text.append(data)


def labels(page: str) -> set[str]:
    reader = Labels()
    reader.feed(page)
    return reader.found - {""}


@pytest.fixture
def world():
    """A match in play with a move, chat and mail, a tournament under way, and the rows
    an operator opens: the admin pages to read, changelists and change forms."""
    anna, ben = make_user("anna@example.com"), make_user("ben@example.com")
    match = services.create_match(
        creator=anna, game_slug="sealed-cards", players=2, invite_emails=[ben.email]
    )
    services.join_match(match_id=match.pk, user=ben)
    match.refresh_from_db()
    seat = match.to_act[0]
    move = match.game.bot_move(load_state(match), seat, event_rng("admin-language", 0))
    assert services.submit_move(match_id=match.pk, seat=seat, move=move, source="bot").ok
    ChatMessage.objects.create(match=match, seat=0, author=anna, text="Good luck!")
    Vacation.objects.create(
        user=anna, first_day=timezone.localdate(), last_day=timezone.localdate()
    )
    inbound = InboundMessage.objects.create(
        message_id="<reply@example.com>", sender=ben.email, subject="Re: your turn", raw="pass"
    )
    notice = Notification.objects.create(
        kind=Kind.TURN,
        dedupe_key="turn:test",
        user=ben,
        address=ben.email,
        match=match,
        seat=1,
        send_after=timezone.now(),
    )
    cup = tournaments.create_tournament(
        organiser=anna,
        name="Spring cup",
        game_slug="sealed-cards",
        format="swiss",
        table_size=2,
        rounds=1,
        max_players=4,
    )
    for player in (anna, ben):
        tournaments.join(cup, player)
    assert tournaments.start(cup.pk, by="anna@example.com", reason="all here")
    pages = [reverse("admin:index")]
    for model, _model_admin in admin.site._registry.items():
        if model._meta.app_label in OUR_APPS:
            opts = model._meta
            pages.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
    for obj in (
        match,
        match.moves.last(),
        notice,
        inbound,
        cup,
        Entry.objects.filter(tournament=cup).first(),
        Table.objects.filter(round__tournament=cup).first(),
        Preferences.objects.get_or_create(user=anna)[0],
    ):
        opts = obj._meta
        pages.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk]))
    return pages


def operator(language: str):
    user = make_user(f"ops-{language}@example.com", is_staff=True, is_superuser=True)
    Preferences.objects.create(user=user, language=language)
    return logged_in(user)  # signing in puts the chosen language in the session


def read(client, url: str, language: str) -> set[str]:
    response = client.get(url)
    assert response.status_code == 200, url
    assert response["Content-Language"] == language, url
    return labels(response.content.decode())


def test_the_english_admin_names_models_and_fields_as_before(world):
    names = english_names()
    client = operator("en")
    seen = set()
    for url in world:
        seen |= read(client, url, "en") & set(names)
    # What Django derived from the class and field names, and the apps' own names.
    for expected in (
        "games",
        "tournaments",
        "matches",
        "moves",
        "notifications",
        "inbound messages",
        "entries",
        "seats",
        "created at",
        "game slug",
        "head seq",
        "time control",
        "invited email",
        "send after",
        "received at",
        "joined at",
        "current round",
        "game",
        "waiting on",
    ):
        assert expected in seen, expected
    assert len(seen) > 80


@pytest.mark.parametrize("language", ["nl", "de", "fr"])
def test_the_admin_names_models_and_fields_in_the_operator_s_language(world, language):
    names = english_names()
    english = set(names) - SAME_IN[language] - SAME_EVERYWHERE
    english_client, client = operator("en"), operator(language)
    for url in world:
        shown_in_english = read(english_client, url, "en") & set(names)
        shown = read(client, url, language)
        assert not shown & english, (url, sorted(shown & english))
        # Every name the English page shows is there, in the operator's language.
        with translation.override(language):
            for name in shown_in_english:
                said = {fold(text) for text in names[name]}
                assert said & shown, (url, name, said)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("nl", ["Zet, plaats 1", "voorkeuren van", "(Wacht op verzending)"]),
        ("de", ["Zug, Platz 1", "Einstellungen von", "(Wartet auf Versand)"]),
        ("fr", ["Coup, place 1", "préférences de", "(En attente d’envoi)"]),
    ],
)
def test_the_admin_names_each_row_in_the_operator_s_language(world, language, said):
    """A row's own name (its title, breadcrumb and changelist link: the model's __str__)."""
    client = operator(language)
    pages = "".join(
        client.get(url).content.decode()
        for url in world
        if "/move/" in url or "/preferences/" in url or "/notification/" in url
    )
    missing = [words for words in said if words not in pages]
    assert missing == []
    english = ["Move, seat", "preferences of", "(Waiting to be sent)", "(pending)"]
    assert [w for w in english if w in pages] == []
