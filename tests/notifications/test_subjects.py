"""Every subject is plain text, never HTML-escaped, and every mail of a match has the
match's one subject; what a message says is its first line."""

import pytest
from django.contrib.auth.models import User

from notifications.chat import post_message
from notifications.emails import thread_subject

from .conftest import headline, send_all, start_match, to

pytestmark = pytest.mark.django_db

CHAT = 'Let\'s trade: my wood & <stone> for "your" grain'


@pytest.fixture
def obrien(db):
    return User.objects.create_user("ob", "ob@example.org", "pw", first_name="Siobhán O'Brien & Co")


def test_chat_and_names_stay_plain_text_in_subjects_and_first_lines(anna, obrien):
    match = start_match(anna, obrien)
    send_all()
    post_message(match=match, user=obrien, text=CHAT)
    (chat,) = to(send_all(), anna.email)
    assert chat.subject.startswith(f"[Postal Boards] Sealed Cards #{match.pk} with ")
    assert "Siobhán O'Brien & Co" in chat.subject and "Anna" in chat.subject
    assert headline(chat).startswith("Siobhán O'Brien & Co: Let's trade: my wood & <stone>")
    for text in (chat.subject, headline(chat)):
        assert "&amp;" not in text and "&#x27;" not in text and "&lt;" not in text
    # The HTML part escapes as HTML must.
    assert "&lt;stone&gt;" in chat.alternatives[0][0]


def test_a_subject_is_one_line_whatever_the_names(anna, ben):
    ben.first_name = "Ben\r\nBcc: everyone@example.com"
    ben.save()
    match = start_match(anna, ben)
    subject = thread_subject(match)
    assert "\n" not in subject and "\r" not in subject
    for message in send_all():
        assert "\n" not in message.subject


def test_every_mail_of_a_match_has_its_one_subject(anna, ben):
    match = start_match(anna, ben)
    sent = send_all()
    post_message(match=match, user=ben, text="hello")
    sent += send_all()
    mine = [m for m in to(sent, anna.email)]
    assert {m.subject for m in mine} == {thread_subject(match)}
    assert {headline(m).split(":")[0] for m in mine} == {"The game begins", "Your turn", "Ben"}
