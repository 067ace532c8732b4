"""Every list is bounded: the lobby, open matches, the admin's match list and a match's moves
are paged, and a page costs the same queries whether there are ten rows or thousands.

The rows are made in bulk (thousands of matches through the service layer would take
minutes), with the fields the service layer gives a started, finished or open match."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import pages
from games.engine import seed_commitment
from games.models import Match, MatchStatus, Move, Seat
from tests.web.conftest import logged_in

pytestmark = pytest.mark.django_db


def bulk_matches(count, *, user=None, status=MatchStatus.FINISHED, other=None, waiting=0):
    """`count` two-seat Sealed Cards matches; `user` in seat 0 of each, `other` (or an open
    seat) in seat 1. The last `waiting` of them are active and wait on `user`."""
    now = timezone.now()
    matches = Match.objects.bulk_create(
        Match(
            game_slug="sealed-cards",
            rules_version=1,
            player_count=2,
            seed=f"bulk-{n}",
            seed_commitment=seed_commitment(f"bulk-{n}"),
            status=MatchStatus.ACTIVE if n >= count - waiting else status,
            started_at=None if status == MatchStatus.OPEN else now,
            head_seq=0 if status == MatchStatus.OPEN else 6,
            to_act=[0] if n >= count - waiting else [],
        )
        for n in range(count)
    )
    seats = []
    for n, match in enumerate(matches):
        asked = n >= count - waiting
        seats.append(
            Seat(
                match=match,
                number=0,
                user=user,
                display_name="" if status == MatchStatus.OPEN else "Anna",
                deadline_at=now + timedelta(days=1, minutes=n) if asked else None,
                deadline_seq=6 if asked else None,
                waiting_since=now if asked else None,
            )
        )
        second = "Ben" if other else ""
        seats.append(Seat(match=match, number=1, user=other, display_name=second))
    Seat.objects.bulk_create(seats)
    return matches


def lobby_queries(client, query="") -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("lobby") + query).status_code == 200
    return len(queries)


def test_the_lobby_pages_through_thousands_of_matches_newest_first(anna, ben):
    matches = bulk_matches(3000, user=anna, other=ben, waiting=30)
    client = logged_in(anna)
    page = client.get(reverse("lobby"))
    rows = page.context["rows"]
    assert [r.your_turn for r in rows] == [True] * 30 + [False] * pages.LOBBY_PAGE
    deadlines = [r.deadline_at for r in rows[:30]]
    assert deadlines == sorted(deadlines)
    seen = [r.match.pk for r in rows[30:]]
    older = page.context["older"]
    while older:
        page = client.get(reverse("lobby"), {"older": older})
        assert not any(r.your_turn for r in page.context["rows"])
        assert len(page.context["rows"]) <= pages.LOBBY_PAGE
        seen += [r.match.pk for r in page.context["rows"]]
        older = page.context["older"]
    others = sorted((m.pk for m in matches[:-30]), reverse=True)
    assert seen == others  # every match once, newest first


def test_a_lobby_page_costs_the_same_queries_for_ten_matches_or_thousands(anna, ben):
    bulk_matches(10, user=anna, other=ben, waiting=5)
    client = logged_in(anna)
    few = lobby_queries(client)
    bulk_matches(3000, user=anna, other=ben, waiting=5)
    assert lobby_queries(client) == few
    older = client.get(reverse("lobby")).context["older"]
    assert lobby_queries(client, f"?older={older}") <= few


def test_more_seats_waiting_than_a_page_holds_says_so(anna, ben):
    bulk_matches(pages.LOBBY_TURNS + 5, user=anna, other=ben, waiting=pages.LOBBY_TURNS + 5)
    page = logged_in(anna).get(reverse("lobby"))
    assert sum(r.your_turn for r in page.context["rows"]) == pages.LOBBY_TURNS
    assert page.context["more_turns"]
    assert "More matches wait on you" in page.content.decode()


def test_a_bad_cursor_is_the_first_page(anna, ben):
    bulk_matches(5, user=anna, other=ben)
    client = logged_in(anna)
    for bad in ("x", "-1", "9" * 40, ""):
        page = client.get(reverse("lobby"), {"older": bad, "open_before": bad})
        assert page.status_code == 200
        assert len(page.context["rows"]) == 5


def test_open_matches_page_through_thousands(anna, ben, outsider):
    joinable = bulk_matches(2000, user=ben, status=MatchStatus.OPEN)
    bulk_matches(300, user=anna, status=MatchStatus.OPEN)  # anna sits in these already
    client = logged_in(anna)
    seen, cursor = [], None
    first_queries = None
    while True:
        query = {"open_before": cursor} if cursor else {}
        with CaptureQueriesContext(connection) as queries:
            page = client.get(reverse("lobby"), query)
        first_queries = first_queries or len(queries)
        assert len(queries) <= first_queries
        assert len(page.context["open_matches"]) <= pages.OPEN_PAGE
        seen += [m.pk for m in page.context["open_matches"]]
        cursor = page.context["open_next"]
        if not cursor:
            break
    assert seen == sorted((m.pk for m in joinable), reverse=True)


def test_the_admin_match_list_is_paged(staff, anna, ben):
    bulk_matches(1200, user=anna, other=ben)
    client = logged_in(staff)
    page = client.get(reverse("admin:games_match_changelist"))
    assert page.status_code == 200
    assert len(page.context["cl"].result_list) == 50
    assert page.context["cl"].result_count == 1200
    last = client.get(reverse("admin:games_match_changelist"), {"p": 24})
    assert len(last.context["cl"].result_list) == 50


def test_the_admin_shows_the_last_moves_of_a_long_log_and_pages_the_rest(staff, anna, ben):
    (match,) = bulk_matches(1, user=anna, other=ben)
    Move.objects.bulk_create(
        Move(
            match=match,
            seq=n,
            seat=n % 2,
            payload={"type": "play", "card": 1},
            source="web",
            digest=f"{n:064x}",
        )
        for n in range(1, 3001)
    )
    Match.objects.filter(pk=match.pk).update(head_seq=3000)
    client = logged_in(staff)
    page = client.get(reverse("admin:games_match_change", args=[match.pk]))
    assert page.status_code == 200
    inline = next(f for f in page.context["inline_admin_formsets"] if f.opts.model is Move)
    shown = [form.original.seq for form in inline]
    assert shown == list(range(2951, 3001))
    assert "cannot be narrated" in page.content.decode()  # these made-up moves do not replay
    moves = client.get(reverse("admin:games_move_changelist"), {"match__id__exact": match.pk})
    assert moves.status_code == 200
    assert len(moves.context["cl"].result_list) == 50
    assert moves.context["cl"].result_count == 3000
