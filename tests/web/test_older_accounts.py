"""Accounts made before addresses were verified (players migration 0002): they never proved
their address, so they are unverified. An impostor who registered someone's address back
then keeps neither the password nor the seats reserved for that address; the owner is asked
to follow a sign-in link, which confirms the address and drops the old password."""

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.core import mail
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client
from django.urls import reverse

from games import services
from players import accounts
from players.models import UnverifiedAddress
from tests.web.conftest import PASSWORD, make_user
from tests.web.test_accounts import follow, password_login

pytestmark = pytest.mark.django_db

migration = importlib.import_module("players.migrations.0002_unproven_older_accounts")


class Editor:
    connection = connection


def older(email: str, **extra):
    """An account that joined before verification was introduced."""
    user = make_user(email, **extra)
    introduced = MigrationRecorder.Migration.objects.get(
        app="players", name="0001_unverified_address"
    ).applied
    user.date_joined = introduced - timedelta(days=30)
    user.save(update_fields=["date_joined"])
    return user


def test_only_accounts_older_than_verification_are_marked():
    impostor = older("vera@example.com")
    operator = older("ops@example.com", is_staff=True)
    newer = make_user("new@example.com")  # joined since: proved it, or is marked already
    pending = older("pending@example.com")
    UnverifiedAddress.objects.create(user=pending)
    migration.mark_older_accounts_unverified(apps, Editor())
    assert not accounts.is_verified(impostor) and not accounts.is_verified(pending)
    assert accounts.is_verified(operator) and accounts.is_verified(newer)
    assert UnverifiedAddress.objects.count() == 2


def test_an_old_impostor_keeps_neither_the_seat_nor_the_password(anna):
    impostor = older("vera@example.com")
    migration.mark_older_accounts_unverified(apps, Editor())
    match = services.create_match(
        creator=anna, game_slug="sealed-cards", players=2, invite_emails=["vera@example.com"]
    )
    with pytest.raises(services.ServiceError, match="no open seat"):
        services.join_match(match_id=match.pk, user=impostor)
    refused = password_login(Client(), "vera@example.com")
    assert refused.status_code == 200 and "Confirm your address first" in refused.content.decode()
    vera = Client()  # the owner of the address asks for a link and follows it
    vera.post(reverse("magic_request"), {"email": "vera@example.com"})
    followed = follow(vera, mail.outbox[-1], reverse("magic_login"))
    assert followed.status_code == 302
    impostor.refresh_from_db()
    assert accounts.is_verified(impostor) and not impostor.has_usable_password()
    assert password_login(Client(), "vera@example.com", PASSWORD).status_code == 200  # refused
    assert "password set before it was confirmed was removed" in (
        vera.get(reverse("account")).content.decode()
    )
    assert vera.post(reverse("match_join", args=[match.pk])).status_code == 302
