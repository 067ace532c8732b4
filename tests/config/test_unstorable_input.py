"""Strings with NUL or a lone surrogate, posted to every form and API field that reaches the
database, are refused with a clear 400 and change nothing; never a 500 (PostgreSQL refuses
both characters; .ci/run runs this again there)."""

import json
from urllib.parse import urlencode

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.tokens import make_token
from games.models import ChatMessage, Move
from tests.factories import two_player_match

pytestmark = pytest.mark.django_db


def holding(*bad: str):
    """Text with at least one of `bad` in it."""
    return st.tuples(st.text(max_size=8), st.sampled_from(bad), st.text(max_size=8)).map("".join)


# A form's body is bytes decoded with replacement (a lone surrogate cannot be sent in one);
# a JSON body can escape both NUL and a lone surrogate.
hostile_form = holding("\x00", "a\x00b")
hostile_json = holding("\x00", "\ud800", "\udfff", "a\x00b")


@pytest.fixture
def world(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    match, anna, _bram = two_player_match()
    user = match.seats.select_related("user").get(number=anna).user
    web = Client()
    web.force_login(user)
    _token, key = make_token(user=user, name="fuzz", scope="play")
    api = Client(headers={"Authorization": f"Bearer {key}"})
    return match, web, api


def form_posts(match) -> list[tuple[str, dict, str]]:
    """(path, form, the field the hostile text goes in)."""
    m = match.pk
    return [
        (f"/matches/{m}/move/", {"command": "", "seq": "0", "token": "form-token-1"}, "command"),
        (f"/matches/{m}/move/", {"command": "1", "seq": "0", "token": ""}, "token"),
        (f"/matches/{m}/takeback/", {"seq": ""}, "seq"),
        (f"/matches/{m}/chat/", {"text": ""}, "text"),
        ("/account/tokens/", {"name": "", "scope": "read"}, "name"),
        ("/signup/", {"email": "x@example.com", "name": ""}, "name"),
        ("/login/", {"username": "", "password": "pw"}, "username"),
        ("/login/email/", {"email": ""}, "email"),
    ]


def api_posts(match) -> list[tuple[str, dict, str]]:
    m = match.pk
    return [
        (f"/api/v1/matches/{m}/moves", {"command": "", "idempotency_key": "k"}, "command"),
        (f"/api/v1/matches/{m}/moves", {"command": "1", "idempotency_key": ""}, "idempotency_key"),
        (f"/api/v1/matches/{m}/chat", {"text": ""}, "text"),
    ]


def stored(match) -> tuple:
    return (Move.objects.filter(match=match).count(), ChatMessage.objects.count())


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=hostile_form)
def test_forms_refuse_what_cannot_be_stored(world, text):
    match, web, _api = world
    before = stored(match)
    for path, form, field in form_posts(match):
        answer = web.post(path, {**form, field: text})
        assert answer.status_code == 400, (path, field, answer.status_code)
        assert b"cannot be stored" in answer.content
    assert stored(match) == before


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=hostile_json)
def test_the_api_refuses_what_cannot_be_stored_in_its_error_shape(world, text):
    match, _web, api = world
    before = stored(match)
    for path, body, field in api_posts(match):
        # json.dumps escapes the characters (\u0000, \ud800), as a client's encoder does.
        answer = api.post(path, json.dumps({**body, field: text}), content_type="application/json")
        assert answer.status_code == 400, (path, field, answer.status_code)
        assert answer.json()["error"]["code"] == "invalid_request"
    # In a query string a lone surrogate arrives as U+FFFD (bytes decoded with replacement),
    # which can be stored; a NUL cannot.
    query = api.post(
        f"/api/v1/matches/{match.pk}/takeback",
        QUERY_STRING=urlencode({"idempotency_key": text.encode("utf-8", "surrogatepass")}),
    )
    if "\x00" in text:
        assert query.status_code == 400 and query.json()["error"]["code"] == "invalid_request"
    else:
        assert query.status_code == 409 and query.json()["error"]["code"] == "refused"
    assert stored(match) == before


def test_an_emoji_is_stored_as_written(world):
    """A surrogate pair (how an ASCII JSON encoder writes an emoji) is a character, not a
    lone surrogate: it is stored."""
    match, _web, api = world
    answer = api.post(
        f"/api/v1/matches/{match.pk}/chat",
        json.dumps({"text": "good luck \U0001f600"}),
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content
    assert ChatMessage.objects.get().text == "good luck \U0001f600"
