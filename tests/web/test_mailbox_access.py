"""The local mailbox holds everyone's sign-in links: in DEBUG it is shown to staff, or to
visitors from this machine when `serve` listens on loopback only; never in production."""

import pytest
from django.core.mail import send_mail
from django.test import Client
from django.urls import reverse

from games.management.commands.serve import _loopback_only
from notifications.mailbox import list_mail
from tests.web.conftest import logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def a_mail(settings, tmp_path):
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "notifications.mailbox.LocalMailboxBackend"
    settings.LOCAL_MAILBOX_DIR = tmp_path
    send_mail("Your login link", "https://x/login/link/?sesame=secret", None, ["a@example.com"])
    return list_mail()[0].name


def pages(name: str) -> list[str]:
    return [
        reverse("replies:mailbox"),
        reverse("replies:mailbox_message", args=[name]),
    ]


def test_anonymous_visitors_and_players_do_not_see_it(a_mail, anna, settings):
    settings.LOCAL_MAILBOX_OPEN = False
    for client in (Client(), logged_in(anna)):
        for url in pages(a_mail):
            assert client.get(url).status_code == 404


def test_staff_see_it_in_debug(a_mail, staff, settings):
    settings.LOCAL_MAILBOX_OPEN = False
    for url in pages(a_mail):
        assert logged_in(staff).get(url).status_code == 200
    settings.DEBUG = False
    assert logged_in(staff).get(pages(a_mail)[0]).status_code == 404


def test_a_loopback_server_shows_it_to_visitors_from_this_machine_only(a_mail, settings):
    settings.LOCAL_MAILBOX_OPEN = True
    for url in pages(a_mail):
        assert Client(REMOTE_ADDR="127.0.0.1").get(url).status_code == 200
        assert Client(REMOTE_ADDR="192.0.2.7").get(url).status_code == 404


def test_serve_opens_it_only_on_a_loopback_address():
    assert _loopback_only("127.0.0.1") and _loopback_only("[::1]") and _loopback_only("localhost")
    assert not _loopback_only("0.0.0.0") and not _loopback_only("192.0.2.7")
