"""The replay page: every position as the viewer could see it, everything after the end."""

import pytest
from django.urls import reverse

from games import services
from tests.web.conftest import hand_of, logged_in, seat_of

pytestmark = pytest.mark.django_db


def finish(match, *users):
    for user in users:
        services.set_standing_orders(
            match_id=match.pk, seat=seat_of(match, user), orders=["play-lowest"]
        )
    match.refresh_from_db()
    assert match.is_over


def test_each_step_shows_the_position_and_history_up_to_it(duel, anna, ben):
    client = logged_in(anna)
    first = hand_of(duel, anna)[0]
    services.submit_move(
        match_id=duel.pk,
        seat=seat_of(duel, anna),
        move={"type": "play", "card": first},
        source="web",
    )
    url = reverse("match_replay", args=[duel.pk])
    setup = client.get(url + "?n=0")
    assert setup.context["frame"].history == []
    assert f"[{first}]" in setup.content.decode()  # still in the hand at the setup
    after = client.get(url + "?n=1")
    assert len(after.context["frame"].history) == 1
    assert f"[{first}]" not in after.content.decode()


def test_out_of_range_steps_are_clamped(duel, anna):
    client = logged_in(anna)
    url = reverse("match_replay", args=[duel.pk])
    for n in ("-5", "999", "x"):
        response = client.get(url + f"?n={n}")
        assert response.status_code == 200


def test_after_the_end_every_view_is_revealed(duel, anna, ben, outsider):
    start_hands = {u.pk: hand_of(duel, u) for u in (anna, ben)}
    finish(duel, anna, ben)
    page = logged_in(outsider).get(reverse("match_replay", args=[duel.pk]) + "?n=0")
    text = page.content.decode()
    for hand in start_hands.values():
        assert "Your hand: " + " ".join(f"[{c}]" for c in hand) in text
    assert duel.seed in text
    match_page = logged_in(outsider).get(reverse("match_detail", args=[duel.pk])).content.decode()
    assert duel.seed in match_page
    assert "Result" in match_page


def test_an_open_match_has_nothing_to_replay(anna):
    match = services.create_match(creator=anna, game_slug="sealed-cards", players=2)
    response = logged_in(anna).get(reverse("match_replay", args=[match.pk]))
    assert response.status_code == 302


def bot_match(anna, slug: str, players: int):
    """A match of `slug` played to the end: Anna's seat played by the bot's choice."""
    import random

    from games import selectors
    from games.engine import get_game

    match = services.create_match(
        creator=anna, game_slug=slug, players=players, bots=players - 1, seed=f"replay-{slug}"
    )
    game, rng = get_game(slug), random.Random(1)
    mine = seat_of(match, anna)
    for _ in range(3000):
        match.refresh_from_db()
        if match.is_over:
            return match
        state = selectors.load_state(match)
        assert mine in game.to_act(state)
        services.submit_move(
            match_id=match.pk, seat=mine, move=game.bot_move(state, mine, rng), source="web"
        )
    raise AssertionError("the match did not end")


def test_the_replay_draws_the_board_and_after_the_end_a_score_chart(anna):
    match = bot_match(anna, "blankenburg", 2)
    client = logged_in(anna)
    page = client.get(reverse("match_replay", args=[match.pk]) + "?n=5").content.decode()
    assert page.count('aria-label="The town of Blankenburg"') == 3  # public and both seats
    assert f"<h2>{match.seats.get(user=anna).name} (you)</h2>" in page  # named as in history
    frame = client.get(reverse("match_replay", args=[match.pk])).context["frame"]
    assert frame.rounds[0][1] == 0 and len(frame.rounds) > 3
    assert 'id="score-chart"' in page and "<polyline" in page
    for line in frame.chart["lines"]:
        assert (
            line["final"]
            == match.result["scores"][
                [s.name for s in match.seats.order_by("number")].index(line["name"])
            ]
        )
    assert "js/replay.js" in page  # arrow keys and play (tested in the browser)


def test_the_history_lists_the_newest_move_first(duel, anna, ben):
    for user in (anna, ben):
        card = hand_of(duel, user)[0]
        services.submit_move(
            match_id=duel.pk,
            seat=seat_of(duel, user),
            move={"type": "play", "card": card},
            source="web",
        )
    page = logged_in(anna).get(reverse("match_detail", args=[duel.pk])).content.decode()
    history = page[page.index('id="history"') :]
    assert history.index('<li value="2">') < history.index('<li value="1">')


def test_the_admin_history_is_the_paged_move_log_and_the_replay_draws_boards(staff, anna):
    match = bot_match(anna, "nieuwstad", 2)
    client = logged_in(staff)
    history = client.get(reverse("admin:games_match_history", args=[match.pk]))
    assert history.status_code == 302
    assert history["Location"].endswith(f"?match__id__exact={match.pk}")
    log = client.get(history["Location"])
    assert log.status_code == 200 and log.context["cl"].result_count == match.head_seq
    assert log.context["cl"].list_per_page < match.head_seq  # paged
    change = client.get(reverse("admin:games_match_change", args=[match.pk])).content.decode()
    assert reverse("match_replay", args=[match.pk]) in change
    assert 'name="moves-0-payload"' not in change
    replay = client.get(reverse("admin:games_match_replay", args=[match.pk]) + "?n=10")
    text = replay.content.decode()
    assert text.count("<svg") >= 3 and "Seat 1: " in text and "Seat 0" not in text


@pytest.mark.parametrize(
    "slug, players, name",
    [("blankenburg", 2, "Turn"), ("nieuwstad", 2, "Round"), ("new-england", 3, "Round")],
)
def test_rounds_count_up_and_the_chart_runs_from_the_first_to_the_final_score(
    anna, slug, players, name
):
    import re

    from games.pages import LABEL_SPACING, timeline

    match = bot_match(anna, slug, players)
    rounds, scores = timeline(match)
    numbers = [number for number, _start in rounds]
    assert numbers == list(range(1, len(numbers) + 1)), numbers  # the game's own count
    assert [seq for _n, seq in rounds] == sorted({seq for _n, seq in rounds})
    assert [label for label, _p in scores] == numbers + ["end"]
    assert scores[0][1] == [0] * players  # the score at the start of round 1
    assert scores[-1][1] == match.result["scores"]

    client = logged_in(anna)
    page = client.get(reverse("match_replay", args=[match.pk]) + "?n=0").content.decode()
    select = page[page.index('<select id="jump-round"') : page.index("</select>")]
    labels = re.findall(r"<option [^>]*>([^<]*)</option>", select)
    assert labels == [str(n) for n in numbers] and len(set(labels)) == len(labels)
    assert f'<label for="jump-round">{name}</label>' in page

    chart = client.get(reverse("match_replay", args=[match.pk])).context["frame"].chart
    ticks = chart["ticks"]
    assert ticks[0]["label"] == 1 and ticks[-1]["label"] == "end"
    assert [t["label"] for t in ticks[:-1]] == sorted({t["label"] for t in ticks[:-1]})
    gaps = [b["x"] - a["x"] for a, b in zip(ticks, ticks[1:], strict=False)]
    assert min(gaps) >= LABEL_SPACING  # 12 px labels never overlap
    assert ticks[-1]["x"] + 12 <= chart["width"] <= 214  # the end is in the side column's box

    # Every game's final score as its parts, beside the chart and in the match's result.
    final = page[page.index('id="final-scores"') :]
    match_page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    for seat in match.seats.order_by("number"):
        score = match.result["scores"][seat.number]
        line = next(n for n in match.result["notes"] if n.startswith(f"{seat.name}: "))
        terms, total = line.split(": ", 1)[1].rsplit(" = ", 1)
        first, *rest = re.split(r" ([+-]) ", terms)
        signed = [int(first.split()[0])] + [
            int(term.split()[0]) * (1 if sign == "+" else -1)
            for sign, term in zip(rest[::2], rest[1::2], strict=True)
        ]
        assert sum(signed) == int(total) == score, line
        assert line in final and line in match_page


def test_a_crowded_chart_labels_fewer_rounds_and_a_very_long_one_pans():
    from games.pages import LABEL_SPACING, score_chart

    def chart(rounds):
        return score_chart(
            [(n, [n, 2 * n]) for n in range(1, rounds + 1)] + [("end", [9, 9])], ["A", "B"]
        )

    crowded = chart(20)
    assert crowded["width"] == 214
    labels = [t["label"] for t in crowded["ticks"]]
    assert labels[0] == 1 and labels[-1] == "end" and 2 < len(labels) < 16
    xs = [t["x"] for t in crowded["ticks"]]
    assert min(b - a for a, b in zip(xs, xs[1:], strict=False)) >= LABEL_SPACING
    assert chart(5)["ticks"] and [t["label"] for t in chart(5)["ticks"]] == [1, 2, 3, 4, 5, "end"]
    assert chart(80)["width"] > 214  # 6 px a round at least: the box pans


@pytest.mark.parametrize("slug, players", [("new-england", 3), ("blankenburg", 2)])
def test_the_final_scores_are_said_in_the_readers_language(anna, slug, players):
    """The stored result keeps the English; the page and the end mail say the game's notes
    again, in the reader's language."""
    from django.utils import translation

    from games.selectors import result_notes

    match = bot_match(anna, slug, players)
    english = [str(n) for n in match.result["notes"]]
    assert result_notes(match) == english
    with translation.override("de"):
        german = result_notes(match)
    assert len(german) == len(english) and german != english
    words = {"new-england": "aus Karten", "blankenburg": "Mehrheiten"}
    assert any(words[slug] in n for n in german), german
