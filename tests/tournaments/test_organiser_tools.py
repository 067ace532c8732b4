"""The organiser's tools on the tournament's page, end to end on the web: the draw before
round 1, extending sign-up, the description, withdrawing a player, offering a timed-out
seat, cancelling; each recorded with who and why, with long names and addresses (the
record's columns took 40 characters on PostgreSQL); and the crosstable and each match's
result on the page."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.utils import timezone

from games import services as games
from games.models import MatchStatus
from notifications.outbox import send_due
from tests.factories import make_user
from tests.tournaments.playing import play_by_bots
from tournaments import services
from tournaments.models import Table, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)  # rounds follow on commit

LONG = "a-rather-long-address-of-an-entrant@example.com"  # 47 characters


def long_user(name: str) -> User:
    address = f"{name}.{LONG}"
    return User.objects.create_user(username=address, email=address, password="x")


def page(client, t) -> str:
    return client.get(f"/tournaments/{t.pk}/").content.decode()


def act(client, t, **data) -> str:
    response = client.post(f"/tournaments/{t.pk}/action/", data, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_the_organisers_tools_each_recorded_with_who_and_why(
    client, time_machine, no_vacation_bank
):
    organiser = long_user("organiser")
    client.force_login(organiser)
    response = client.post(
        "/tournaments/",
        {
            "name": "Builders' Winter Open of the Long Evenings " * 2,  # 84: cut to 80
            "game_slug": "blankenburg",
            "format": "swiss",
            "table_size": 2,
            "rounds": 2,
            "signup_until": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%d %H:%M"),
            "days_per_move": 3,
            "timeout_policy": "default",
        },
    )
    assert response.status_code == 200 and "at most 80 characters" in response.content.decode()
    response = client.post(
        "/tournaments/",
        {
            "name": "Builders' Winter Open of the Long Evenings, second edition, 2026",
            "game_slug": "blankenburg",
            "format": "swiss",
            "table_size": 2,
            "rounds": 2,
            "signup_until": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%d %H:%M"),
            "days_per_move": 3,
            "timeout_policy": "default",
        },
    )
    t = Tournament.objects.get(organiser=organiser)
    players = [long_user(f"player{n}") for n in range(5)]
    for user in players:
        services.join(t, user)
    html = page(client, t)
    assert "The draw of round 1, if it were made now" in html
    # Names, never addresses (the header names who is signed in; the record is theirs).
    assert LONG not in html.split("</header>")[1].split('id="record"')[0]
    # Extend sign-up, say why.
    later = (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%d %H:%M")
    assert "Say why" in act(client, t, action="extend", signup_until=later, reason="")
    html = act(client, t, action="extend", signup_until=later, reason="more players asked " * 3)
    assert "Sign-up stays open longer" in html
    t.refresh_from_db()
    assert t.signup_until.strftime("%Y-%m-%d %H:%M") == later
    # The description.
    html = act(client, t, action="describe", description="House rules: be kind.\nNo bots.")
    assert "House rules: be kind." in html
    # Withdraw a player whose address is long (an admin withdrawal of one rolled back).
    leaver = players[0]
    html = act(client, t, action="withdraw-player", player=leaver.pk, reason="asked to leave")
    assert t.entries.get(user=leaver).withdrawn_at is not None
    withdrawal = t.actions.get(action__startswith="withdrew")
    assert LONG in withdrawal.action and len(withdrawal.action) > 40
    assert withdrawal.by == str(organiser) and withdrawal.reason == "asked to leave"
    # Someone else may not use the tools.
    client.force_login(players[1])
    act(client, t, action="cancel", reason="I do not like it")
    t.refresh_from_db()
    assert t.status == TournamentStatus.SIGNUP
    assert "Organiser&#x27;s tools" not in page(client, t)
    # Start, time out a seat, offer it: 'offered seat N of Builders of Blankenburg #N'.
    client.force_login(organiser)
    act(client, t, action="start", reason="enough of us")
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    match = Table.objects.filter(round__tournament=t).first().match
    seat = match.seats.get(number=match.to_act[0])
    time_machine.move_to(seat.deadline_at + timedelta(minutes=1))
    games.enforce_timeout(match_id=match.pk, seat=seat.number, deadline_seq=seat.deadline_seq)
    send_due()
    (told,) = [m for m in mail.outbox if "a deadline passed in round 1" in m.subject]
    assert told.to == [organiser.email] and f"/tournaments/{t.pk}/" in told.body
    assert "offer the seat to a substitute" in told.body
    html = act(client, t, action="offer-seat", match=match.pk, seat=seat.number, reason="gone")
    offered = t.actions.get(action__startswith="offered seat")
    assert "Builders of Blankenburg" in offered.action and len(offered.action) > 40
    # Cancel: the matches in play are abandoned, no round follows.
    html = act(client, t, action="cancel", reason="the venue closed " * 40)
    t.refresh_from_db()
    assert t.status == TournamentStatus.CANCELLED
    assert not Table.objects.filter(round__tournament=t, match__status=MatchStatus.ACTIVE)
    record = page(client, t).split('id="record"')[1]
    for said in ("extended sign-up", "edited the description", "withdrew", "started"):
        assert said in record
    assert "offered seat" in record and "cancelled" in record


def test_the_page_shows_the_crosstable_and_each_matchs_result(client):
    t = services.create_tournament(
        organiser=make_user("Olga"),
        name="Crosstable",
        game_slug="sealed-cards",
        format="swiss",
        table_size=2,
        rounds=2,
        max_players=4,
    )
    for n in range(4):
        services.join(t, make_user(f"X{n}"))
    for _ in range(2):
        play_by_bots(t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    send_due()
    ends = [m for m in mail.outbox if m.subject == "Crosstable is over: the final standings"]
    assert sorted(m.to[0] for m in ends) == sorted(f"x{n}@example.com" for n in range(4))
    assert "1. X" in ends[0].body and "4. X" in ends[0].body
    assert "points" in ends[0].body and f"/tournaments/{t.pk}/" in ends[0].body
    html = page(client, t)
    assert 'id="crosstable"' in html
    crosstable = html.split('id="crosstable"')[1].split("</section>")[0]
    assert crosstable.count("1: ") == 4 and crosstable.count("2: ") == 4  # two per match
    for table in Table.objects.filter(round__tournament=t):
        assert f"{table.match}</a>: 1. " in html  # its places, not its status
