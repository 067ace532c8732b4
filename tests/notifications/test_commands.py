"""Reading a reply's commands: moves, menu numbers, several moves, status/help/say/resign,
redelivery, and replies to a position that has moved on."""

import pytest
from django.core import mail

from games import services
from games.models import ChatMessage
from games.selectors import load_state
from notifications.models import Kind, Notification
from players.models import Preferences
from replies import inbound
from replies.models import InboundStatus

from .conftest import headline, reply_to, seat_of, send_all, start_match, to, turn_email

pytestmark = pytest.mark.django_db


def hand(match, user):
    match.refresh_from_db()
    return load_state(match)["hands"][seat_of(match, user)]


def answer_to(user):
    send_all()
    return next(m for m in reversed(mail.outbox) if user.email in m.to)


def test_a_menu_number_plays_that_entry(match, anna, ben):
    cards = hand(match, anna)
    turn = turn_email(match, anna)
    inbound.receive_raw(reply_to(turn, "2"))
    assert match.moves.get().payload == {"type": "play", "card": cards[1]}
    # Ben is still to play: the move is confirmed in Anna's next mail of the match, not by
    # a mail of its own (issue 46).
    assert to(send_all(), anna.email) == []
    services.submit_move(match_id=match.pk, player=ben, command="1", source="web")
    (answer,) = to(send_all(), anna.email)
    assert headline(answer).startswith(f"Applied: play {cards[1]}, ")
    assert "Now: Your turn" in headline(answer)
    assert answer.subject == turn.subject  # the match's one thread


def test_a_player_who_wants_each_move_confirmed_at_once_gets_the_answer_now(match, anna):
    Preferences.objects.create(user=anna, confirm_each_move=True)
    cards = hand(match, anna)
    inbound.receive_raw(reply_to(turn_email(match, anna), "2"))
    answer = answer_to(anna)
    assert headline(answer) == f"Applied: play {cards[1]}"
    assert "Waiting for: Ben" in answer.body


def test_a_command_is_read_forgivingly(match, anna):
    card = hand(match, anna)[2]
    inbound.receive_raw(reply_to(turn_email(match, anna), f"  PLAY   {card}  "))
    assert match.moves.get().payload["card"] == card


def test_a_wrong_line_changes_nothing_and_says_what_would_be_accepted(match, anna):
    inbound.receive_raw(reply_to(turn_email(match, anna), "play 99\n1"))
    assert match.moves.count() == 0
    answer = answer_to(anna)
    # The first line says what happened and why (the sentence the game gives).
    assert headline(answer).startswith("Not applied: play 99: ")
    assert "cannot play 99" in headline(answer).lower()
    assert "you cannot play 99" in answer.body
    assert "Your choices" in answer.body and "  1. play" in answer.body
    assert "1 more line not read" in answer.body
    # The answer carries a reply address for the same, still current position.
    inbound.receive_raw(reply_to(answer, "1"))
    assert match.moves.count() == 1


def test_a_number_out_of_range(match, anna):
    inbound.receive_raw(reply_to(turn_email(match, anna), "7"))
    assert "Choose a number from 1 to 3" in answer_to(anna).body
    assert headline(answer_to(anna)) == "Not applied: 7: Choose a number from 1 to 3."


def test_several_moves_in_one_message(anna):
    match = start_match(anna, bots=1)
    cards = hand(match, anna)
    inbound.receive_raw(reply_to(turn_email(match, anna), f"play {cards[0]}\nplay {cards[1]}"))
    mine = [m.payload["card"] for m in match.moves.filter(seat=seat_of(match, anna))]
    assert mine == [cards[0], cards[1], cards[2]]  # the last card is forced
    match.refresh_from_db()
    assert match.status == "finished"
    # The end of the match is Anna's next mail: it confirms both moves in its first line.
    answers = [m for m in send_all() if "Applied" in headline(m)]
    assert len(answers) == 1
    assert headline(answers[0]).startswith(f"Applied: play {cards[0]}, play {cards[1]}, ")
    assert "Now: " in headline(answers[0])


def test_the_answer_replaces_the_turn_notice_it_would_duplicate(anna):
    match = start_match(anna, bots=1, options={"double_last": False})
    send_all()
    inbound.receive_raw(reply_to(turn_email(match, anna), "1"))
    sent = send_all()
    assert len(sent) == 1 and "Applied" in headline(sent[0])
    assert "Your choices" in sent[0].body  # ... and it asks for the next card
    skipped = Notification.objects.filter(kind=Kind.TURN, status="skipped")
    assert skipped.count() == 1


def test_status_help_and_say(match, anna, ben):
    inbound.receive_raw(reply_to(turn_email(match, anna), "status\nhelp\nsay Ben, shall we share?"))
    assert match.moves.count() == 0
    answer = answer_to(anna)
    assert "Commands of Sealed Cards" in answer.body and "play N" in answer.body
    assert "Trick 1 of 3" in answer.body
    chat = ChatMessage.objects.get()
    assert chat.text == "Ben, shall we share?" and chat.source == "email"
    assert any("Ben, shall we share?" in m.body for m in mail.outbox if ben.email in m.to)


def test_resign_by_email(match, anna):
    inbound.receive_raw(reply_to(turn_email(match, anna), "resign"))
    match.refresh_from_db()
    assert match.status == "finished"  # one person left: the match ends
    assert match.seats.get(user=anna).resigned


def test_a_message_delivered_twice_plays_once(match, anna):
    raw = reply_to(turn_email(match, anna), "1", message_id="<same@client.example>")
    first = inbound.receive_raw(raw)
    second = inbound.receive_raw(raw)
    assert first.pk == second.pk and second.status == InboundStatus.DONE
    assert match.moves.count() == 1
    assert Notification.objects.filter(kind=Kind.ANSWER).count() == 1


def test_a_message_handled_again_after_a_crash_plays_once(match, anna):
    from anymail.inbound import AnymailInboundMessage

    raw = reply_to(turn_email(match, anna), "1", message_id="<crash@client.example>")
    row, _ = inbound.record(AnymailInboundMessage.parse_raw_mime_bytes(raw))
    inbound.handle(row.pk)
    row.status = InboundStatus.RECEIVED  # as if the worker died before marking it done
    row.save()
    inbound.handle(row.pk)
    assert match.moves.count() == 1


def test_a_reply_to_a_position_that_moved_on_is_not_applied(anna):
    match = start_match(anna, bots=1)
    old_turn = turn_email(match, anna)
    services.submit_move(
        match_id=match.pk,
        seat=seat_of(match, anna),
        move={"type": "play", "card": hand(match, anna)[0]},
        source="web",
    )
    head = match.moves.count()
    inbound.receive_raw(reply_to(old_turn, "1"))
    assert match.moves.count() == head
    answer = answer_to(anna)
    assert "moved on" in headline(answer) and "Trick 2 of 3" in answer.body
    inbound.receive_raw(reply_to(answer, "1"))  # answering the new position works
    assert match.moves.count() > head


def test_a_seat_still_asked_the_same_decision_has_not_moved_on(match, anna, ben):
    turn = turn_email(match, anna)
    services.submit_move(
        match_id=match.pk,
        seat=seat_of(match, ben),
        move={"type": "play", "card": hand(match, ben)[0]},
        source="web",
    )
    inbound.receive_raw(reply_to(turn, "1"))  # Ben's card did not change Anna's question
    assert match.moves.filter(seat=seat_of(match, anna)).count() == 1


def test_an_empty_reply_is_answered(match, anna):
    inbound.receive_raw(reply_to(turn_email(match, anna), ""))
    assert "No command found" in headline(answer_to(anna))


def test_a_message_of_several_lines_is_posted_whole(match, anna, ben):
    # The answer at once lists the lines passed over (else the next mail confirms the move).
    Preferences.objects.create(user=anna, confirm_each_move=True)
    card = hand(match, anna)[0]
    body = (
        "say Ben, a proposal:\n"
        "you take the first trick,\n"
        "I take the second.\n"
        f"play {card}\n"
        "\n"
        "say\n"
        "\n"
        "Second thought:\n"
        "play nothing, just kidding.\n"
        "\n"
        "lg Anna\n"
    )
    inbound.receive_raw(reply_to(turn_email(match, anna), body))
    texts = list(ChatMessage.objects.order_by("pk").values_list("text", flat=True))
    assert texts == [
        "Ben, a proposal:\nyou take the first trick,\nI take the second.",
        "Second thought:\nplay nothing, just kidding.",
    ]
    assert match.moves.get().payload["card"] == card  # the command after the message is played
    answer = answer_to(anna)
    assert headline(answer).startswith(f"Applied: play {card}")
    assert "lg Anna" in answer.body and "Not applied" not in answer.body


def test_one_word_is_an_answer_only_to_the_emails_own_question(match, anna):
    """ "Yes" where nothing is asked in yes-or-no words is answered with the choices, not
    passed over; "OK" after a command is a sign-off, never an answer to the next question."""
    row = inbound.receive_raw(reply_to(turn_email(match, anna), "Yes"))
    assert match.moves.count() == 0
    assert row.outcome.startswith("Yes: ") and "Your choices: 1. play" in row.outcome
    row = inbound.receive_raw(reply_to(turn_email(match, anna), "1\nOK"))
    assert match.moves.count() == 1 and "OK:" not in row.outcome, row.outcome
