"""A forced answer in a simultaneous decision waits for the others, so its timing tells
nobody that the seat had no choice (a zero bid from an empty purse, no playable card)."""

import pytest

from games import services
from games.engine import event_rng, next_automatic, register, seats_to_ask
from games.models import Match
from games.selectors import history, load_state
from tests.factories import make_user
from tests.hidden import check_match_for_leaks
from tests.sealed_cards import SealedCards

pytestmark = pytest.mark.django_db


class LastTrick(SealedCards):
    """The last trick of Sealed Cards: the first seat holds one card, the second two."""

    slug = "last-trick"
    max_players = 2

    def setup(self, players, options, rng):
        state = super().setup(players, options, rng)
        state["hands"] = [[5], [3, 9]]
        state["trick"] = 3
        return state


GAME = LastTrick()


@pytest.fixture(autouse=True)
def registered():
    """Registered for these tests only: other tests iterate over every registered game."""
    from games.engine import registry

    register(GAME)
    yield
    del registry._games[GAME.slug]


def test_the_driver_defers_a_forced_seat_while_another_has_a_choice():
    state = GAME.setup(["A", "B"], {}, event_rng("s", 0))
    assert next_automatic(GAME, state) is None
    assert seats_to_ask(GAME, state) == [1]
    state = GAME.apply(state, 1, {"type": "play", "card": 9}, None)
    forced = next_automatic(GAME, state)
    assert (forced.seat, forced.move, forced.source) == (0, {"type": "play", "card": 5}, "forced")


def test_the_forced_seat_looks_like_any_seat_still_deciding():
    anna, bram = make_user("Anna"), make_user("Bram")
    match = services.create_match(
        creator=anna, game_slug="last-trick", players=2, invite_emails=[bram.email], seed="s"
    )
    services.join_match(match_id=match.pk, user=bram)
    match.refresh_from_db()
    forced_seat = 0
    chooser = 1
    assert match.head_seq == 0  # nothing played yet: the forced card waits
    assert sorted(match.to_act) == [0, 1]  # everyone sees both seats as deciding
    seats = {s.number: s for s in match.seats.all()}
    assert seats[forced_seat].deadline_at is None  # not asked: no deadline, no turn email
    assert seats[chooser].deadline_at is not None
    result = services.submit_move(
        match_id=match.pk, seat=chooser, move={"type": "play", "card": 3}, source="web"
    )
    assert result.ok
    match.refresh_from_db()
    moves = list(match.moves.order_by("seq").values_list("seat", "source"))
    assert moves == [(chooser, "web"), (forced_seat, "forced")]
    assert match.status == "finished"


def test_the_forced_seat_is_told_its_move_will_be_played_and_shown_no_button(client):
    anna, bram = make_user("Anna"), make_user("Bram")
    match = services.create_match(
        creator=anna, game_slug="last-trick", players=2, invite_emails=[bram.email], seed="s"
    )
    services.join_match(match_id=match.pk, user=bram)
    forced_user = match.seats.get(number=0).user
    client.force_login(forced_user)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Your only choice (play 5) will be played for you" in page
    assert 'name="command" value="play 5"' not in page
    assert 'data-target="cmd:play 5"' not in page
    assert "Your turn" not in page


def test_the_lobby_does_not_list_a_deferred_seat_as_its_turn():
    from games.pages import my_matches

    anna, bram = make_user("Anna"), make_user("Bram")
    match = services.create_match(
        creator=anna, game_slug="last-trick", players=2, invite_emails=[bram.email], seed="s"
    )
    services.join_match(match_id=match.pk, user=bram)
    forced_user = match.seats.get(number=0).user
    chooser_user = match.seats.get(number=1).user
    assert [row.your_turn for row in my_matches(forced_user)] == [False]
    assert [row.your_turn for row in my_matches(chooser_user)] == [True]


def test_the_hidden_information_check_sees_no_difference_between_asked_and_forced(
    django_capture_on_commit_callbacks,
):
    """The whole match through the hidden-information check: the forced seat's row in the
    players list equals the asked seat's for every viewer, and its forced card is labelled
    like an asked one to everyone else, on the page and in the API."""
    report = check_match_for_leaks(
        "last-trick", 2, seed="forced-check", on_commit=django_capture_on_commit_callbacks
    )
    assert report.leaks == []
    assert report.deferred_rows_compared > 0  # the spectator compared the two rows
    assert report.automatic_entries_seen > 0


def test_the_check_catches_a_forced_label_and_a_missing_deadline(
    django_capture_on_commit_callbacks, monkeypatch
):
    """Proof the comparison can fail: with the old behaviour (every seat's deadline shown,
    the true source as the label) it reports both tells."""
    from games import pages, selectors

    monkeypatch.setattr(selectors, "shown_source", lambda source, seat, viewer, seats: source)
    original = pages.match_page

    def with_every_deadline(match, user, **options):
        page = original(match, user, **options)
        for seat in page.seats:
            seat.shown_deadline = pages.shown_deadline(seat)
        return page

    monkeypatch.setattr(pages, "match_page", with_every_deadline)
    report = check_match_for_leaks(
        "last-trick", 2, seed="forced-check", on_commit=django_capture_on_commit_callbacks
    )
    assert any("decides unasked" in leak for leak in report.leaks), report.leaks
    assert any("labels automatic moves ['forced']" in leak for leak in report.leaks)


class LeadLowest(SealedCards):
    """Sealed Cards where the first seat must play its lowest card to the first trick: a
    forced answer in the middle of a match, among two asked ones."""

    slug = "lead-lowest"
    min_players = max_players = 3

    def legal_moves(self, state, seat):
        moves = super().legal_moves(state, seat)
        if seat == 0 and state["trick"] == 1 and moves:
            return [{"type": "play", "card": min(state["hands"][0])}]
        return moves


LEAD_LOWEST = LeadLowest()


@pytest.fixture
def lead_lowest():
    from games.engine import registry

    register(LEAD_LOWEST)
    yield
    del registry._games[LEAD_LOWEST.slug]


def _shown_times(client, match, path=""):
    """seq -> the time the API shows for each history entry (None: no time)."""
    answer = client.get(f"/api/v1/matches/{match.pk}{path}")
    assert answer.status_code == 200, answer.content
    entries = answer.json() if path else answer.json()["history"]
    return {e["seq"]: e["at"] for e in entries}


def test_a_forced_answer_is_shown_at_the_time_its_decision_closed_like_every_answer(
    lead_lowest,
):
    """Seat 1 answers the first trick at 10:00, seat 2 at 11:00, and seat 0's forced card is
    logged with seat 2's. Everyone but the answering seat sees every answer of the trick at
    11:00 (and none while it is open), so the forced card's time is an asked card's time."""
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

    import time_machine
    from django.test import Client

    start = datetime(2024, 6, 3, 9, 0, tzinfo=ZoneInfo("UTC"))
    people = [make_user(n) for n in ("Ann", "Bob", "Cas")]
    stranger = make_user("Dee")
    with time_machine.travel(start, tick=False):
        match = services.create_match(
            creator=people[0],
            game_slug="lead-lowest",
            players=3,
            invite_emails=[p.email for p in people[1:]],
            seed="lead",
            watchable=True,
        )
        for person in people[1:]:
            services.join_match(match_id=match.pk, user=person)
    match.refresh_from_db()
    by_seat = {s.number: s.user for s in match.seats.select_related("user")}
    clients = {}
    for seat, user in [*by_seat.items(), (None, stranger)]:
        clients[seat] = Client()
        clients[seat].force_login(user)

    def answer(seat, at):
        state = load_state(Match.objects.get(pk=match.pk))
        with time_machine.travel(at, tick=False):
            result = services.submit_move(
                match_id=match.pk,
                seat=seat,
                move={"type": "play", "card": max(state["hands"][seat])},
                source="web",
            )
        assert result.ok, result.message

    answer(1, start + timedelta(hours=1))
    assert _shown_times(clients[2], match) == {1: None}  # no time until the trick closes
    assert _shown_times(clients[1], match)[1] is not None  # its own answer keeps its time
    answer(2, start + timedelta(hours=2))
    match.refresh_from_db()
    moves = list(match.moves.order_by("seq").values_list("seq", "seat", "source"))
    assert moves == [(1, 1, "web"), (2, 2, "web"), (3, 0, "forced")]
    closed = start + timedelta(hours=2)
    for viewer in (0, 1, 2, None):
        told = {e["seq"]: e["created_at"] for e in history(match, viewer)}
        assert {at for seq, at in told.items() if moves[seq - 1][1] != viewer} == {closed}
        for path in ("", "/history"):  # the API, to each seat and to a stranger
            shown = _shown_times(clients[viewer], match, path)
            others = {at for seq, at in shown.items() if moves[seq - 1][1] != viewer}
            assert others == {closed.isoformat().replace("+00:00", "Z")}, (viewer, path, shown)
    # The pages show minutes: nobody but seat 1 sees an entry of the trick at 10:00.
    for viewer, client in [*clients.items(), ("anonymous", Client())]:
        page = client.get(f"/matches/{match.pk}/").content.decode()
        assert ("3 Jun 10:00" in page) is (viewer == 1), viewer
        assert "3 Jun 11:00" in page


def test_the_hidden_information_check_compares_the_times_of_asked_and_forced_answers(
    lead_lowest, django_capture_on_commit_callbacks, monkeypatch
):
    """The whole match through the check, with a minute between moves: no viewer's history
    times tell the forced first card from an asked one; with every entry shown at the time
    it was logged (the old behaviour), the check reports the tie to the closing answer."""
    report = check_match_for_leaks(
        "lead-lowest", 3, seed="q7zx-lead", on_commit=django_capture_on_commit_callbacks
    )
    assert report.leaks == [] and report.deferred_entries and report.timings
    from games import selectors

    monkeypatch.setattr(selectors, "simultaneous_times", lambda decisions, viewer: {})
    report = check_match_for_leaks(
        "lead-lowest", 3, seed="q7zx-old", on_commit=django_capture_on_commit_callbacks
    )
    assert any(leak.startswith("history times") for leak in report.leaks), report.leaks
