"""A forced answer in a simultaneous decision waits for the others, so its timing tells
nobody that the seat had no choice (a zero bid from an empty purse, no playable card)."""

import pytest

from games import services
from games.engine import event_rng, next_automatic, register, seats_to_ask
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
