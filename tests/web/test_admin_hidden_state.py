"""Staff see what their role allows (issue 32): view-only staff see the admin as a spectator
sees a match until it is over; the operator's view of hidden state needs the permission
games.view_hidden_state and is recorded, with its reason, each time it is opened.

The crawl follows every link of the admin, from its index, as view-only staff, over matches
in play of the three hosted games, and searches each page for the secrets of tests/hidden.py
(the game's own `secrets()` of the live position, and of the replayed one), the seed, and the
raw values of the live state that hold them (hands, decks, bag, bids, salts) and the raw
payloads of the log, written compactly so that any indentation of a JSON dump is found."""

import html
import json
import re
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import services
from games.engine import event_rng, get_game
from games.models import HiddenStateOpening, Match
from games.selectors import load_state, position_after
from notifications.models import Kind, Notification
from replies.models import InboundMessage
from tests.web.conftest import logged_in, make_user, secret_of, view_only_staff

pytestmark = pytest.mark.django_db
User = get_user_model()

# The raw parts of each game's state that hold secrets (besides the players' hands).
SECRET_KEYS = {
    "nieuwstad": ("deck", "forest"),
    "new-england": ("bag", "deck"),
    "blankenburg": (
        "basic_deck",
        "grand_deck",
        "citizen_deck",
        "visitor_deck",
        "event_deck",
        "salts",
        "bids",
    ),
}
IN_PLAY = [("nieuwstad", 2), ("new-england", 3), ("blankenburg", 3)]


def play(slug: str, players: int, until) -> Match:
    """A match of `slug` between people, played by the bots' choice until `until(state)`
    (or 60 moves), in play; a reply by mail and its answer for each seat that holds
    something, made of what that seat's turn mail shows it (its own secrets)."""
    game = get_game(slug)
    users = [make_user(f"{slug}{n}@example.com") for n in range(players)]
    match = services.create_match(
        creator=users[0],
        game_slug=slug,
        players=players,
        invite_emails=[u.email for u in users[1:]],
        seed=f"crawl-{slug}",
    )
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    for step in range(60):
        match.refresh_from_db()
        state = load_state(match)
        if step and until(state):
            break
        seat = match.to_act[0]
        move = game.bot_move(state, seat, event_rng(f"crawl-{slug}", match.head_seq))
        assert services.submit_move(match_id=match.pk, seat=seat, move=move, source="api").ok
    match.refresh_from_db()
    assert not match.is_over
    for seat, found in game.secrets(load_state(match)).items():
        if seat is None:
            continue
        quoted = "\n".join(f"> {line}" for line in found)
        inbound = InboundMessage.objects.create(
            message_id=f"<reply-{match.pk}-{seat}@example.com>",
            sender=users[seat].email,
            subject=f"Re: {match}",
            raw=f"pass\n\nOn Monday you wrote:\n{quoted}\n",
            outcome=f"Read: pass. {found[0]}",
            match=match,
            seat=seat,
        )
        Notification.objects.create(
            kind=Kind.ANSWER,
            dedupe_key=f"answer:{inbound.pk}",
            user=users[seat],
            address=users[seat].email,
            match=match,
            seat=seat,
            seq=match.head_seq,
            context={"summary": "Applied", "report": found, "answers": inbound.message_id},
            send_after=match.created_at,
        )
    return match


def bids_in(state) -> bool:
    return any(bid is not None for bid in state.get("bids", []))


def compact(text: str) -> str:
    return re.sub(r"\s+", "", html.unescape(text))


def raw_markers(match: Match, state) -> list[str]:
    """The state's secret values and the log's payloads as any JSON dump of them reads with
    its spaces taken out."""

    def dumped(key, value) -> str:
        return f'"{key}":' + json.dumps(value, separators=(",", ":"), sort_keys=True)

    found = [
        dumped(key, state[key])
        for key in SECRET_KEYS[match.game_slug]
        if state.get(key) and any(v is not None for v in state[key])
    ]
    found += [dumped("hand", p["hand"]) for p in state["players"] if p.get("hand")]
    found += [
        dumped("type", payload["type"])
        for payload in match.moves.values_list("payload", flat=True)
        if "type" in payload
    ]
    return [compact(marker) for marker in found]


def forbidden_in(match: Match, state) -> list[str]:
    secrets = get_game(match.game_slug).secrets(state)
    return [match.seed, *(s for found in secrets.values() for s in found)]


IGNORED_PARAMETERS = {"o", "_changelist_filters", "_facets", "_popup", "_to_field", "q"}
NOT_CRAWLED = ("/admin/logout/", "/admin/password_change/", "/admin/jsi18n/")


def admin_links(page: str, url: str) -> set[str]:
    found = set()
    for href in re.findall(r'href="([^"]+)"', page):
        link = urlsplit(urljoin(url, html.unescape(href)))
        if not link.path.startswith("/admin/") or link.path.startswith(NOT_CRAWLED):
            continue
        query = {k: v for k, v in parse_qs(link.query).items() if k not in IGNORED_PARAMETERS}
        found.add(link.path + ("?" + urlencode(query, doseq=True) if query else ""))
    return found


def crawl(client, start: str, limit: int = 4000) -> dict[str, str]:
    """Every admin page reachable from `start` by links: url -> text."""
    seen, queue, pages = {start}, [start], {}
    while queue:
        url = queue.pop()
        response = client.get(url)
        assert response.status_code in (200, 302, 403), (url, response.status_code)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        pages[url] = response.content.decode()
        for link in admin_links(pages[url], url) - seen:
            seen.add(link)
            queue.append(link)
        assert len(seen) < limit, "the crawl does not end"
    return pages


def test_view_only_staff_see_no_secret_of_a_match_in_play_on_any_admin_page():
    matches = [
        play(slug, players, bids_in if slug == "blankenburg" else lambda state: False)
        for slug, players in IN_PLAY
    ]
    HiddenStateOpening.objects.create(
        match=matches[0], username="root", reason="a player's report", seq=matches[0].head_seq
    )
    viewer = logged_in(view_only_staff())
    pages = crawl(viewer, reverse("admin:index"))
    for match in matches:
        for url in (
            reverse("admin:games_match_replay", args=[match.pk]),
            reverse("admin:games_match_change", args=[match.pk]),
        ):
            assert url in pages, f"the crawl did not reach {url}"
    models = {url.split("/")[3] for url in pages if url.count("/") > 3}
    assert {"match", "move", "notification", "inboundmessage", "hiddenstateopening"} <= models

    leaks, searched = [], 0
    for match in matches:
        state = load_state(match)
        forbidden = forbidden_in(match, state)
        markers = raw_markers(match, state)
        assert len(forbidden) > 1 and markers, match.game_slug
        for url, page in pages.items():
            text = html.unescape(page)
            shown = forbidden
            replayed = re.match(rf"/admin/games/match/{match.pk}/replay/\?n=(\d+)$", url)
            if replayed:
                shown = shown + forbidden_in(match, position_after(match, int(replayed[1])))
            leaks += [f"{url} shows {s!r}" for s in shown if s and s in text]
            squeezed = compact(page)
            leaks += [f"{url} shows {m!r}" for m in markers if m in squeezed]
            searched += 1
    assert leaks == []
    assert searched > 100
    assert sum("(hidden while the match is in play)" in p for p in pages.values()) > 10


def test_view_only_staff_can_neither_open_the_hidden_state_nor_export_a_match_in_play(duel):
    viewer = logged_in(view_only_staff())
    url = reverse("admin:games_match_open_hidden_state", args=[duel.pk])
    assert viewer.get(url).status_code == 403
    assert viewer.post(url, {"reason": "curious"}).status_code == 403
    exported = viewer.post(
        reverse("admin:games_match_changelist"),
        {"action": "export_json", "_selected_action": [duel.pk]},
        follow=True,
    )
    assert "Not exported" in exported.content.decode()
    assert "attachment" not in exported.get("Content-Disposition", "")
    assert not HiddenStateOpening.objects.exists()


def test_an_operator_opens_the_hidden_state_with_a_reason_and_it_is_recorded(
    staff, duel, anna, ben
):
    client = logged_in(staff)
    replay = reverse("admin:games_match_replay", args=[duel.pk])
    closed = client.get(replay).content.decode()
    assert secret_of(duel, anna) not in closed and "Raw state" not in closed
    opening_url = reverse("admin:games_match_open_hidden_state", args=[duel.pk])
    assert opening_url in closed
    assert client.post(opening_url, {"reason": ""}).status_code == 200  # a reason is required
    assert not HiddenStateOpening.objects.exists()

    opened = client.post(opening_url, {"reason": "Ben reports a card he never played"})
    assert opened["Location"] == replay
    opening = HiddenStateOpening.objects.get()
    assert (opening.user, opening.match, opening.seq) == (staff, duel, duel.head_seq)
    assert opening.reason == "Ben reports a card he never played"
    page = client.get(replay).content.decode()
    assert secret_of(duel, anna) in page and secret_of(duel, ben) in page
    assert "Raw state" in page and "open to you until" in page
    exported = client.post(
        reverse("admin:games_match_changelist"),
        {"action": "export_json", "_selected_action": [duel.pk]},
    )
    assert exported["Content-Disposition"] == f'attachment; filename="match-{duel.pk}.json"'

    # Another operator sees who opened it and why; the record cannot be changed.
    viewer = logged_in(view_only_staff())
    listing = viewer.get(reverse("admin:games_hiddenstateopening_changelist")).content.decode()
    assert "Ben reports a card he never played" in listing and staff.username in listing
    change = reverse("admin:games_hiddenstateopening_change", args=[opening.pk])
    viewer.post(change, {"reason": "nothing"})
    opening.refresh_from_db()
    assert opening.reason == "Ben reports a card he never played"
    # Another session of the same operator has not opened it.
    assert secret_of(duel, anna) not in logged_in(staff).get(replay).content.decode()


def test_once_the_match_is_over_view_only_staff_see_everything(anna):
    from tests.web.test_replay import bot_match

    match = bot_match(anna, "sealed-cards", 2)
    viewer = logged_in(view_only_staff())
    page = viewer.get(reverse("admin:games_match_replay", args=[match.pk]) + "?n=1")
    text = page.content.decode()
    assert "Raw state" in text and "Seat 2" in text
    first = match.moves.order_by("seq").first()
    move_page = viewer.get(reverse("admin:games_move_change", args=[first.pk])).content.decode()
    assert "(hidden while the match is in play)" not in move_page
    assert compact(json.dumps(first.payload)) in compact(move_page)
