"""The match's board: on the page, by email, not in the log."""

import pytest

from games.chat import chat_for
from games.models import ChatMessage

from .conftest import send_all, to

pytestmark = pytest.mark.django_db


def test_posting_on_the_page_emails_the_others(client, match, anna, ben):
    send_all()
    client.force_login(anna)
    response = client.post(f"/matches/{match.pk}/chat/", {"text": "Ben, a deal?"})
    assert response.status_code == 302
    assert [m["text"] for m in chat_for(match)] == ["Ben, a deal?"]
    sent = send_all()
    assert to(sent, anna.email) == []
    (to_ben,) = to(sent, ben.email)
    assert "Anna" in to_ben.subject and "Ben, a deal?" in to_ben.body
    assert to_ben.reply_to  # answering with "say ..." works
    assert match.moves.count() == 0  # not part of the game log


def test_htmx_gets_the_fragment_back(client, match, anna):
    client.force_login(anna)
    response = client.post(
        f"/matches/{match.pk}/chat/", {"text": "hello"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and b"hello" in response.content
    assert b'id="chat"' in response.content


def test_only_players_may_post_and_empty_posts_are_refused(client, match, anna, django_user_model):
    outsider = django_user_model.objects.create_user("eve", "eve@example.com", "pw")
    client.force_login(outsider)
    response = client.post(f"/matches/{match.pk}/chat/", {"text": "hi"}, HTTP_HX_REQUEST="true")
    # htmx swaps only 2xx answers: the refusal is shown in the fragment.
    assert response.status_code == 200 and b"Only the players" in response.content
    client.force_login(anna)
    response = client.post(f"/matches/{match.pk}/chat/", {"text": "  "}, HTTP_HX_REQUEST="true")
    assert b"Write something to post" in response.content
    assert not ChatMessage.objects.exists()


def test_posting_needs_a_login(client, match):
    response = client.post(f"/matches/{match.pk}/chat/", {"text": "hi"})
    assert response.status_code == 302 and ChatMessage.objects.count() == 0


def test_the_fragment_renders(match, anna):
    from django.template.loader import render_to_string

    ChatMessage.objects.create(match=match, seat=0, author=anna, text="<b>bold</b>")
    html = render_to_string(
        "games/chat.html",
        {"match": match, "chat_messages": chat_for(match), "can_chat": True},
    )
    assert "&lt;b&gt;bold&lt;/b&gt;" in html and f"/matches/{match.pk}/chat/" in html
