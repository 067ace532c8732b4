"""The history names every seat by its display name, the viewer's own marked "(you)" in every
line (never "You" in one line and a name in the next), on the match page and the replay."""

import re

import pytest
from django.urls import reverse

from games.selectors import mark_viewer
from tests.web.conftest import logged_in
from tests.web.test_move_preview import play_until

pytestmark = pytest.mark.django_db


def history_lines(page: str) -> list[str]:
    """The text of each history entry (its time, on the match page, is a trailing span)."""
    page = re.sub(r'<span class="when[^"]*">.*?</span>', "", page, flags=re.S)
    listing = page[page.index('<ol class="history-list') :]
    listing = listing[: listing.index("</ol>")]
    return [
        " ".join(re.sub(r"<[^>]+>", " ", item).split())
        for item in re.findall(r"<li[^>]*>(.*?)</li>", listing, re.S)
    ]


@pytest.mark.parametrize(
    ("slug", "players", "turns"), [("blankenburg", 3, 12), ("nieuwstad", 2, 12)]
)
def test_one_name_per_seat_and_the_viewer_marked_you(anna, slug, players, turns):
    counted = iter(range(turns))

    def after_some_turns(game, state, seat, move):
        return next(counted, None) is None

    match, state, mine, _move = play_until(anna, slug, players, after_some_turns, seed="names")
    names = [s.display_name for s in match.seats.order_by("number")]
    client = logged_in(anna)
    for url in (
        reverse("match_detail", args=[match.pk]),
        reverse("match_replay", args=[match.pk]),
    ):
        lines = history_lines(client.get(url).content.decode())
        assert lines, url
        for line in lines:
            assert not re.search(
                r"(^|\W)(You|you|Your|your)\b(?! ?\))", line.replace("(you)", "")
            ), line
            assert re.sub(rf"{re.escape(names[mine])} \(you\)", "", line).count(names[mine]) == 0
        mine_lines = [line for line in lines if f"{names[mine]} (you)" in line]
        assert mine_lines, lines  # Anna's own moves are there, marked


def test_mark_viewer_marks_whole_names_only():
    assert mark_viewer("Bot 1 outbid Bot 10", "Bot 1") == "Bot 1 (you) outbid Bot 10"
    assert mark_viewer("anna's House burned", "anna") == "anna (you)'s House burned"
    assert mark_viewer("hannah passed", "anna") == "hannah passed"
