"""'(in 2 days)' after a deadline as each language says it (issue 41, item 4): German puts
the count in the dative ('in 2 Tagen', not Django's nominative 'in 2 Tage')."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation
from django.utils.timesince import timeuntil

from notifications.emails import DEADLINE_IN

NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "language, later, said",
    [
        ("de", timedelta(days=2, hours=1), "2\xa0Tagen, 1\xa0Stunde"),
        ("de", timedelta(days=1), "1\xa0Tag"),
        ("de", timedelta(hours=5), "5\xa0Stunden"),
        ("nl", timedelta(days=3), "3\xa0dagen"),
        ("fr", timedelta(days=2, hours=3), "2\xa0jours, 3\xa0heures"),
        ("en", timedelta(days=2), "2\xa0days"),
    ],
)
def test_the_time_left_reads_as_after_in(language, later, said):
    with translation.override(language):
        assert timeuntil(NOW + later, NOW, time_strings=DEADLINE_IN, depth=2) == said
