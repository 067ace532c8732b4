"""Invitations and chat, which mail other people, are limited per person and hour; the
counters are in the shared cache (see test_shared_limits for two processes)."""

import pytest
from django.urls import reverse

from games.chat import chat_for
from games.engine import available_games
from games.forms import MatchCreateForm
from games.models import Match, Seat
from players import limits
from tests.web.conftest import logged_in

pytestmark = pytest.mark.django_db


def create_with_invites(client, addresses: list[str]):
    """The create form as the page fills it in for a 6-seat Blankenburg, with invitations."""
    game = next(g for g in available_games() if g.slug == "blankenburg")
    form = MatchCreateForm(game=game, players=6)
    # As the page renders it: a callable initial (the vacation cap's default) is called.
    data = {
        name: field.initial() if callable(field.initial) else field.initial
        for name, field in form.fields.items()
    }
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    data.update(bots=0, invite_emails="\n".join(addresses))
    return client.post(reverse("match_create"), data)


def test_one_person_cannot_invite_addresses_by_the_hundred(anna):
    client = logged_in(anna)
    sent = 0
    for batch in range(10):
        addresses = [f"guest{batch}-{n}@example.com" for n in range(5)]
        response = create_with_invites(client, addresses)
        if response.status_code == 302:
            sent += len(addresses)
        else:
            assert "addresses an hour" in response.content.decode()
    assert sent == limits.INVITATIONS_PER_HOUR
    assert Match.objects.count() == limits.INVITATIONS_PER_HOUR // 5
    invited = Seat.objects.exclude(invited_email="").values_list("invited_email", flat=True)
    assert len(set(invited)) == limits.INVITATIONS_PER_HOUR


def test_chat_is_limited_per_person_and_hour(duel, anna, ben):
    client = logged_in(anna)
    url = reverse("match_chat", args=[duel.pk])
    for n in range(limits.CHAT_MESSAGES_PER_HOUR + 5):
        client.post(url, {"text": f"message {n}"})
    assert len(list(chat_for(duel))) == limits.CHAT_MESSAGES_PER_HOUR
    page = client.post(url, {"text": "one more"}, follow=True).content.decode()
    assert "many messages this hour" in page
