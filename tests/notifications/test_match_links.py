"""Links in email are not keys to the account: the link in a match email signs in to that
match only, once, for a short while, on POST; account pages need a real sign-in."""

from datetime import timedelta
from urllib.parse import urlsplit

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from players import match_links as signin
from players.models import SignInLinkUse

from .conftest import headline, send_all, start_match, to

pytestmark = pytest.mark.django_db


def _link_in(message) -> str:
    line = next(line for line in message.body.splitlines() if "/link/?sesame=" in line)
    url = urlsplit(line.split()[-1])
    return f"{url.path}?{url.query}"


def _turn_link(match, user) -> str:
    sent = send_all()
    turn = next(m for m in to(sent, user.email) if headline(m).startswith("Your turn"))
    return _link_in(turn)


def _open(client: Client, link: str):
    """What a person does: open the link (GET), press the one button (POST)."""
    page = client.get(link)
    path, query = link.split("?")
    token = query.removeprefix("sesame=")
    return page, client.post(path, {"sesame": token})


def test_the_link_signs_in_to_its_match_on_post_only(match, anna):
    link = _turn_link(match, anna)
    assert link.startswith(f"/matches/{match.pk}/link/?sesame=")
    client = Client()
    page = client.get(link)  # a mail scanner opening the link signs nobody in
    assert page.status_code == 200 and b"Open the match" in page.content
    assert "_auth_user_id" not in client.session
    path, query = link.split("?")
    answer = client.post(path, {"sesame": query.removeprefix("sesame=")})
    assert answer.status_code == 302 and answer["Location"] == f"/matches/{match.pk}/"
    assert int(client.session["_auth_user_id"]) == anna.pk
    assert client.session[signin.SESSION_KIND] == signin.MATCH
    assert client.get(f"/matches/{match.pk}/").status_code == 200
    assert SignInLinkUse.objects.filter(user=anna, match=match).count() == 1


def test_the_link_works_once(match, anna):
    link = _turn_link(match, anna)
    _open(Client(), link)
    friend = Client()  # the email, forwarded
    page, answer = _open(friend, link)
    assert page.status_code == 400 and answer.status_code == 400
    assert b"does not work any more" in answer.content
    assert "_auth_user_id" not in friend.session


def test_the_link_expires(match, anna, settings):
    settings.MATCH_LINK_MAX_AGE = 3600
    link = _turn_link(match, anna)
    with time_machine.travel(timezone.now() + timedelta(hours=2)):
        page, answer = _open(Client(), link)
    assert answer.status_code == 400


def test_a_match_link_opens_its_match_and_nothing_else(anna, ben):
    first = start_match(anna, ben)
    other = start_match(anna, ben)
    link = _turn_link(first, anna)
    client = Client()
    _open(client, link)
    assert client.get(f"/matches/{first.pk}/").status_code == 200
    for page in ("/lobby/", "/n/preferences/", f"/matches/{other.pk}/", "/matches/new/"):
        answer = client.get(page)
        assert answer.status_code == 302 and answer["Location"].startswith("/login/"), page
    moved = client.post(f"/matches/{other.pk}/move/", {"command": "play 1", "seq": 0})
    assert moved.status_code == 302 and moved["Location"].startswith("/login/")
    assert not other.moves.exists()
    # The sign-in form is there for them (not bounced back as already signed in).
    assert client.get("/login/").status_code == 200


def test_a_link_for_one_match_does_not_open_another(anna, ben):
    first = start_match(anna, ben)
    other = start_match(anna, ben)
    token = _turn_link(first, anna).split("sesame=")[1]
    answer = Client().post(f"/matches/{other.pk}/link/", {"sesame": token})
    assert answer.status_code == 400
    # Nor is it a sign-in link for the account.
    assert Client().post("/login/link/", {"sesame": token}).status_code == 400


def test_account_pages_need_a_real_sign_in(match, anna):
    client = Client()
    _open(client, _turn_link(match, anna))
    assert client.get("/n/preferences/")["Location"].startswith("/login/?next=/n/preferences/")
    assert client.login(username="anna", password="pw")  # Django's login(), password backend
    assert client.session[signin.SESSION_KIND] == signin.PASSWORD
    assert client.get("/n/preferences/").status_code == 200
    assert client.get("/lobby/").status_code == 200


def test_the_kind_of_sign_in_is_recorded_and_read_by_the_account_decorator(rf, anna):
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.backends.db import SessionStore

    from players.decorators import real_sign_in_required

    @real_sign_in_required
    def account_page(request):
        return "shown"

    session = SessionStore()
    for kind, shown in ((signin.MATCH, False), (signin.PASSWORD, True), (signin.LINK, True)):
        request = rf.get("/account/")
        request.user, request.session = anna, session
        signin.record_signin(request, kind, 1 if kind == signin.MATCH else None)
        assert (account_page(request) == "shown") is shown, kind
    request = rf.get("/account/")
    request.user, request.session = AnonymousUser(), SessionStore()
    assert account_page(request).status_code == 302
