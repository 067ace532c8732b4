"""Sign up, confirm the address, log in with a password or a mailed link; the answers never
tell whether an address has an account, and an unconfirmed account cannot take an address
from its owner."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from sesame.utils import get_query_string

from games import services
from players.models import UnverifiedAddress
from players.views import MAILS_PER_CLIENT
from tests.web.conftest import PASSWORD, logged_in, make_user

pytestmark = pytest.mark.django_db
User = get_user_model()


def sign_up(client, email: str, password: str = PASSWORD, name: str = "Dora"):
    return client.post(
        reverse("signup"),
        {"email": email, "display_name": name, "password": password, "password_again": password},
    )


def page_text(response, email: str) -> str:
    """The page with the address and the per-request CSRF tokens (htmx's header, the language
    switcher's form) blanked out."""
    text = response.content.decode().replace(email, "ADDRESS")
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
    return re.sub(r'"X-CSRFToken": "[^"]+"', "", text)


def follow(client: Client, message, button_url: str):
    """Open the link in `message` and press the page's one button."""
    link = re.search(r"https?://\S+", message.body).group(0)
    path = "/" + link.split("://", 1)[1].split("/", 1)[1]
    page = client.get(path)
    assert page.status_code == 200
    return client.post(button_url, {"sesame": page.context["sesame"], "next": "/lobby/"})


def password_login(client, email: str, password: str = PASSWORD):
    return client.post(reverse("login"), {"username": email, "password": password})


def test_signup_mails_a_confirmation_and_the_password_works_only_after_it(client):
    response = sign_up(client, " Dora@Example.com ")
    assert response.status_code == 200
    assert "Check your mail" in response.content.decode()
    user = User.objects.get()
    assert user.username == user.email == "dora@example.com"
    assert user.first_name == "Dora"
    assert client.get(reverse("lobby")).status_code == 302  # not logged in yet
    refused = password_login(client, "dora@example.com")
    assert "Confirm your address first" in refused.content.decode()

    [confirmation] = mail.outbox
    assert confirmation.to == ["dora@example.com"]
    response = follow(client, confirmation, reverse("signup_confirm"))
    assert response["Location"] == "/lobby/"
    assert client.get(reverse("lobby")).status_code == 200
    assert not UnverifiedAddress.objects.exists()
    assert password_login(Client(), "dora@example.com").status_code == 302


def test_signup_for_a_registered_address_answers_the_same_and_changes_nothing(client, anna):
    new = page_text(sign_up(client, "new@example.com"), "new@example.com")
    taken = page_text(sign_up(client, anna.email, password="another long pass"), anna.email)
    assert new == taken
    anna.refresh_from_db()
    assert anna.check_password(PASSWORD)
    to_anna = [m for m in mail.outbox if m.to == [anna.email]]
    assert len(to_anna) == 1 and "already" in to_anna[0].subject
    assert User.objects.filter(username=anna.email).count() == 1


def test_a_sign_in_link_answers_the_same_for_known_and_unknown_addresses(client, anna):
    known = client.post(reverse("magic_request"), {"email": anna.email})
    unknown = client.post(reverse("magic_request"), {"email": "x@example.com"})
    assert page_text(known, anna.email) == page_text(unknown, "x@example.com")
    assert list(User.objects.all()) == [anna]


def test_weak_passwords_are_refused(client):
    for weak in ("a", "password", "12345678901", "dora@example.com"):
        response = sign_up(client, "dora@example.com", password=weak)
        assert response.context["form"].errors["password"], weak
    assert not User.objects.exists()
    assert not mail.outbox


def test_signup_and_magic_request_tell_nobody_if_the_mail_server_is_down(client, settings):
    settings.EMAIL_BACKEND = "tests.web.test_accounts.BrokenBackend"
    assert sign_up(client, "dora@example.com").status_code == 200
    assert client.post(reverse("magic_request"), {"email": "dora@example.com"}).status_code == 200


def test_someone_elses_signup_cannot_keep_the_address_from_its_owner(client):
    """Eve signs up with Vera's address. Eve cannot log in; Vera asks for a sign-in link
    (not Eve's confirmation): Eve's password is dropped and Vera owns the account."""
    eve = Client()
    sign_up(eve, "vera@example.com", password="eves own passphrase")
    assert (
        "Confirm your address first"
        in password_login(eve, "vera@example.com", "eves own passphrase").content.decode()
    )

    vera = Client()
    vera.post(reverse("magic_request"), {"email": "vera@example.com"})
    follow(vera, mail.outbox[-1], reverse("magic_login"))
    assert vera.get(reverse("lobby")).status_code == 200
    user = User.objects.get(username="vera@example.com")
    assert not user.has_usable_password()
    assert password_login(Client(), "vera@example.com", "eves own passphrase").status_code == 200
    # Eve's confirmation link, mailed to Vera, no longer works either.
    eve_link = mail.outbox[0]
    assert "Confirm" in eve_link.subject
    path = "/" + re.search(r"https?://\S+", eve_link.body).group(0).split("/", 3)[3]
    assert Client().get(path).status_code == 400


def test_a_confirmation_link_cannot_be_used_to_log_in_and_back(client):
    sign_up(client, "dora@example.com")
    token = re.search(r"sesame=([^&\s]+)", mail.outbox[0].body).group(1)
    assert client.post(reverse("magic_login"), {"sesame": token}).status_code == 400
    user = User.objects.get()
    plain = get_query_string(user).split("=", 1)[1]
    assert client.post(reverse("signup_confirm"), {"sesame": plain}).status_code == 400


def test_a_reserved_seat_goes_only_to_the_verified_owner_of_its_address(anna):
    match = services.create_match(
        creator=anna, game_slug="sealed-cards", players=2, invite_emails=["vera@example.com"]
    )
    sign_up(Client(), "vera@example.com")  # Eve, not Vera: unconfirmed
    impostor = User.objects.get(username="vera@example.com")
    with pytest.raises(services.ServiceError, match="no open seat"):
        services.join_match(match_id=match.pk, user=impostor)
    vera = Client()
    vera.post(reverse("magic_request"), {"email": "vera@example.com"})
    follow(vera, mail.outbox[-1], reverse("magic_login"))
    response = vera.post(reverse("match_join", args=[match.pk]))
    assert response.status_code == 302
    assert match.seats.get(invited_email="vera@example.com").user == impostor  # now verified


def test_login_with_email_and_password(client, anna):
    response = password_login(client, "ANNA@example.com")
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")


def test_a_wrong_password_is_refused(client, anna):
    response = password_login(client, anna.email, "wrong")
    assert response.status_code == 200
    assert "enter a correct" in response.content.decode()
    assert client.get(reverse("lobby")).status_code == 302


def test_wrong_passwords_lock_the_address_then_even_the_right_one_waits(client, anna, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        password_login(Client(REMOTE_ADDR="10.0.0.1"), anna.email, "guess")
    # Another client, the right password: the address is locked for the cool-off time.
    locked = password_login(Client(REMOTE_ADDR="10.0.0.2"), anna.email)
    assert locked.status_code == 429
    assert "Too many attempts" in locked.content.decode()
    # A sign-in link still works for the owner.
    client.post(reverse("magic_request"), {"email": anna.email})
    follow(client, mail.outbox[-1], reverse("magic_login"))
    assert client.get(reverse("lobby")).status_code == 200


def test_one_client_guessing_many_addresses_is_locked(client, anna, settings):
    for n in range(settings.AXES_FAILURE_LIMIT):
        password_login(client, f"someone{n}@example.com", "guess")
    assert password_login(client, anna.email).status_code == 429


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


def test_a_sign_in_link_for_an_unknown_address_makes_no_account_and_points_to_sign_up(client):
    client.post(reverse("magic_request"), {"email": "New@Example.com", "next": "/lobby/"})
    assert not User.objects.exists()
    [note] = mail.outbox
    assert note.to == ["new@example.com"] and "No account" in note.subject
    assert "sesame" not in note.body  # nothing in it signs anyone in
    link = re.search(r"https?://\S+", note.body).group(0)
    path = "/" + link.split("://", 1)[1].split("/", 1)[1]
    assert path == reverse("signup") + "?next=%2Flobby%2F"
    page = client.get(path)
    assert page.status_code == 200 and page.context["next"] == "/lobby/"
    sign_up(client, "new@example.com")
    assert User.objects.get().username == "new@example.com"


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


def test_mail_to_one_address_is_limited_per_hour_whoever_asks(anna):
    for n in range(5):
        client = Client(REMOTE_ADDR=f"10.0.1.{n}")
        assert client.post(reverse("magic_request"), {"email": anna.email}).status_code == 200
        assert sign_up(client, anna.email).status_code == 200
    assert len([m for m in mail.outbox if anna.email in m.to]) == 3


def test_one_client_cannot_make_accounts_and_mail_by_the_hundred(client):
    """The sign-up and sign-in link forms count one client's mails together."""
    for n in range(30):
        sign_up(client, f"victim{n}@example.com")
        client.post(reverse("magic_request"), {"email": f"other{n}@example.com"})
    assert len(mail.outbox) == MAILS_PER_CLIENT
    assert User.objects.count() == MAILS_PER_CLIENT // 2  # only the sign-ups made accounts


def test_sign_in_links_to_twenty_addresses_from_one_client_send_at_most_the_limit(anna):
    """Issue 32: one client had 20 sign-in mails an hour sent to 20 addresses, each making an
    account. Now MAILS_PER_CLIENT in all, and none makes an account."""
    client = Client(REMOTE_ADDR="10.0.2.1")
    addresses = [anna.email] + [f"stranger{n}@example.com" for n in range(19)]
    for address in addresses:
        assert client.post(reverse("magic_request"), {"email": address}).status_code == 200
    assert len(mail.outbox) == MAILS_PER_CLIENT == 10
    assert list(User.objects.all()) == [anna]
    # Another client may still ask for Anna's link: the address has its own count.
    Client(REMOTE_ADDR="10.0.2.2").post(reverse("magic_request"), {"email": anna.email})
    assert mail.outbox[-1].to == [anna.email] and "login link" in mail.outbox[-1].subject
    assert "works once, within an hour" in mail.outbox[-1].body


def test_changing_the_password_ends_other_sessions_and_voids_mailed_links(anna):
    here, there = logged_in(anna), logged_in(anna)
    old_link = get_query_string(anna).split("=", 1)[1]
    response = here.post(
        reverse("account"),
        {
            "old_password": PASSWORD,
            "new_password1": "a brand new passphrase",
            "new_password2": "a brand new passphrase",
        },
    )
    assert response.status_code == 302
    assert here.get(reverse("lobby")).status_code == 200
    assert there.get(reverse("lobby")).status_code == 302
    assert Client().post(reverse("magic_login"), {"sesame": old_link}).status_code == 400
    weak = here.post(
        reverse("account"),
        {"old_password": "a brand new passphrase", "new_password1": "a", "new_password2": "a"},
    )
    assert weak.status_code == 200 and weak.context["form"].errors


def test_sign_out_everywhere_keeps_the_password_and_this_session_only(anna):
    here, there = logged_in(anna), logged_in(anna)
    old_link = get_query_string(anna).split("=", 1)[1]
    wrong = here.post(reverse("sign_out_everywhere"), {"password": "wrong"})
    assert wrong.status_code == 302 and there.get(reverse("lobby")).status_code == 200
    here.post(reverse("sign_out_everywhere"), {"password": PASSWORD})
    assert here.get(reverse("lobby")).status_code == 200
    assert there.get(reverse("lobby")).status_code == 302
    assert Client().post(reverse("magic_login"), {"sesame": old_link}).status_code == 400
    assert password_login(Client(), anna.email).status_code == 302


def test_a_sign_in_link_from_the_login_form_works_once_and_for_an_hour(client, anna, time_machine):
    client.post(reverse("magic_request"), {"email": anna.email})
    assert follow(client, mail.outbox[0], reverse("magic_login")).status_code == 302
    again = Client().get(
        "/" + re.search(r"https?://\S+", mail.outbox[0].body).group(0).split("/", 3)[3]
    )
    assert again.status_code == 400  # spent
    time_machine.move_to(timezone.now() + timedelta(seconds=2))
    later = Client()
    later.post(reverse("magic_request"), {"email": anna.email})
    time_machine.move_to(timezone.now() + timedelta(minutes=61))
    link = re.search(r"https?://\S+", mail.outbox[1].body).group(0).split("/", 3)[3]
    assert later.get("/" + link).status_code == 400  # too old


def test_sign_out_everywhere_revokes_every_api_token(anna):
    from api.tokens import make_token

    _token, key = make_token(user=anna, name="script", scope="play")
    api = Client(headers={"Authorization": f"Bearer {key}"})
    assert api.get("/api/v1/me").status_code == 200
    here = logged_in(anna)
    page = here.post(reverse("sign_out_everywhere"), {"password": PASSWORD}, follow=True)
    assert "every API token is revoked" in page.content.decode()
    assert api.get("/api/v1/me").status_code == 401


def test_sign_out_everywhere_without_a_password(client):
    # An account without a password: its owner took the address back from an impostor's
    # sign-up, which dropped the password, and signs in by links.
    nopass = make_user("nopass@example.com")
    nopass.set_unusable_password()
    nopass.save(update_fields=["password"])
    client.post(reverse("magic_request"), {"email": "nopass@example.com"})
    follow(client, mail.outbox[0], reverse("magic_login"))
    other = Client()  # a second session of the same account, elsewhere
    other.force_login(nopass)
    client.post(reverse("sign_out_everywhere"))
    assert client.get(reverse("lobby")).status_code == 200
    assert other.get(reverse("lobby")).status_code == 302


def test_the_account_page_needs_a_real_sign_in(client, anna):
    from players.decorators import LIMITED_SESSION

    assert client.get(reverse("account")).status_code == 302
    player = logged_in(anna)
    assert player.get(reverse("account")).status_code == 200
    session = player.session
    session[LIMITED_SESSION] = True
    session.save()
    response = player.get(reverse("account"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert player.post(reverse("sign_out_everywhere")).status_code == 302


class BrokenBackend:
    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("smtp down")
