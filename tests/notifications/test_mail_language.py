"""Every mail is in its recipient's language: the player's choice, else the site's default
(English); an invitation to an address with no account in the language of the page that
sent it; sign-in mails in the account's language, else the asking page's."""

import pytest
from django.core import mail
from django.utils import translation

from games import services
from players import accounts
from players.models import Preferences

from .conftest import headline, send_all, start_match, to

pytestmark = pytest.mark.django_db


def test_each_player_of_one_match_reads_their_own_language(anna, ben):
    Preferences.objects.create(user=anna, language="de")
    match = start_match(anna, ben)
    sent = send_all()
    to_anna, to_ben = to(sent, "anna@"), to(sent, "ben@")
    assert to_anna and to_ben
    for message in to_anna:
        html = message.alternatives[0][0]
        assert message.body.startswith(("Hallo Anna,", "Du bist dran", "Das Spiel beginnt"))
        assert "Hallo Anna," in message.body and "Hello" not in message.body
        assert '<html lang="de">' in html and "Was wir dir wann schicken" in html
    turn = next(m for m in to_anna if headline(m).startswith("Du bist dran"))
    assert "So antwortest du" in turn.body and "Die Stellung\n------------" in turn.body
    for message in to_ben:
        assert "Hello Ben," in message.body and "Hallo" not in message.body
        assert '<html lang="en">' in message.alternatives[0][0]
    assert f"#{match.pk}" in to_anna[0].subject  # the thread's subject names the match
    assert translation.get_language() == "en"  # nothing leaks into the sender's thread


def test_a_changed_language_applies_to_the_next_mail(anna, ben):
    prefs = Preferences.objects.create(user=ben, language="nl")
    start_match(anna, ben)
    first = to(send_all(), "ben@")
    assert all("Hallo Ben," in m.body for m in first)
    prefs.language = "fr"
    prefs.save()
    mail.outbox.clear()
    accounts.send_sign_in_link(user=ben)
    (link,) = mail.outbox
    assert link.subject == "Ton lien de connexion pour Postal Boards"
    assert link.body.startswith("Bonjour,")


def test_an_invitation_to_an_address_with_no_account_is_in_the_inviter_s_language(anna):
    with translation.override("nl"):
        services.create_match(
            creator=anna, game_slug="sealed-cards", players=2, invite_emails=["cor@example.org"]
        )
    (invitation,) = to(send_all(), "cor@example.org")
    assert invitation.subject == "Anna nodigt je uit om Sealed Cards te spelen"
    assert "Meld je aan met dit adres (cor@example.org)" in invitation.body


def test_sign_in_mails_follow_the_account_else_the_asking_page(anna):
    Preferences.objects.create(user=anna, language="de")
    accounts.send_sign_in_link(user=anna)
    with translation.override("fr"):
        accounts.mail_sign_in_link(email="nobody@example.org")
        accounts.send_sign_in_link(user=anna)  # the account's language wins over the page's
    german, french, german_again = mail.outbox
    assert german.subject == german_again.subject == "Dein Anmeldelink für Postal Boards"
    assert german.body.startswith("Hallo,")
    assert french.subject == "Aucun compte sur Postal Boards pour cette adresse"


def test_a_deadline_names_its_day_and_month_in_the_reader_s_language():
    from datetime import UTC, datetime

    from players.preferences import local_time

    prefs = Preferences(time_zone="Europe/Amsterdam")
    monday = datetime(2026, 12, 7, 15, 27, tzinfo=UTC)
    said = {}
    for language in ("en", "nl", "de", "fr"):
        with translation.override(language):
            said[language] = local_time(prefs, monday)
    assert said == {
        "en": "Mon 07 Dec 2026, 16:27 CET",
        "nl": "ma 7 dec. 2026, 16:27 CET",
        "de": "Mo., 7. Dez. 2026, 16:27 CET",
        "fr": "lun. 7 déc. 2026 à 16:27 CET",
    }
