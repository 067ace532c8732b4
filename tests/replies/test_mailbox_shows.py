"""The local mailbox shows a mail as a mail client would (issue 28, item 8): the plain text
wraps in its box with its links as links (the README's "follow the link" is a click, not a
copy), and the HTML part shows the board, whose inline PNG part (cid:) the page's frame could
not reach, written in as a data: URI."""

import pytest
from django.test import override_settings

from notifications import outbox
from notifications.mailbox import list_mail

from .conftest import start_match

pytestmark = pytest.mark.django_db


@override_settings(
    EMAIL_BACKEND="notifications.mailbox.LocalMailboxBackend", DEBUG=True, LOCAL_MAILBOX_OPEN=True
)
def test_links_are_links_and_the_board_shows(client, anna):
    start_match(anna, bots=1, game_slug="nieuwstad")
    outbox.send_due()
    turn = next(m for m in list_mail(to=anna.email) if m.first_line.startswith("Your turn"))
    page = client.get(f"/n/mailbox/{turn.name}/").content.decode()
    text = page.split('<pre class="mail-text"', 1)[1].split("</pre>", 1)[0]
    assert '<a href="http' in text
    frame = client.get(f"/n/mailbox/{turn.name}/html/").content.decode()
    assert 'src="data:image/png;base64,' in frame and "cid:" not in frame
