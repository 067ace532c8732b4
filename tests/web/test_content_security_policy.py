"""Every page carries a Content-Security-Policy that allows only our own scripts and styles,
and the pages keep to it: no inline script, <style> or style="" (the browser tests check
the same thing in Chromium, which reports every violation)."""

import re

import pytest
from django.core.mail import EmailMultiAlternatives
from django.urls import reverse

from api.tokens import make_token
from games import services
from notifications import mailbox
from tests.web.conftest import logged_in

pytestmark = pytest.mark.django_db

INLINE = [
    re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I),
    re.compile(r"<style\b", re.I),
    re.compile(r"\sstyle=", re.I),
    re.compile(r"\son[a-z]+=", re.I),
    re.compile(r"javascript:", re.I),
]


def directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    parts = (part.strip().split() for part in header.split(";") if part.strip())
    return {part[0]: part[1:] for part in parts}


def assert_keeps_to_the_policy(response) -> None:
    assert response.status_code == 200, response.status_code
    policy = directives(response)
    assert policy["default-src"] == ["'self'"]
    assert "'unsafe-inline'" not in policy["script-src"]
    assert "'unsafe-eval'" not in policy["script-src"]
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    page = response.content.decode()
    for pattern in INLINE:
        found = pattern.search(page)
        assert found is None, page[max(found.start() - 200, 0) : found.end() + 200]


@pytest.mark.parametrize("game", ["nieuwstad", "new-england", "blankenburg", "sealed-cards"])
def test_match_pages_of_every_game_keep_to_the_policy(game, anna, client):
    players = {"nieuwstad": 2, "new-england": 3, "blankenburg": 3, "sealed-cards": 2}[game]
    match = services.create_match(
        creator=anna,
        game_slug=game,
        players=players,
        bots=players - 1,
        watchable=True,  # the anonymous client watches it
    )
    for viewer in (logged_in(anna), client):
        assert_keeps_to_the_policy(viewer.get(reverse("match_detail", args=[match.pk])))
        assert_keeps_to_the_policy(viewer.get(reverse("match_replay", args=[match.pk])))


def test_site_pages_keep_to_the_policy(anna, client, settings):
    settings.DEBUG = True
    for url in (reverse("home"), reverse("login"), reverse("signup"), reverse("magic_request")):
        assert_keeps_to_the_policy(client.get(url))
    player = logged_in(anna)
    for url in (reverse("lobby"), reverse("match_create"), reverse("notifications:preferences")):
        assert_keeps_to_the_policy(player.get(url))


def test_the_mailbox_shows_an_emails_html_in_a_frame_of_its_own(staff, settings):
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "notifications.mailbox.LocalMailboxBackend"
    client = logged_in(staff)
    mail = EmailMultiAlternatives("Hello", "text", to=["anna@example.com"])
    mail.attach_alternative('<p style="color:red">styled inline</p>', "text/html")
    mail.send()
    name = mailbox.list_mail()[0].name
    assert_keeps_to_the_policy(client.get(reverse("replies:mailbox")))
    assert_keeps_to_the_policy(client.get(reverse("replies:mailbox_message", args=[name])))
    frame = client.get(reverse("replies:mailbox_message_html", args=[name]))
    policy = directives(frame)
    assert policy["default-src"] == ["'none'"]
    assert "sandbox" in policy
    assert "script-src" not in policy
    assert frame["X-Frame-Options"] == "SAMEORIGIN"


def test_json_answers_carry_the_policy_an_api_needs(anna, client):
    """Nothing may load from a JSON answer or frame it; the pages' policy is not built."""
    match = services.create_match(creator=anna, game_slug="sealed-cards", players=2, bots=1)
    _token, key = make_token(user=anna, name="test", scope="read")
    answer = client.get(f"/api/v1/matches/{match.pk}", HTTP_AUTHORIZATION=f"Bearer {key}")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("application/json")
    assert directives(answer) == {"default-src": ["'none'"], "frame-ancestors": ["'none'"]}
    page = logged_in(anna).get(reverse("match_detail", args=[match.pk]))
    assert directives(page)["default-src"] == ["'self'"]  # a page keeps the full policy
