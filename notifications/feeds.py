"""A player's deadlines as a calendar (iCalendar, RFC 5545) and their turns as an Atom feed,
at private addresses: the token in them is the only key, and a new one revokes the old.

The calendar has an event for each decision the player owes (ending at its deadline as the
match page shows it, `clock.effective_deadline`), in the player's time zone, and the days the
apps above answer `calendar_days` with (the rounds of the player's tournaments). The Atom
feed has an entry for each match waiting for them.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from django.contrib.syndication.views import Feed
from django.dispatch import Signal
from django.http import Http404
from django.utils import translation
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext
from icalendar import Calendar, Event

from games import clock
from games.language import localize
from games.models import MatchStatus, Seat
from players.language import language_of
from players.preferences import prefs_for, zone

from .emails import absolute, match_label, match_url
from .models import FeedToken

REMINDER_LENGTH = timedelta(minutes=30)  # an event ends at the deadline it stands for

# Sent with `user`: each receiver returns more days for the calendar, as (uid, summary, url,
# date) (the tournaments app answers with the rounds of the player's tournaments).
calendar_days = Signal()


def user_for(token: str):
    found = FeedToken.objects.filter(token=token).select_related("user").first()
    if found is None or not found.user.is_active:
        raise Http404("No such feed.")
    return found.user


def waiting_seats(user) -> list[Seat]:
    """The seats `user` owes a decision in, with their deadlines."""
    seats = Seat.objects.filter(
        user=user, match__status=MatchStatus.ACTIVE, deadline_at__isnull=False
    ).select_related("match", "user")
    return [s for s in seats if s.number in s.match.to_act]


def calendar_for(user) -> bytes:
    """The player's deadlines, in their language and time zone."""
    with translation.override(language_of(user)):
        return _calendar(user)


def _calendar(user) -> bytes:
    tz = zone(prefs_for(user))
    cal = Calendar()
    cal.add("prodid", "-//Postal Boards//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", gettext("Postal Boards: my deadlines"))
    for seat in waiting_seats(user):
        deadline = clock.effective_deadline(seat)
        if deadline is None:
            continue
        event = Event()
        event.add("uid", f"deadline-{seat.match_id}-{seat.number}-{seat.deadline_seq}@pbm")
        summary = gettext("Deadline: your move in %(label)s") % {"label": match_label(seat.match)}
        event.add("summary", summary)
        prompt = localize(seat.match.prompt_text)
        event.add("description", f"{prompt}\n{match_url(seat.match)}")
        event.add("url", match_url(seat.match))
        event.add("dtstart", (deadline - REMINDER_LENGTH).astimezone(tz))
        event.add("dtend", deadline.astimezone(tz))
        event.add("dtstamp", deadline)
        cal.add_component(event)
    for _, days in calendar_days.send(sender=FeedToken, user=user):
        for uid, summary, url, day in days:
            event = Event()
            event.add("uid", uid)
            event.add("summary", summary)
            event.add("url", url)
            event.add("dtstart", day)
            event.add("dtstamp", datetime.combine(day, time(), tzinfo=UTC))
            cal.add_component(event)
    cal.add_missing_timezones()
    return cal.to_ical()


class TurnsFeed(Feed):
    """The matches waiting for the player, as an Atom feed for feed readers."""

    feed_type = Atom1Feed
    description_template = None

    def get_object(self, request, token: str):
        user = user_for(token)
        translation.activate(language_of(user))  # the feed in its owner's language
        return user

    def title(self, user):
        return gettext("Postal Boards: your turns")

    def link(self, user):
        return absolute("/lobby/")

    def items(self, user):
        return sorted(waiting_seats(user), key=lambda s: s.waiting_since or s.deadline_at)

    def item_title(self, seat):
        return gettext("Your turn in %(label)s") % {"label": match_label(seat.match)}

    def item_description(self, seat):
        return localize(seat.match.prompt_text)

    def item_link(self, seat):
        return match_url(seat.match)

    def item_guid(self, seat):
        return f"turn-{seat.match_id}-{seat.number}-{seat.deadline_seq}"

    def item_updateddate(self, seat):
        return seat.waiting_since or seat.deadline_at

    def item_pubdate(self, seat):
        return seat.waiting_since or seat.deadline_at
