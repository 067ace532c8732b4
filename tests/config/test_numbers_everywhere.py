"""Where a person types a number — a form's field, a query parameter, a path, a header —
anything from Unicode's number-like and invisible categories is answered without a 500 and
changes nothing it does not name (issue 43, item 4). Digits of another script are read as
their value everywhere (games.engine.numbers); "²", "①", a right-to-left mark, a control
character or 5,000 digits are no number. Drawn by hypothesis through the real entry points;
.ci/run runs it again on PostgreSQL, where a number no key can hold would reach the
database. Mail commands: tests/replies/test_numbers_in_mail.py."""

from __future__ import annotations

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.tokens import make_token
from games.engine.numbers import read_number
from games.models import ChatMessage, Move, Seat
from notifications.hooks import add_hook
from notifications.models import MatchHook
from tests.factories import make_user, two_player_match
from tests.tournaments.test_tournaments import make_swiss

pytestmark = pytest.mark.django_db

numbers = st.one_of(
    st.sampled_from(["²", "①", "٣", "１２", "\u200f1", "1\u200e", "½", "9" * 5000, "-1", " ", ""]),
    st.integers(min_value=-(10**20), max_value=10**30).map(str),
    st.text(
        st.characters(
            categories=["Nd", "No", "Nl", "Cc", "Cf", "Zs", "Pd", "Lo"],
            exclude_characters="\x00",  # refused before any view (test_unstorable_input.py)
        ),
        max_size=12,
    ),
)


@pytest.fixture
def world(settings):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    match, anna_seat, _ = two_player_match(takebacks=True)
    anna = Seat.objects.get(match=match, number=anna_seat).user
    add_hook(match, anna, "https://127.0.0.1:9/hook", "json")
    t, _entrants = make_swiss(players=4, rounds=2)
    web, organiser = Client(raise_request_exception=False), Client(raise_request_exception=False)
    web.force_login(anna)
    organiser.force_login(t.organiser)
    _token, key = make_token(user=anna, name="numbers", scope="play")
    api = Client(headers={"Authorization": f"Bearer {key}"}, raise_request_exception=False)
    stranger = Client(raise_request_exception=False)
    stranger.force_login(make_user("Stranger"))
    return {
        "match": match,
        "t": t,
        "web": web,
        "organiser": organiser,
        "api": api,
        "stranger": stranger,
    }


def stored(w) -> tuple:
    return (
        Move.objects.filter(match=w["match"]).count(),
        ChatMessage.objects.count(),
        MatchHook.objects.count(),
        Seat.objects.filter(takeover_offered_at__isnull=False).count(),
    )


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(number=numbers)
def test_a_number_anywhere_is_answered_without_a_500(world, number):
    w = world
    m, t = w["match"].pk, w["t"].pk
    before = stored(w)
    posts = [
        ("web", f"/matches/{m}/seat/", {"action": "offer", "seat": number}),
        ("web", f"/matches/{m}/seat/", {"action": "skip", "seat": number}),
        ("web", f"/matches/{m}/take/", {"seat": number}),
        ("web", f"/matches/{m}/move/", {"command": "play 99", "seq": number, "token": "x"}),
        ("web", f"/matches/{m}/move/", {"command": number, "seq": "0", "token": "y"}),
        ("web", f"/matches/{m}/takeback/", {"seq": number}),
        ("stranger", f"/n/matches/{m}/hooks/", {"action": "remove", "hook": number}),
        ("stranger", f"/tournaments/{t}/hooks/", {"action": "remove", "hook": number}),
        (
            "organiser",
            f"/tournaments/{t}/action/",
            {"action": "offer-seat", "match": number, "seat": number},
        ),
        (
            "organiser",
            f"/tournaments/{t}/action/",
            {"action": "offer-seat", "match": m, "seat": number},
        ),
    ]
    for who, path, form in posts:
        status = w[who].post(path, form).status_code
        assert status < 500, (path, form, status)
    gets = [
        ("web", "/lobby/", {"older": number}),
        ("web", "/lobby/", {"open_before": number}),
        ("web", f"/matches/{m}/poll/", {"seq": number}),
        ("web", f"/matches/{m}/replay/", {"n": number}),
        ("web", "/archive/", {"page": number}),
        ("api", f"/api/v1/matches/{m}/history", {"after": number}),
        ("api", "/api/v1/matches", {"status": "active", "limit": number}),
    ]
    for who, path, query in gets:
        status = w[who].get(path, query).status_code
        assert status < 500, (path, query, status)
    if number.isascii() and number.isdigit():  # a path's number: Django's converter is ASCII
        for path in (
            f"/matches/{number}/",
            f"/tournaments/{number}/",
            f"/players/{number}/",
            f"/api/v1/matches/{number}",
        ):
            client = w["api"] if path.startswith("/api/") else w["web"]
            assert client.get(path).status_code < 500, path
    stream = w["api"].get("/api/v1/stream", {"hold": "0"}, headers={"Last-Event-ID": number})
    assert stream.status_code < 500
    if read_number(number) is None:
        assert stored(w) == before  # no number: nothing done


def test_the_reminder_hours_field_reads_numbers_as_everywhere():
    from notifications.forms import PreferencesForm

    form = PreferencesForm()
    for written, hours in [("24, ２", [24, 2]), ("٤٨", [48])]:
        form.cleaned_data = {"reminder_hours": written}
        assert form.clean_reminder_hours() == hours
    for written in ["²", "①, 3", "9" * 5000, "0", "169"]:
        form.cleaned_data = {"reminder_hours": written}
        with pytest.raises(Exception, match="whole hours"):
            form.clean_reminder_hours()
