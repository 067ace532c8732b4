"""Mail a player wants (issue 46, item 3): a reply that was simply applied is confirmed in
the next mail the player gets from that match, not by a mail of its own, unless they asked
for each move confirmed at once; refusals, questions and anything not understood are
answered at once."""

from datetime import UTC, datetime, timedelta

import time_machine
from django.contrib.auth.models import User

from games import services
from games.selectors import load_state
from notifications import emails
from notifications.models import Kind, Notification, Status
from players.models import NoticeMode, Preferences
from replies import inbound

from .conftest import headline, reply_to, seat_of, send_all, start_match, to

MONDAY = datetime(2024, 6, 3, 10, 14, tzinfo=UTC)


def card_of(match, user, index=0):
    match.refresh_from_db()
    return load_state(match)["hands"][seat_of(match, user)][index]


def started(anna, ben):
    with time_machine.travel(MONDAY - timedelta(hours=1), tick=False):
        match = start_match(anna, ben)
        sent = send_all()
    return match, sent


def first_to(sent, user):
    return to(sent, user.email)[-1]


def test_an_applied_reply_is_confirmed_in_the_next_mail_of_the_match(anna, ben):
    match, sent = started(anna, ben)
    card = card_of(match, anna)
    with time_machine.travel(MONDAY, tick=False):
        inbound.receive_raw(reply_to(first_to(sent, anna), "1"))
        assert to(send_all(), anna.email) == []  # no mail of its own: Ben is still to play
    answer = Notification.objects.get(kind=Kind.ANSWER, user=anna)
    assert (answer.status, answer.last_error) == (Status.SKIPPED, emails.CONFIRM_LATER)
    with time_machine.travel(MONDAY + timedelta(hours=3), tick=False):
        services.submit_move(
            match_id=match.pk, player=ben, command=f"play {card_of(match, ben)}", source="web"
        )
        (turn,) = to(send_all(), anna.email)
    first = headline(turn)
    assert first.startswith(f"Applied: play {card}, Mon 10:14. Now: Your turn: "), first
    answer.refresh_from_db()
    carrier = Notification.objects.filter(kind=Kind.TURN, user=anna, status=Status.SENT).first()
    assert answer.last_error == f"{emails.CARRIED_BY}{carrier.pk}"
    # Rendered again (to find it quoted in a reply), it says the same.
    assert emails.render(carrier).text.splitlines()[0] == first
    # Confirmed once: the next mail does not say it again.
    with time_machine.travel(MONDAY + timedelta(hours=4), tick=False):
        inbound.receive_raw(reply_to(turn, "status"))
        (status,) = to(send_all(), anna.email)
    assert "Applied" not in headline(status)


def test_a_player_may_ask_for_each_move_confirmed_at_once(anna, ben):
    Preferences.objects.create(user=anna, confirm_each_move=True)
    match, sent = started(anna, ben)
    card = card_of(match, anna)
    with time_machine.travel(MONDAY, tick=False):
        inbound.receive_raw(reply_to(first_to(sent, anna), "1"))
        (answer,) = to(send_all(), anna.email)
    assert headline(answer) == f"Applied: play {card}"


def test_refusals_questions_and_the_not_understood_are_answered_at_once(anna, ben):
    match, sent = started(anna, ben)
    turn = first_to(sent, anna)
    for n, body in enumerate(("play 99", "status", "help", "Dear Ben, how are you?")):
        with time_machine.travel(MONDAY + timedelta(minutes=n), tick=False):
            inbound.receive_raw(reply_to(turn, body))
            answers = to(send_all(), anna.email)
        assert len(answers) == 1, body
    assert not Notification.objects.filter(last_error=emails.CONFIRM_LATER).exists()


def test_a_player_who_gets_no_other_mail_is_answered_at_once(anna, ben):
    match, sent = started(anna, ben)
    Preferences.objects.update_or_create(user=anna, defaults={"mode": NoticeMode.NONE})
    with time_machine.travel(MONDAY, tick=False):
        inbound.receive_raw(reply_to(first_to(sent, anna), "1"))
        (answer,) = to(send_all(), anna.email)
    assert headline(answer).startswith("Applied: play ")


def test_a_digest_confirms_the_replies_of_the_day(anna, ben):
    match, sent = started(anna, ben)
    Preferences.objects.update_or_create(
        user=anna, defaults={"mode": NoticeMode.DIGEST, "digest_hour": 18}
    )
    card = card_of(match, anna)
    with time_machine.travel(MONDAY, tick=False):
        inbound.receive_raw(reply_to(first_to(sent, anna), "1"))
        assert to(send_all(), anna.email) == []
    with time_machine.travel(MONDAY + timedelta(hours=1), tick=False):
        services.submit_move(
            match_id=match.pk, player=ben, command=f"play {card_of(match, ben)}", source="web"
        )
        send_all()
    from notifications.digest import send_digests

    evening = datetime(2024, 6, 3, 18, 5, tzinfo=UTC)
    with time_machine.travel(evening, tick=False):
        send_digests()
        (digest,) = to(send_all(), anna.email)
    assert "Your emails since our last mail:" in digest.body
    assert f"Applied: play {card}, Mon 10:14" in digest.body


def test_the_preferences_page_turns_confirm_each_move_on(client, anna):
    client.force_login(anna)
    page = client.get("/n/preferences/").content.decode()
    assert "Confirm each move I send by email at once" in page
    response = client.post(
        "/n/preferences/",
        {
            "action": "save",
            "mode": "every",
            "time_zone": "Europe/Paris",
            "digest_hour": "9",
            "reminder_hours": "24, 2",
            "webhook_url": "",
            "confirm_each_move": "on",
        },
    )
    assert response.status_code == 302, response.content
    assert Preferences.objects.get(user=anna).confirm_each_move
    assert not emails.confirms_later(User.objects.get(pk=anna.pk))
