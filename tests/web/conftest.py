"""A small world for the web tests: three people and matches of the test game."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import selectors, services
from games.models import Match

User = get_user_model()
PASSWORD = "correct horse battery"


def make_user(email: str, **extra):
    return User.objects.create_user(username=email, email=email, password=PASSWORD, **extra)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def view_only_staff():
    """Staff who may view every model in the admin and open no hidden state: they see a
    match in play as a spectator does (games.hidden_state)."""
    from django.contrib.auth.models import Permission

    viewer = make_user("viewer@example.com", is_staff=True)
    viewer.user_permissions.set(
        Permission.objects.filter(codename__startswith="view_").exclude(
            codename="view_hidden_state"
        )
    )
    return viewer


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def anna(db):
    return make_user("anna@example.com")


@pytest.fixture
def ben(db):
    return make_user("ben@example.com")


@pytest.fixture
def outsider(db):
    return make_user("carl@example.com")


@pytest.fixture
def staff(db):
    return make_user("ops@example.com", is_staff=True, is_superuser=True)


@pytest.fixture
def duel(anna, ben) -> Match:
    """Anna and Ben, both human, in play: both owe a card for the first trick."""
    match = services.create_match(
        creator=anna, game_slug="sealed-cards", players=2, invite_emails=[ben.email]
    )
    services.join_match(match_id=match.pk, user=ben)
    match.refresh_from_db()
    return match


@pytest.fixture
def watched_duel(duel) -> Match:
    """The duel, made watchable by its creator: anyone may follow its public view."""
    duel.watchable = True
    duel.save(update_fields=["watchable"])
    return duel


@pytest.fixture
def against_bot(anna) -> Match:
    match = services.create_match(creator=anna, game_slug="sealed-cards", players=2, bots=1)
    match.refresh_from_db()
    return match


def seat_of(match: Match, user) -> int:
    return match.seats.get(user=user).number


def hand_of(match: Match, user) -> list[int]:
    """The cards `user` holds now (the test reads the truth; no page shows raw state)."""
    match.refresh_from_db()
    return list(selectors.load_state(match)["hands"][seat_of(match, user)])


def secret_of(match: Match, user) -> str:
    match.refresh_from_db()
    state = selectors.load_state(match)
    return match.game.secrets(state)[seat_of(match, user)][0]
