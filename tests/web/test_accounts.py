"""Sign up and log in with email and password, or with a link sent by email."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from sesame.utils import get_query_string

from tests.web.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_signup_stores_the_email_as_username_and_logs_in(client):
    response = client.post(
        reverse("signup"),
        {"email": " Dora@Example.com ", "password": PASSWORD, "password_again": PASSWORD},
    )
    assert response.status_code == 302
    user = User.objects.get()
    assert user.username == user.email == "dora@example.com"
    assert client.get(reverse("lobby")).status_code == 200


def test_signup_refuses_a_taken_email_and_differing_passwords(client, anna):
    response = client.post(
        reverse("signup"),
        {"email": anna.email, "password": PASSWORD, "password_again": PASSWORD},
    )
    assert "already an account" in response.content.decode()
    response = client.post(
        reverse("signup"),
        {"email": "new@example.com", "password": PASSWORD, "password_again": "other one"},
    )
    assert "The two passwords differ." in response.content.decode()
    assert User.objects.count() == 1


def test_login_with_email_and_password(client, anna):
    response = client.post(reverse("login"), {"username": "ANNA@example.com", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")


def test_a_wrong_password_is_refused(client, anna):
    response = client.post(reverse("login"), {"username": anna.email, "password": "wrong"})
    assert response.status_code == 200
    assert "enter a correct" in response.content.decode()
    assert client.get(reverse("lobby")).status_code == 302


def test_a_magic_link_is_sent_and_logs_in_only_on_post(client, anna):
    response = client.post(reverse("magic_request"), {"email": anna.email, "next": "/lobby/"})
    assert "Check your mail" in response.content.decode()
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+", mail.outbox[0].body).group(0)
    path = link.split("://", 1)[1].split("/", 1)[1]
    page = client.get("/" + path)
    assert page.status_code == 200
    assert "Log me in" in page.content.decode()
    assert client.get(reverse("lobby")).status_code == 302  # the GET did not log in
    token = page.context["sesame"]
    response = client.post(reverse("magic_login"), {"sesame": token, "next": "/lobby/"})
    assert response.status_code == 302
    assert response["Location"] == "/lobby/"
    assert client.get(reverse("lobby")).status_code == 200


def test_a_magic_link_for_a_new_address_creates_the_account(client):
    client.post(reverse("magic_request"), {"email": "New@Example.com"})
    user = User.objects.get()
    assert user.username == "new@example.com"
    assert not user.has_usable_password()
    assert len(mail.outbox) == 1


def test_a_bad_magic_link_is_refused_without_logging_in(client):
    response = client.get(reverse("magic_login") + "?sesame=not-a-token")
    assert response.status_code == 400
    response = client.post(reverse("magic_login"), {"sesame": "not-a-token"})
    assert response.status_code == 400
    assert client.get(reverse("lobby")).status_code == 302


def test_a_magic_link_does_not_redirect_off_site(client):
    user = make_user("eve@example.com")
    token = get_query_string(user).split("=", 1)[1]
    response = client.post(
        reverse("magic_login"), {"sesame": token, "next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("lobby")


def test_login_links_to_one_address_are_limited_per_hour(client, anna):
    from django.core import mail
    from django.core.cache import cache

    cache.clear()
    for _ in range(5):
        response = client.post(reverse("magic_request"), {"email": anna.email})
        assert response.status_code == 200
    assert len([m for m in mail.outbox if anna.email in m.to]) == 3
    cache.clear()


def test_a_mail_server_that_is_down_gives_the_same_answer_not_a_500(client, anna, settings):
    from django.core.cache import cache

    cache.clear()
    settings.EMAIL_BACKEND = "tests.web.test_accounts.BrokenBackend"
    response = client.post(reverse("magic_request"), {"email": anna.email})
    assert response.status_code == 200
    cache.clear()


class BrokenBackend:
    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("smtp down")
