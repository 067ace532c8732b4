"""A player's calendar of deadlines and feed of turns (issue 31, item 6): private addresses,
a maintained parser reads the calendar, its deadlines are the site's, in the player's zone,
with their tournaments' rounds; a new address revokes the old."""

import xml.etree.ElementTree as ET
from zoneinfo import ZoneInfo

from icalendar import Calendar

from games import clock
from games.models import Seat
from notifications.models import FeedToken
from players.models import Preferences
from tests.factories import make_user
from tournaments import services as tournaments

from .conftest import start_match


def addresses(client, user) -> tuple[str, str]:
    client.force_login(user)
    client.post("/n/preferences/", {"action": "feed-new"})
    token = FeedToken.objects.get(user=user).token
    return f"/n/calendar/{token}.ics", f"/n/turns/{token}.atom"


def test_the_calendar_holds_the_deadlines_the_site_shows(client, anna, ben):
    Preferences.objects.create(user=anna, time_zone="Europe/Amsterdam")
    match = start_match(anna, ben, days_per_move=2)
    calendar_url, atom_url = addresses(client, anna)
    client.logout()  # the address is the key: no session needed
    response = client.get(calendar_url)
    assert response["Content-Type"].startswith("text/calendar")
    cal = Calendar.from_ical(response.content)
    events = [c for c in cal.walk("VEVENT")]
    seat = Seat.objects.get(match=match, user=anna)
    assert len(events) == 1
    end = events[0].decoded("dtend")
    assert end == clock.effective_deadline(seat).replace(microsecond=0)  # iCalendar keeps seconds
    assert end.tzinfo.key == ZoneInfo("Europe/Amsterdam").key  # in the player's zone
    assert f"#{match.pk}" in str(events[0]["summary"])
    assert cal.walk("VTIMEZONE")  # the zone travels with the calendar
    feed = ET.fromstring(client.get(atom_url).content)
    ns = {"a": "http://www.w3.org/2005/Atom"}
    titles = [e.findtext("a:title", namespaces=ns) for e in feed.findall("a:entry", ns)]
    assert titles == [f"Your turn in {events[0]['summary'].split('your move in ')[1]}"]


def test_the_rounds_of_the_players_tournaments_are_in_it(client, anna):
    t = tournaments.create_tournament(
        organiser=make_user("Olga"),
        name="Feed cup",
        game_slug="sealed-cards",
        format="swiss",
        table_size=2,
        rounds=2,
        max_players=2,
    )
    tournaments.join(t, anna)
    tournaments.join(t, make_user("Rival"))
    tournaments.start(t.pk)
    calendar_url, _ = addresses(client, anna)
    cal = Calendar.from_ical(client.get(calendar_url).content)
    summaries = [str(e["summary"]) for e in cal.walk("VEVENT")]
    assert "Feed cup: round 1 of 2" in summaries


def test_a_new_address_revokes_the_old_and_turning_off_revokes_both(client, anna, ben):
    start_match(anna, ben)
    old_calendar, old_atom = addresses(client, anna)
    new_calendar, new_atom = addresses(client, anna)
    assert client.get(old_calendar).status_code == 404
    assert client.get(old_atom).status_code == 404
    assert client.get(new_calendar).status_code == 200
    client.post("/n/preferences/", {"action": "feed-off"})
    assert client.get(new_calendar).status_code == 404
    assert client.get(new_atom).status_code == 404


def test_the_calendar_and_the_feed_speak_their_owners_language(client, anna, ben):
    Preferences.objects.create(user=anna, language="de")
    start_match(anna, ben, days_per_move=2)
    calendar_url, atom_url = addresses(client, anna)
    client.logout()
    cal = Calendar.from_ical(client.get(calendar_url).content)
    assert str(cal["x-wr-calname"]) == "Postal Boards: meine Fristen"
    assert str(cal.walk("VEVENT")[0]["summary"]).startswith("Frist: dein Zug in ")
    feed = ET.fromstring(client.get(atom_url, HTTP_ACCEPT_LANGUAGE="en").content)
    ns = {"a": "http://www.w3.org/2005/Atom"}
    assert feed.findtext("a:title", namespaces=ns) == "Postal Boards: deine Züge"
    titles = [e.findtext("a:title", namespaces=ns) for e in feed.findall("a:entry", ns)]
    assert titles and all(t.startswith("Du bist dran in ") for t in titles)
