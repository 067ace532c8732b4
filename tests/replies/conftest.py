"""Replies are answers to the mail the server sends: the same site, players and matches."""

from tests.notifications.conftest import (  # noqa: F401  fixtures and helpers
    _site,
    anna,
    as_raw,
    ben,
    fixture_mail,
    headline,
    match,
    reply_to,
    seat_of,
    send_all,
    start_match,
    to,
    turn_email,
)
