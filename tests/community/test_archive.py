"""The archive pages by cursor and finds a player through indexes, on the site and the API."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from community import selectors
from community.names import public_name
from games.models import Match, MatchStatus, Seat
from tests.factories import make_user
from tests.plans import assert_served_by_indexes

pytestmark = pytest.mark.django_db
NOW = timezone.now().replace(microsecond=0)


def finished(count: int, names=("Anna Smit", "Bram Visser"), *, start: int = 0) -> list[Match]:
    """`count` finished matches between the people of these names, a minute apart (every
    third pair at the same moment, so the order falls to the ids), newest first."""
    people = [person(name) for name in names]
    matches = Match.objects.bulk_create(
        Match(
            game_slug="sealed-cards",
            rules_version=1,
            player_count=len(names),
            seed="s",
            seed_commitment="c",
            status=MatchStatus.FINISHED,
            finished_at=NOW - timedelta(minutes=(start + n) // 3 * 3),
            result={"ranking": list(range(len(names)))},
        )
        for n in range(count)
    )
    Seat.objects.bulk_create(
        Seat(match=m, number=k, user=user, display_name=public_name(user))
        for m in matches
        for k, user in enumerate(people)
    )
    return matches


def person(name: str):
    first, _, last = name.partition(" ")
    user, _ = User.objects.get_or_create(
        username=f"{name.lower().replace(' ', '.')}@example.com",
        defaults={"first_name": first, "last_name": last},
    )
    return user


def ids_on(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r"/matches/(\d+)/replay/", html)]


def link(html: str, rel: str) -> str | None:
    found = re.search(rf'rel="{rel}" href="\?([^"]*)"', html)
    return found.group(1).replace("&amp;", "&") if found else None


def test_the_pages_follow_each_other_by_cursor_without_gap_or_repeat():
    finished(61)
    newest_first = list(
        Match.objects.filter(status="finished")
        .order_by("-finished_at", "-pk")
        .values_list("pk", flat=True)
    )
    url, seen, pages = reverse("community:archive"), [], []
    html = Client().get(url).content.decode()
    while True:
        pages.append(html)
        seen += ids_on(html)
        older = link(html, "next")
        if older is None:
            break
        html = Client().get(f"{url}?{older}").content.decode()
    assert seen == newest_first and [len(ids_on(p)) for p in pages] == [25, 25, 11]
    assert link(pages[0], "prev") is None
    back = Client().get(f"{url}?{link(pages[2], 'prev')}").content.decode()
    assert ids_on(back) == ids_on(pages[1])
    first = Client().get(f"{url}?{link(pages[1], 'prev')}").content.decode()
    assert ids_on(first) == ids_on(pages[0]) and link(first, "prev") is None


def test_a_page_by_number_still_answers_for_old_links():
    finished(30)
    html = Client().get(reverse("community:archive"), {"page": 2}).content.decode()
    assert len(ids_on(html)) == 5 and "Page 2 of 2" in html


def test_the_archive_finds_a_player_by_part_of_their_name_or_a_short_start_of_one():
    anna = finished(3, ("Anna Smit", "Bram Visser"))
    sal = finished(2, ("Sal Jansen", "Cor Albers"), start=3)
    unnamed = finished(1, ("Quinn", "Dirk Bos"), start=5)
    # No name: the username shows, and is searched. Dirk's is not: his name shows.
    User.objects.filter(first_name="Quinn").update(first_name="", username="the-eskimo")
    User.objects.filter(first_name="Dirk").update(username="kayaker")
    archive = reverse("community:archive")
    by = {
        name: sorted(ids_on(Client().get(archive, {"player": name}).content.decode()))
        for name in ("nna sm", "al", "AL", "Cor", "eskimo", "kayak", "example", "Zed")
    }
    assert by["nna sm"] == sorted(m.pk for m in anna)
    # Two letters start a word: Albers, not Sal.
    assert by["al"] == by["AL"] == sorted(m.pk for m in sal)
    assert by["Cor"] == sorted(m.pk for m in sal) and by["eskimo"] == [unnamed[0].pk]
    assert by["kayak"] == by["example"] == by["Zed"] == []  # an address is never searched


def test_the_archive_by_player_costs_the_same_queries_whatever_the_archive_holds():
    finished(3, ("Quintijn Ros", "Bram Visser"))
    counts = []
    for more in (10, 300):
        finished(more, ("Anna Smit", "Bram Visser"), start=10)
        with CaptureQueriesContext(connection) as queries:
            html = Client().get(reverse("community:archive"), {"player": "quintijn"})
        assert len(ids_on(html.content.decode())) == 3
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 2


def test_the_api_pages_by_cursor_and_still_by_number(client):
    finished(30)
    client.force_login(make_user("Anna"))
    first = client.get("/api/v1/archive").json()
    assert (len(first["items"]), first["page"], first["pages"]) == (25, 1, 2)
    rest = client.get("/api/v1/archive", {"cursor": first["next"]}).json()
    by_number = client.get("/api/v1/archive", {"page": 2}).json()
    assert [i["id"] for i in rest["items"]] == [i["id"] for i in by_number["items"]]
    assert (rest["next"], rest["page"], rest["pages"]) == (None, None, None)
    named = client.get("/api/v1/archive", {"player": "bram vis", "cursor": first["next"]}).json()
    assert named["items"] == rest["items"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans")
def test_the_archive_reads_through_its_indexes():
    finished(1500)  # enough that sorting them all would cost more than reading in order
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_match, games_seat")
    everything = selectors.ArchiveFilters()
    page = selectors.archive(everything)
    newest = selectors._finished(everything).order_by("-finished_at", "-pk")
    deep = selectors._older_than(newest, selectors.read_cursor(page.older))
    assert_served_by_indexes(newest[:26], "match_finished_newest")
    assert_served_by_indexes(deep[:26], "match_finished_newest")
    finished(3, ("Quintijn Ros", "Bram Visser"))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_match, games_seat")
    rare = selectors._finished(selectors.ArchiveFilters(player="Quintijn"))
    # The players' seats (seat_user_match), and their matches by key.
    assert_served_by_indexes(rare.order_by("-finished_at", "-pk")[:26], "seat_user_match")
