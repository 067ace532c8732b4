"""The operators' admin: read-only log, filters, replay, verify, export, operator moves."""

import html
import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.models import Move
from tests.web.conftest import hand_of, logged_in, secret_of, view_only_staff

pytestmark = pytest.mark.django_db
User = get_user_model()


def admin_urls(match):
    move = Move.objects.filter(match=match).first()
    urls = [
        reverse("admin:games_match_changelist"),
        reverse("admin:games_match_change", args=[match.pk]),
        reverse("admin:games_match_replay", args=[match.pk]),
        reverse("admin:games_match_operator_move", args=[match.pk]),
        reverse("admin:games_move_changelist"),
    ]
    if move:
        urls.append(reverse("admin:games_move_change", args=[move.pk]))
    return urls


def test_non_staff_cannot_reach_admin_pages(client, against_bot, anna):
    for who in (client, logged_in(anna)):
        for url in admin_urls(against_bot):
            response = who.get(url)
            assert response.status_code == 302, url
            assert response["Location"].startswith(reverse("admin:login"))


def test_staff_sees_the_admin_pages(staff, against_bot):
    client = logged_in(staff)
    for url in admin_urls(against_bot):
        assert client.get(url).status_code == 200, url


def opened(client, match):
    """`client` (an operator's) with `match`'s hidden state open (games.hidden_state)."""
    url = reverse("admin:games_match_open_hidden_state", args=[match.pk])
    assert client.post(url, {"reason": "testing"}).status_code == 302
    return client


def test_the_admin_replay_shows_every_seat_and_the_raw_state(staff, duel, anna, ben):
    page = (
        opened(logged_in(staff), duel)
        .get(reverse("admin:games_match_replay", args=[duel.pk]) + "?n=0")
        .content.decode()
    )
    assert secret_of(duel, anna) in page
    assert secret_of(duel, ben) in page
    assert "Public (spectator)" in page
    assert "&quot;hands&quot;" in page  # the raw state JSON


def test_nobody_can_add_change_or_delete_a_move(staff, against_bot):
    client = logged_in(staff)
    move = against_bot.moves.first()
    assert client.get(reverse("admin:games_move_add")).status_code == 403
    assert client.post(reverse("admin:games_move_delete", args=[move.pk])).status_code == 403
    change = client.post(
        reverse("admin:games_move_change", args=[move.pk]), {"payload": "{}", "seq": 99}
    )
    assert change.status_code == 403
    assert Move.objects.get(pk=move.pk).payload == move.payload
    page = client.get(reverse("admin:games_match_change", args=[against_bot.pk])).content.decode()
    assert 'name="moves-0-payload"' not in page  # inline rows are read-only
    assert client.get(reverse("admin:games_match_add")).status_code == 403


def test_the_seed_stays_secret_in_the_admin_until_the_end(staff, duel):
    page = logged_in(staff).get(reverse("admin:games_match_change", args=[duel.pk]))
    assert duel.seed not in page.content.decode()


def test_filters_waiting_on_a_human_and_overdue(staff, duel, anna):
    client = logged_in(staff)
    changelist = reverse("admin:games_match_changelist")
    human = client.get(changelist + "?waiting_on=human").context["cl"].result_list
    assert list(human) == [duel]
    assert not client.get(changelist + "?waiting_on=bot").context["cl"].result_list
    assert not client.get(changelist + "?overdue=yes").context["cl"].result_list
    seat = duel.seats.get(user=anna)
    seat.deadline_at = timezone.now() - timedelta(minutes=5)
    seat.save(update_fields=["deadline_at"])
    assert list(client.get(changelist + "?overdue=yes").context["cl"].result_list) == [duel]
    assert client.get(changelist + "?game=sealed-cards&status=active").status_code == 200


def test_search_by_player_email(staff, duel, against_bot, ben):
    found = logged_in(staff).get(reverse("admin:games_match_changelist") + "?q=ben@example")
    assert list(found.context["cl"].result_list) == [duel]


def test_verify_action_reports_per_match(staff, duel, against_bot):
    response = logged_in(staff).post(
        reverse("admin:games_match_changelist"),
        {"action": "verify_log", "_selected_action": [duel.pk, against_bot.pk]},
        follow=True,
    )
    text = response.content.decode()
    assert text.count("every digest matches") == 2


def test_export_action_downloads_json(staff, against_bot):
    response = opened(logged_in(staff), against_bot).post(
        reverse("admin:games_match_changelist"),
        {"action": "export_json", "_selected_action": [against_bot.pk]},
    )
    assert response["Content-Disposition"] == f'attachment; filename="match-{against_bot.pk}.json"'
    data = json.loads(response.content)
    assert data["game"] == "sealed-cards"
    assert len(data["moves"]) == against_bot.moves.count()
    assert data["seed"] is None


def test_an_operator_move_is_a_new_log_entry_with_its_reason(staff, duel, anna):
    card = hand_of(duel, anna)[0]
    seat = duel.seats.get(user=anna).number
    url = reverse("admin:games_match_operator_move", args=[duel.pk])
    client = logged_in(staff)
    refused = client.post(url, {"seat": seat, "command": "play 99", "reason": "asked by mail"})
    assert "you cannot play 99" in refused.content.decode()
    assert duel.moves.count() == 0
    client.post(url, {"seat": seat, "command": f"play {card}", "reason": "asked by mail"})
    move = duel.moves.get()
    assert move.source == "admin" and move.note == f"asked by mail (by {staff.username})"
    assert move.payload == {"type": "play", "card": card}


def test_an_operator_move_needs_change_permission(duel):
    viewer = User.objects.create_user(
        "viewer@example.com", "viewer@example.com", "pw", is_staff=True
    )
    response = logged_in(viewer).get(reverse("admin:games_match_operator_move", args=[duel.pk]))
    assert response.status_code == 403


def test_an_operator_move_needs_the_hidden_state_permission_too(duel, anna):
    """A refusal of the operator's command names the seat's hand ('You hold ...'): staff who
    may change matches but not see hidden state cannot play for a seat."""
    from django.contrib.auth.models import Permission

    changer = User.objects.create_user("ch@example.com", "ch@example.com", "pw", is_staff=True)
    changer.user_permissions.set(Permission.objects.filter(codename="change_match"))
    url = reverse("admin:games_match_operator_move", args=[duel.pk])
    client = logged_in(changer)
    assert client.get(url).status_code == 403
    response = client.post(url, {"seat": 0, "command": "play 99", "reason": "probe"})
    assert response.status_code == 403 and b"You hold" not in response.content
    assert duel.moves.count() == 0


def test_no_changelist_lookup_touches_a_secret_field(staff, duel):
    """`?seed__startswith=` answered yes/no about an unfinished match's seed, one character
    at a time. Every lookup on a secret field, on any path, is refused."""
    seed = duel.seed
    for who in (logged_in(staff), logged_in(view_only_staff())):
        for lookup in (
            f"id={duel.pk}&seed__startswith={seed[:2]}",
            f"seed={seed}",
            f"seed__regex=^{seed[:1]}",
            "snapshots__state__isnull=False",
            "seats__user__password__startswith=md5",
        ):
            response = who.get(reverse("admin:games_match_changelist") + "?" + lookup)
            assert response.status_code in (302, 400), lookup
            if response.status_code == 302:
                assert "e=1" in response["Location"], lookup
        for lookup in (f"match__seed__startswith={seed[:2]}", "match__seed__isnull=False"):
            response = who.get(reverse("admin:games_move_changelist") + "?" + lookup)
            assert response.status_code in (302, 400), lookup


def test_chat_and_preferences_are_read_only_in_the_admin(staff, duel, anna):
    from games.chat import post_message
    from games.models import ChatMessage

    post_message(match=duel, user=anna, text="good luck")
    message = ChatMessage.objects.get()
    client = logged_in(staff)
    url = reverse("admin:games_chatmessage_change", args=[message.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'name="text"' not in page.content.decode()
    client.post(url, {"text": "I resign", "match": duel.pk})
    message.refresh_from_db()
    assert message.text == "good luck"
    delete = reverse("admin:games_chatmessage_delete", args=[message.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert ChatMessage.objects.count() == 1
    assert client.get(reverse("admin:games_chatmessage_add")).status_code == 403


def test_operator_actions_are_recorded_with_who_and_why(staff, duel, anna):
    from django.contrib.admin.models import LogEntry

    card = hand_of(duel, anna)[0]
    seat = duel.seats.get(user=anna).number
    client = logged_in(staff)
    client.post(
        reverse("admin:games_match_operator_move", args=[duel.pk]),
        {"seat": seat, "command": f"play {card}", "reason": "her mail bounced"},
    )
    assert duel.moves.get().note == f"her mail bounced (by {staff.username})"
    opened(client, duel).post(
        reverse("admin:games_match_changelist"),
        {"action": "export_json", "_selected_action": [duel.pk]},
    )
    entries = LogEntry.objects.filter(object_id=str(duel.pk)).order_by("pk")
    assert [e.user for e in entries] == [staff, staff]
    assert "her mail bounced" in entries[0].change_message
    assert "Exported" in entries[1].change_message


def test_the_admin_numbers_seats_from_1_as_the_players_pages_do(staff, duel, anna, ben):
    from django.contrib.admin.models import LogEntry

    client = logged_in(staff)
    seat = duel.seats.get(user=anna)
    page = client.get(reverse("admin:games_match_operator_move", args=[duel.pk])).content
    page = page.decode()
    assert "seat numbers from 0" not in page
    assert f"{seat.name} (seat {seat.number + 1})" in page.split("To act now:")[1]
    change = client.get(reverse("admin:games_match_change", args=[duel.pk])).content.decode()
    assert f"{seat.name} (seat {seat.number + 1})" in change
    client.post(
        reverse("admin:games_match_operator_move", args=[duel.pk]),
        {"seat": seat.number, "command": f"play {hand_of(duel, anna)[0]}", "reason": "by phone"},
    )
    entry = LogEntry.objects.get(object_id=str(duel.pk))
    assert f"Operator move for {seat.name} (seat {seat.number + 1})" in entry.change_message


def test_every_admin_list_and_move_page_counts_seats_from_1(staff, duel, anna):
    seat = duel.seats.get(user=anna).number
    client = logged_in(staff)
    client.post(
        reverse("admin:games_match_operator_move", args=[duel.pk]),
        {"seat": seat, "command": f"play {hand_of(duel, anna)[0]}", "reason": "test"},
    )
    move = Move.objects.get(match=duel)
    for url in (
        reverse("admin:games_move_changelist"),
        reverse("admin:games_move_change", args=[move.pk]),
    ):
        page = client.get(url).content.decode()
        assert re.search(rf'field-seat_no".*?>{seat + 1}</', page, re.S), url
    assert str(move) == f"#1 Move, seat {seat + 1}"  # the change page's title
    from django.contrib import admin

    from games.models import ChatMessage
    from notifications.models import Notification
    from replies.models import InboundMessage

    for model in (ChatMessage, InboundMessage, Notification):
        shown = admin.site._registry[model].list_display
        assert "seat_no" in shown and "seat" not in shown, model


def play_both(match, *users):
    """One trick: each user plays their first card."""
    from games import services
    from tests.web.conftest import seat_of

    for user in users:
        services.submit_move(
            match_id=match.pk,
            seat=seat_of(match, user),
            move={"type": "play", "card": hand_of(match, user)[0]},
            source="web",
        )
    match.refresh_from_db()


def test_the_admin_replay_has_the_players_replay_controls_and_newest_first_log(
    staff, duel, anna, ben
):
    play_both(duel, anna, ben)
    play_both(duel, anna, ben)
    url = reverse("admin:games_match_replay", args=[duel.pk])
    page = logged_in(staff).get(url + "?n=3").content.decode()
    assert 'href="?n=2" rel="prev" id="replay-prev"' in page
    assert 'id="replay-next"' in page and 'id="replay-play"' in page
    assert 'id="jump-move"' in page or 'id="jump-round"' in page
    assert "js/replay.js" in page  # arrow keys and Play: the players' static script
    log = page[page.index('id="replay-log"') :]
    assert log.index('<li value="3"') < log.index('<li value="2"') < log.index('<li value="1"')
    assert '<li value="4"' not in log  # the log runs up to the step shown
    assert "favicon.svg" in page and "css/admin.css" in page
    playing = logged_in(staff).get(url + "?n=1&play=1").content.decode()
    assert "&#10074;&#10074; Pause" in playing


def test_the_admin_replay_of_a_finished_match_has_rounds_and_a_score_chart(staff, anna):
    from tests.web.test_replay import bot_match

    match = bot_match(anna, "blankenburg", 2)
    page = logged_in(staff).get(reverse("admin:games_match_replay", args=[match.pk]) + "?n=5")
    text = page.content.decode()
    assert '<select id="jump-round" name="n">' in text
    assert 'id="score-chart"' in text and "<polyline" in text
    assert text.count('aria-label="The town of Blankenburg"') == 3  # public and both seats
    # Blankenburg counts turns; the jump list and the chart name them so, as for players.
    assert '<label for="jump-round">Turn</label>' in text
    rounds = re.findall(r'<option value="\d+"[^>]*>(\d+)</option>', text)
    assert rounds == [str(n) for n in range(1, len(rounds) + 1)]
    breakdown = text.split('id="final-breakdown"', 1)[1].split("</section>", 1)[0]
    for note in match.result["notes"][:2]:
        assert html.escape(note) in breakdown


def test_the_move_log_says_what_each_move_was(staff, duel, anna, ben):
    from games import selectors

    play_both(duel, anna, ben)
    narration = {e["seq"]: e["text"] for e in selectors.history(duel, None)}
    client = logged_in(staff)
    history = client.get(reverse("admin:games_match_history", args=[duel.pk]), follow=True)
    page = history.content.decode()
    for seq in (1, 2):
        assert f'<td class="field-move_text">{narration[seq]}</td>' in page
    assert secret_of(duel, anna) not in page
    move = duel.moves.get(seq=1)
    one = client.get(reverse("admin:games_move_change", args=[move.pk])).content.decode()
    assert narration[1] in one
    change = client.get(reverse("admin:games_match_change", args=[duel.pk])).content.decode()
    assert re.search(rf'field-move_text">\s*<p>{re.escape(narration[2])}</p>', change)


def test_the_match_page_says_where_the_older_moves_are(staff, duel, anna, ben, monkeypatch):
    from games import admin as games_admin

    play_both(duel, anna, ben)
    play_both(duel, anna, ben)
    monkeypatch.setattr(games_admin, "MOVES_SHOWN", 3)
    monkeypatch.setattr(games_admin.MoveInline, "moves_shown", 3)
    page = logged_in(staff).get(reverse("admin:games_match_change", args=[duel.pk]))
    text = page.content.decode()
    assert f"shows the last 3 of the match's {duel.head_seq} moves" in text
    assert f"?match__id__exact={duel.pk}" in text.split("Older moves")[1]
    assert text.count('<td class="field-seq">') == 3


def test_the_result_shows_places_and_seats_from_1(staff, duel, anna, ben):
    from games import selectors
    from tests.web.test_replay import finish

    finish(duel, anna, ben)
    page = logged_in(staff).get(reverse("admin:games_match_change", args=[duel.pk]))
    text = page.content.decode()
    for line in selectors.standings(duel):
        assert f"{line.place}. {line.name} (seat {line.seat + 1})" in text
    assert "<summary>JSON (seats counted from 0)</summary>" in text  # the raw one, folded
    assert "field-result" not in text and "field-to_act" not in text  # no unfolded raw JSON


def test_the_match_list_names_a_player_one_way(staff, duel, anna):
    page = logged_in(staff).get(reverse("admin:games_match_changelist")).content.decode()
    seat = duel.seats.get(user=anna)
    players = re.search(r'<td class="field-players">(.*?)</td>', page).group(1)
    to_act = re.search(r'<td class="field-waiting_for">(.*?)</td>', page).group(1)
    assert f"{seat.name} (seat {seat.number + 1})" in players
    assert f"{seat.name} (seat {seat.number + 1})" in to_act
