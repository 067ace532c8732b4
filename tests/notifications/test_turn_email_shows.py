"""The turn email as a person reads it (issue 28, item 8): its HTML shows the board as an
inline PNG part (Content-ID, alt text; mail clients do not show <svg>), and its plain-text
choices parse as a numbered list whose group headings stand on lines of their own."""

import re

import pytest

from .conftest import start_match, turn_email

pytestmark = pytest.mark.django_db

GAMES = [("nieuwstad", "twin-builds-1"), ("blankenburg", "mail-shows"), ("new-england", "mail")]


def parts(message):
    return list(message.message().walk())


@pytest.mark.parametrize(("slug", "seed"), GAMES)
def test_the_html_shows_the_board_as_an_inline_png(anna, slug, seed):
    match = start_match(anna, bots=2 if slug != "blankenburg" else 1, game_slug=slug, seed=seed)
    message = turn_email(match, anna)
    mime = parts(message)
    images = [p for p in mime if p.get_content_type() == "image/png"]
    assert images, [p.get_content_type() for p in mime]
    html = next(p for p in mime if p.get_content_type() == "text/html").get_payload(decode=True)
    html = html.decode()
    assert 'class="board-svg"' not in html  # no client would show it
    for image in images:
        content_id = image["Content-ID"].strip("<>")
        assert image.get_payload(decode=True).startswith(b"\x89PNG")
        assert image["Content-Disposition"].startswith("inline")
        tag = re.search(rf'<img src="cid:{re.escape(content_id)}"[^>]*>', html).group(0)
        assert re.search(r'alt="The board[^"]+"', tag)
    root = message.message()
    assert root.get_content_type() == "multipart/related"


def test_the_plain_text_choices_are_a_numbered_list(anna):
    match = start_match(anna, bots=2, game_slug="nieuwstad", seed="twin-builds-1")
    body = turn_email(match, anna).body
    choices = body.split("Your choices\n------------\n", 1)[1].split("\n\n", 1)[0]
    numbers = []
    for line in choices.splitlines():
        item = re.match(r"\s*(\d+)\. \S", line)
        if item:
            numbers.append(int(item.group(1)))
            assert line.startswith(" "), line  # items indented under their heading
        else:
            # A heading or its wrapped note: never at an item's text column, where it read
            # as the end of the item above.
            assert not line.startswith("     "), line
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) > 3
