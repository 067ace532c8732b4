"""An invited address gets an email with a way to its seat; the match starts when it joins."""

import pytest
from django.core import mail

from config.celery import app as celery_app
from games import services
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager():
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def test_invitees_with_and_without_accounts_get_one_email_each(
    eager, django_capture_on_commit_callbacks
):
    anna, bram = make_user("Anna"), make_user("Bram")
    with django_capture_on_commit_callbacks(execute=True):
        match = services.create_match(
            creator=anna,
            game_slug="sealed-cards",
            players=3,
            invite_emails=[bram.email, "Cor@Example.com"],
        )
    invites = [m for m in mail.outbox if "invites you" in m.subject]
    assert sorted(m.to[0] for m in invites) == ["bram@example.com", "cor@example.com"]
    for message in invites:
        assert message.subject == "Anna invites you to play Sealed Cards"
        assert f"/matches/{match.pk}/" in message.body
        assert "Hello ," not in message.body
    to_cor = next(m for m in invites if m.to == ["cor@example.com"])
    assert "/signup/?next=" in to_cor.body and "Sign up with this address" in to_cor.body
    to_bram = next(m for m in invites if m.to == ["bram@example.com"])
    assert f"/matches/{match.pk}/link/?sesame=" in to_bram.body  # opens this match only
    assert match.seed not in to_bram.body + to_cor.body


def test_no_invitation_for_a_match_without_invites(eager, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.create_match(
            creator=make_user("Anna"), game_slug="sealed-cards", players=2, bots=1
        )
    assert not [m for m in mail.outbox if "invites you" in m.subject]


def test_a_player_who_wants_no_email_gets_no_invitation(eager, django_capture_on_commit_callbacks):
    from players.models import NoticeMode, Preferences

    bram = make_user("Bram")
    Preferences.objects.create(user=bram, mode=NoticeMode.NONE)
    with django_capture_on_commit_callbacks(execute=True):
        services.create_match(
            creator=make_user("Anna"),
            game_slug="sealed-cards",
            players=2,
            invite_emails=[bram.email],
        )
    assert not [m for m in mail.outbox if "invites you" in m.subject]
