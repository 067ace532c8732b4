"""A tournament played through: sign-up, seeding, rounds drawn and started when the last
match of the one before ends, byes, withdrawals, standings on the page, a mail a round."""

import random
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import services as games
from games.engine import event_rng
from games.models import Match, MatchStatus
from games.selectors import load_state
from games.services import ServiceError
from notifications.outbox import send_due
from tests.factories import make_user
from tournaments import services
from tournaments.models import Round, Table, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)  # rounds follow on commit


def play_out(match: Match) -> None:
    """Every seat plays the bot's move until the match is over."""
    rng = random.Random(match.pk)
    while True:
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            return
        state = load_state(match)
        for seat in list(match.to_act):
            move = match.game.bot_move(state, seat, event_rng(str(rng.random()), 0))
            games.submit_move(match_id=match.pk, seat=seat, move=move, source="bot")
            break


def round_matches(t, number):
    return [
        table.match for table in Table.objects.filter(round__tournament=t, round__number=number)
    ]


def make_swiss(players=5, rounds=3, **options):
    organiser = make_user("Olga")
    t = services.create_tournament(
        organiser=organiser,
        name="Winter Swiss",
        game_slug="sealed-cards",
        format="swiss",
        table_size=2,
        rounds=rounds,
        max_players=players,
        seed="fixed",
        **options,
    )
    users = [make_user(f"P{n}") for n in range(players)]
    return t, users


def test_a_swiss_tournament_runs_by_itself_from_sign_up_to_the_end():
    t, users = make_swiss()
    for user in users:
        services.join(t, user)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING  # full: the first round started by itself
    first = round_matches(t, 1)
    assert len(first) == 2 and Round.objects.get(tournament=t, number=1).bye_id is not None
    send_due()
    round_mail = [m for m in mail.outbox if "round 1 of 3 has begun" in m.subject]
    assert len(round_mail) == 5  # four players and the bye
    for number in (1, 2, 3):
        for match in round_matches(t, number):
            play_out(match)
        t.refresh_from_db()
        if number < 3:
            assert t.current_round == number + 1
    assert t.status == TournamentStatus.FINISHED
    byes = list(Round.objects.filter(tournament=t).values_list("bye_id", flat=True))
    assert len(set(byes)) == 3  # nobody had the bye twice
    pairs = [
        frozenset(m.seats.values_list("user_id", flat=True))
        for n in (1, 2, 3)
        for m in round_matches(t, n)
    ]
    assert len(pairs) == len(set(pairs)) == 6  # no pair met twice
    rows = services.current_standings(t)
    assert sum(r.points for r in rows) == 6 + 3  # a point a match, and one a bye
    assert rows == sorted(rows, key=lambda r: (-r.points, -r.score, -r.head_to_head, r.seed))


def test_a_withdrawn_player_resigns_what_they_play_and_sits_out_the_rest():
    t, users = make_swiss(players=4, rounds=2)
    for user in users:
        services.join(t, user)
    t.refresh_from_db()
    leaver = users[0]
    services.withdraw(t, leaver)
    mine = Match.objects.get(tournament_table__round__tournament=t, seats__user=leaver)
    assert mine.status == MatchStatus.FINISHED  # resigned, against a single person left
    for match in round_matches(t, 1):
        play_out(match)
    second = round_matches(t, 2)
    seated = {u for m in second for u in m.seats.values_list("user_id", flat=True)}
    assert leaver.pk not in seated and len(seated) == 2
    assert Round.objects.get(tournament=t, number=2).bye_id is not None


def test_tables_of_three_seat_everybody_and_the_round_robin_meets_everyone():
    organiser = make_user("Olga")
    t = services.create_tournament(
        organiser=organiser,
        name="Tables",
        game_slug="sealed-cards",
        format="tables",
        table_size=3,
        rounds=2,
        max_players=7,
    )
    for n in range(7):
        services.join(t, make_user(f"T{n}"))
    t.refresh_from_db()
    sizes = sorted(m.player_count for m in round_matches(t, 1))
    assert sizes == [2, 2, 3]
    rr = services.create_tournament(
        organiser=organiser,
        name="RR",
        game_slug="sealed-cards",
        format="round_robin",
        table_size=2,
        signup_until=timezone.now() + timedelta(hours=1),
    )
    players = [make_user(f"R{n}") for n in range(4)]
    for user in players:
        services.join(rr, user)
    assert services.start_due(timezone.now()) == 0  # sign-up still open
    assert services.start_due(timezone.now() + timedelta(hours=2)) == 1
    rr.refresh_from_db()
    assert rr.rounds == 3
    met = set()
    for number in (1, 2, 3):
        for match in round_matches(rr, number):
            met.add(frozenset(match.seats.values_list("user_id", flat=True)))
            play_out(match)
    assert len(met) == 6
    rr.refresh_from_db()
    assert rr.status == TournamentStatus.FINISHED


def test_bad_settings_and_too_few_players_are_refused():
    organiser = make_user("Olga")
    with pytest.raises(ServiceError, match="two players"):
        services.create_tournament(
            organiser=organiser,
            name="x",
            game_slug="sealed-cards",
            format="swiss",
            table_size=3,
            rounds=2,
            max_players=4,
        )
    lonely = services.create_tournament(
        organiser=organiser,
        name="x",
        game_slug="sealed-cards",
        format="swiss",
        table_size=2,
        rounds=2,
        signup_until=timezone.now(),
    )
    services.join(lonely, make_user("Solo"))
    services.start_due(timezone.now() + timedelta(minutes=1))
    lonely.refresh_from_db()
    assert lonely.status == TournamentStatus.CANCELLED


def test_the_page_shows_standings_with_their_tie_breaks_and_no_seed(client):
    t, users = make_swiss(players=2, rounds=1)
    client.force_login(users[0])
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Join" in page
    client.post(f"/tournaments/{t.pk}/action/", {"action": "join"})
    services.join(t, users[1])
    for match in round_matches(t, 1):
        play_out(match)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Standings" in page and "head to head" in page and "Finished" in page
    assert t.seed not in page
    assert client.get("/tournaments/").status_code == 200


def test_a_knockout_cup_sends_the_winners_on_to_a_final():
    organiser = make_user("Olga")
    t = services.create_tournament(
        organiser=organiser,
        name="Cup",
        game_slug="sealed-cards",
        format="knockout",
        table_size=2,
        max_players=5,
    )
    players = [make_user(f"K{n}") for n in range(5)]
    for user in players:
        services.join(t, user)
    t.refresh_from_db()
    assert t.rounds == 3 and Round.objects.get(tournament=t, number=1).bye_id is not None
    for number in (1, 2, 3):
        matches = round_matches(t, number)
        assert len(matches) == {1: 2, 2: 1, 3: 1}[number]
        for match in matches:
            play_out(match)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    final = round_matches(t, 3)[0]
    winner = {s.number: s.user_id for s in final.seats.all()}[final.result["ranking"][0]]
    assert services.current_standings(t)[0].player == winner


def test_the_admin_shows_a_tournament_with_its_standings_and_actions(admin_client):
    t, users = make_swiss(players=2, rounds=1)
    for user in users:
        services.join(t, user)
    services.withdraw(t, users[0], by="Olga", reason="no longer available")
    page = admin_client.get(f"/admin/tournaments/tournament/{t.pk}/change/").content.decode()
    assert "Standings" in page and "1. " in page
    assert "no longer available" in page and "Olga" in page
    assert t.seed not in page


def test_the_organiser_offers_a_stalled_seat_to_a_substitute(
    client, time_machine, no_vacation_bank
):
    t, users = make_swiss(players=2, rounds=1)
    for user in users:
        services.join(t, user)
    match = round_matches(t, 1)[0]
    row = match.seats.get(number=match.to_act[0])
    time_machine.move_to(row.deadline_at + timedelta(minutes=1))
    games.enforce_timeout(match_id=match.pk, seat=row.number, deadline_seq=row.deadline_seq)
    client.force_login(users[0])  # a player, not the organiser: no such button
    assert "to a substitute</button>" not in client.get(f"/tournaments/{t.pk}/").content.decode()
    client.force_login(t.organiser)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "to a substitute</button>" in page
    client.post(
        f"/tournaments/{t.pk}/action/",
        {"action": "offer-seat", "match": match.pk, "seat": row.number, "reason": "gone"},
    )
    row.refresh_from_db()
    assert row.takeover_offered_at is not None
    assert t.actions.get(action__startswith="offered seat").reason == "gone"


def test_garbled_organiser_posts_are_refused_not_a_500(client):
    t, users = make_swiss(players=2, rounds=1)
    client.force_login(t.organiser)
    for data in ({"match": "x", "seat": "1"}, {"match": "1", "seat": "-"}, {}):
        response = client.post(f"/tournaments/{t.pk}/action/", {"action": "offer-seat", **data})
        assert response.status_code == 302


def test_the_beat_closes_a_round_whose_hand_off_was_lost():
    t, users = make_swiss(players=2, rounds=2)
    for user in users:
        services.join(t, user)
    from games import events

    events.match_finished.disconnect(dispatch_uid="tournaments-match-finished")
    try:
        for match in round_matches(t, 1):
            play_out(match)
        t.refresh_from_db()
        assert t.current_round == 1  # the hand-off was lost
        services.start_due()
        t.refresh_from_db()
        assert t.current_round == 2
    finally:
        events.match_finished.connect(
            services.on_match_finished, weak=False, dispatch_uid="tournaments-match-finished"
        )


def test_a_tournaments_channel_hears_each_draw_every_match_and_the_end(settings):
    """A channel connected to a tournament (by an entrant) hears each round's draw, naming
    the tournament, the game and the tables, the moves and ends of all its matches, and the
    final standings; someone not in it may not connect one."""
    import threading
    from http.server import HTTPServer

    from notifications.models import MatchHook
    from tests.notifications.test_webhooks import Hook
    from tournaments.hooks import add_tournament_hook, remove_tournament_hook

    server = HTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Hook.received, Hook.status = [], 204
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    try:
        t, users = make_swiss(players=3, rounds=2)  # starts when the third signs up
        services.join(t, users[0])
        with pytest.raises(ServiceError):
            add_tournament_hook(t, make_user("Stranger"), f"http://127.0.0.1:{server.server_port}/")
        add_tournament_hook(t, users[0], f"http://127.0.0.1:{server.server_port}/", "slack")
        for user in users[1:]:
            services.join(t, user)
        # The organiser, who plays in none of the matches, connects a channel to the running
        # round and removes it: its copies go from the matches, the player's channel stays.
        (first,) = round_matches(t, 1)
        other = add_tournament_hook(t, t.organiser, "http://127.0.0.1:9/other", "json")
        assert MatchHook.objects.filter(match=first, url=other.url).exists()
        remove_tournament_hook(t, t.organiser, other.pk)
        assert list(MatchHook.objects.filter(match=first).values_list("url", flat=True)) == [
            f"http://127.0.0.1:{server.server_port}/"
        ]
        for number in (1, 2):
            for match in round_matches(t, number):
                assert MatchHook.objects.filter(match=match).exists()  # it follows the matches
                play_out(match)
        t.refresh_from_db()
        assert t.status == TournamentStatus.FINISHED
        send_due()
        texts = [body["text"] for body in Hook.received]
    finally:
        server.shutdown()
    draws = [x for x in texts if x.startswith("Winter Swiss (Sealed Cards), round")]
    assert [d.split(":")[0] for d in draws] == [
        "Winter Swiss (Sealed Cards), round 1 of 2",
        "Winter Swiss (Sealed Cards), round 2 of 2",
    ]
    assert all("has the bye" in d and "Sealed Cards #" in d for d in draws)
    moves = [x for x in texts if " move by " in x or " moves by " in x]
    assert len(moves) >= 2 and all(x.count("Sealed Cards #") == 1 for x in moves)
    assert texts[-1].startswith("Winter Swiss (Sealed Cards) is over: ")
    assert texts.index(draws[1]) > texts.index(draws[0])


def test_in_a_round_robin_who_was_to_meet_a_withdrawn_player_has_a_bye():
    organiser = make_user("Olga")
    t = services.create_tournament(
        organiser=organiser,
        name="RR",
        game_slug="sealed-cards",
        format="round_robin",
        table_size=2,
        max_players=4,
    )
    players = [make_user(f"W{n}") for n in range(4)]
    for user in players:
        services.join(t, user)
    leaver = players[0]
    services.withdraw(t, leaver)
    for match in round_matches(t, 1):
        play_out(match)
    second = Round.objects.get(tournament=t, number=2)
    matches = round_matches(t, 2)
    assert len(matches) == 1
    seated = set(matches[0].seats.values_list("user_id", flat=True))
    idle = {p.pk for p in players[1:]} - seated
    assert [second.bye_id, *second.sat_out] == list(idle)  # a forfeit is a win
