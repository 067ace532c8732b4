"""Every subject is plain text, never HTML-escaped, and every mail of a match has the
match's one subject; what a message says is its first line."""

import pytest
from django.contrib.auth.models import User

from games.chat import post_message
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
    assert {headline(m).split(":")[0] for m in mine} == {"Your turn", "Ben"}


def test_the_answer_to_a_reply_stays_in_the_match_thread_and_answers_that_reply(anna, ben):
    from players.models import Preferences
    from replies import inbound

    from .conftest import reply_to, turn_email

    Preferences.objects.create(user=anna, confirm_each_move=True)  # an answer at once
    match = start_match(anna, ben)
    turn = turn_email(match, anna)
    inbound.receive_raw(reply_to(turn, "1", message_id="<reply-1@client.example>"))
    (answer,) = to(send_all(), anna.email)
    assert answer.subject == thread_subject(match) == turn.subject
    assert headline(answer).startswith("Applied: play ")
    assert answer.extra_headers["In-Reply-To"] == "<reply-1@client.example>"
    references = answer.extra_headers["References"].split()
    assert references[-1] == "<reply-1@client.example>" and len(references) == 2


def test_a_forged_message_id_never_reaches_the_answers_headers(anna, ben):
    from players.models import Preferences
    from replies import inbound

    from .conftest import reply_to, turn_email

    Preferences.objects.create(user=anna, confirm_each_move=True)  # an answer at once
    match = start_match(anna, ben)
    raw = reply_to(turn_email(match, anna), "1", message_id="<x@y>")
    raw = raw.replace(b"Message-ID: <x@y>", b'Message-ID: <a b"c@evil>')
    inbound.receive_raw(raw)
    (answer,) = to(send_all(), anna.email)
    assert "evil" not in answer.extra_headers["In-Reply-To"]
    assert "evil" not in answer.extra_headers["References"]
    assert headline(answer).startswith("Applied: play ")


def test_a_notice_about_mail_that_named_no_match_has_its_own_subject(anna):
    from replies import inbound

    raw = (
        f"From: {anna.email}\r\nTo: play+garbage@reply.example.org\r\nSubject: Re: hello\r\n"
        "Message-ID: <lost@client.example>\r\n\r\nplay 3\r\n"
    ).encode()
    inbound.receive_raw(raw)
    (notice,) = to(send_all(), anna.email)
    assert notice.subject == "[Postal Boards] Which match?"
    assert notice.extra_headers["In-Reply-To"] == "<lost@client.example>"
