"""Channels, push subscriptions and feeds, tried as an attacker would (issue 43, items 1-3):
a channel's address is shown only to who connected it, the tournament's organiser and staff
with the permission, and to them only masked; a stranger does not learn that a private
match has channels (or exists); a channel is removed only by who connected it, the organiser
or staff; nothing a player writes mentions anyone in a channel; a browser's subscription
stays with the account that made it."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import Permission, User

from games.chat import post_message
from notifications import outbox
from notifications.hooks import add_hook
from notifications.models import MatchHook, Notification, PushSubscription
from notifications.transports import webhook_payload
from tests.tournaments.test_tournaments import make_swiss
from tournaments import services as tournament_services
from tournaments.hooks import add_tournament_hook

from .conftest import start_match
from .test_push import PushService, browser_subscription, subscribe
from .test_push import endpoint as endpoint  # noqa: F401 (a fixture)
from .test_webhooks import Hook

pytestmark = pytest.mark.django_db

# Secret-looking paths: what lets anyone post to the channel.
DISCORD = "https://127.0.0.1:9/api/webhooks/123456789/SECRET-discord-token-AbCdEfGh"
SLACK = "https://127.0.0.1:9/services/T000/B000/SECRET-slack-token-XyZw"
JSON_HOOK = "https://127.0.0.1:9/private/SECRET-json-endpoint-path-QrSt"
SECRETS = ("SECRET", "123456789", "T000/B000", "/private/")


def user(name: str, **extra) -> User:
    return User.objects.create_user(name, f"{name}@example.org", "pw", first_name=name, **extra)


def shown(client, who: User | None, url: str) -> tuple[int, str]:
    client.logout()
    if who is not None:
        client.force_login(who)
    response = client.get(url)
    return response.status_code, response.content.decode()


@pytest.fixture
def private_world(settings, anna, ben):
    """A private match of Anna's and Ben's with a channel of each, a tournament with its
    organiser's channel and an entrant's, and the people who look at them."""
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True  # the addresses are on loopback
    match = start_match(anna, ben, watchable=False)
    anna_hook = add_hook(match, anna, DISCORD, "discord")
    ben_hook = add_hook(match, ben, SLACK, "slack", chat=True)
    t, entrants = make_swiss(players=4, rounds=2)
    tournament_services.join(t, entrants[0])
    organiser_hook = add_tournament_hook(t, t.organiser, JSON_HOOK, "json")
    entrant_hook = add_tournament_hook(t, entrants[0], SLACK + "2", "slack")
    staff = user("staffer", is_staff=True)  # staff, without the channels' permissions
    keeper = user("keeper", is_staff=True)
    keeper.user_permissions.add(
        *Permission.objects.filter(
            codename__in=[
                "view_matchhook",
                "change_matchhook",
                "view_tournamenthook",
                "change_tournamenthook",
            ]
        )
    )
    return {
        "match": match,
        "hooks": (anna_hook, ben_hook),
        "tournament": t,
        "entrants": entrants,
        "tournament_hooks": (organiser_hook, entrant_hook),
        "stranger": user("stranger"),
        "staff": staff,
        "keeper": keeper,
    }


def test_a_stranger_and_staff_without_the_permission_find_no_channels_page(client, private_world):
    w = private_world
    match_page = f"/n/matches/{w['match'].pk}/hooks/"
    tournament_page = f"/tournaments/{w['tournament'].pk}/hooks/"
    for who in (w["stranger"], w["staff"]):
        assert shown(client, who, match_page)[0] == 404  # the private match is not revealed
    for who in (w["stranger"], w["staff"], w["entrants"][3]):  # [3] has not signed up
        assert shown(client, who, tournament_page)[0] == 404


def test_each_person_sees_only_the_masked_addresses_of_channels_they_may_manage(
    client, private_world, anna, ben
):
    w = private_world
    anna_hook, ben_hook = w["hooks"]
    match_page = f"/n/matches/{w['match'].pk}/hooks/"
    status, page = shown(client, anna, match_page)
    assert status == 200
    assert not any(secret in page for secret in SECRETS)  # masked, even to who connected it
    assert "…" + DISCORD[-4:] in page  # her own: its host and last characters
    assert "…" + SLACK[-4:] not in page  # Ben's: not even masked
    assert "Slack" in page and "Ben" in page  # but its kind and who connected it
    assert page.count('name="action" value="remove"') == 1  # only her own to remove
    status, page = shown(client, w["keeper"], match_page)
    assert status == 200 and not any(secret in page for secret in SECRETS)
    assert "…" + DISCORD[-4:] in page and "…" + SLACK[-4:] in page
    t_page = f"/tournaments/{w['tournament'].pk}/hooks/"
    organiser_hook, entrant_hook = w["tournament_hooks"]
    status, page = shown(client, w["tournament"].organiser, t_page)
    assert status == 200 and not any(secret in page for secret in SECRETS)
    assert "…" + JSON_HOOK[-4:] in page and "…" + entrant_hook.url[-4:] in page
    status, page = shown(client, w["entrants"][0], t_page)
    assert status == 200 and not any(secret in page for secret in SECRETS)
    assert "…" + entrant_hook.url[-4:] in page and "…" + JSON_HOOK[-4:] not in page


def remove(client, who: User, page: str, hook_id) -> None:
    client.logout()
    client.force_login(who)
    client.post(page, {"action": "remove", "hook": hook_id})


def test_a_channel_is_removed_only_by_who_connected_it_the_organiser_or_staff(
    client, private_world, anna, ben
):
    w = private_world
    anna_hook, ben_hook = w["hooks"]
    match_page = f"/n/matches/{w['match'].pk}/hooks/"
    remove(client, ben, match_page, anna_hook.pk)  # a fellow player: refused
    remove(client, w["stranger"], match_page, anna_hook.pk)  # 404 before anything is read
    remove(client, w["staff"], match_page, anna_hook.pk)
    assert MatchHook.objects.filter(pk=anna_hook.pk).exists()
    remove(client, anna, match_page, anna_hook.pk)
    remove(client, w["keeper"], match_page, ben_hook.pk)
    assert not MatchHook.objects.filter(match=w["match"]).exists()
    t_page = f"/tournaments/{w['tournament'].pk}/hooks/"
    organiser_hook, entrant_hook = w["tournament_hooks"]
    remove(client, w["entrants"][0], t_page, organiser_hook.pk)  # an entrant: refused
    assert w["tournament"].hooks.filter(pk=organiser_hook.pk).exists()
    remove(client, w["tournament"].organiser, t_page, entrant_hook.pk)  # the organiser may
    assert not w["tournament"].hooks.filter(pk=entrant_hook.pk).exists()


@pytest.mark.parametrize("number", ["²", "①", "-1", "1e3", "9" * 5000, "\u200f7", "", "٣٣٣٣٣"])
def test_a_strange_number_in_a_removal_gets_an_answer_and_removes_nothing(
    client, private_world, anna, number
):
    w = private_world
    match_page = f"/n/matches/{w['match'].pk}/hooks/"
    client.force_login(anna)
    response = client.post(match_page, {"action": "remove", "hook": number})
    assert response.status_code == 302
    assert MatchHook.objects.filter(match=w["match"]).count() == 2
    client.force_login(w["stranger"])  # a stranger's is a 404, whatever the number
    assert client.post(match_page, {"action": "remove", "hook": number}).status_code == 404


def test_digits_of_another_script_read_as_their_value(client, private_world, anna):
    """One reading of numbers everywhere: fullwidth or Arabic-Indic digits are the number."""
    w = private_world
    anna_hook = w["hooks"][0]
    fullwidth = "".join(chr(0xFF10 + int(d)) for d in str(anna_hook.pk))
    client.force_login(anna)
    client.post(f"/n/matches/{w['match'].pk}/hooks/", {"action": "remove", "hook": fullwidth})
    assert not MatchHook.objects.filter(pk=anna_hook.pk).exists()


LIVE = ["@everyone", "@here", "<!channel>", "<!here>", "<@123>", "<@U024BE7LH>"]
HOSTILE = " ".join(LIVE + ["]]>", "[click](https://evil.example/x)", "*b* _i_ `c`"])


def live_discord(content: str) -> list[str]:
    """What Discord would read as a mention or a masked link in `content`: an unescaped @ or
    <, or a [text](url) whose brackets are not escaped."""
    found = re.findall(r"(?<!\\)@\w+|(?<!\\)<[@!#][^>]*>", content)
    found += re.findall(r"(?<!\\)\[[^\]]*(?<!\\)\]\((?!\\)", content)
    return found


def live_slack(text: str) -> list[str]:
    return re.findall(r"<[^>]*>", text)  # every Slack control is written between < and >


@pytest.mark.parametrize("kind", ["discord", "slack", "json", ""])
def test_nothing_a_player_writes_is_live_in_any_channel(settings, anna, ben, kind):
    """A player named with mentions, chatting mentions and links: each channel's body, as
    it is posted, mentions nobody and links nowhere but the match."""
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    import threading
    from http.server import HTTPServer

    server = HTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Hook.received, Hook.status = [], 204
    try:
        anna.first_name = "@everyone <!channel> [me](https://evil.example/y)"
        anna.save()
        if not kind:  # a player's own webhook (preferences): Discord or Slack, we cannot tell
            from players.models import Preferences

            Preferences.objects.update_or_create(
                user=ben, defaults={"webhook_url": f"http://127.0.0.1:{server.server_port}/h"}
            )
        match = start_match(anna, ben)
        if kind:
            add_hook(match, ben, f"http://127.0.0.1:{server.server_port}/h", kind, chat=True)
        match.refresh_from_db()  # as a request reads it: channels connected
        post_message(match=match, user=anna, text=HOSTILE)
        post_message(match=match, user=ben, text="ok " + HOSTILE)
        outbox.send_due()
    finally:
        server.shutdown()
    assert Hook.received, Notification.objects.values_list("kind", "status", "last_error")
    for body in Hook.received:
        if kind == "json":
            assert set(body) >= {"match", "text"}  # the facts, the text as it was written
            continue
        assert body["allowed_mentions"] == {"parse": []}
        assert live_discord(body["content"]) == [], body["content"]
        assert live_slack(body["text"]) == [], body["text"]
        for block in body.get("blocks", []):
            assert block.get("text", {}).get("type", "plain_text") == "plain_text"
    if kind in ("discord", "slack"):
        assert any("everyone" in b["content"] for b in Hook.received)  # said, not live


def test_the_payload_escapes_each_hostile_string():
    payload = webhook_payload(f"Sealed Cards #4, {HOSTILE}: hi", "discord")
    assert payload["allowed_mentions"] == {"parse": []}
    assert live_discord(payload["content"]) == [] and live_slack(payload["text"]) == []
    assert live_discord(HOSTILE) and live_slack(HOSTILE)  # the checks see them unescaped
    assert "#4" in payload["content"]  # a '#' inside a line is no heading: left as it is
    assert webhook_payload("# big\n- list", "discord")["content"] == "\\# big\n\\- list"


def test_another_accounts_push_endpoint_is_refused_and_its_owner_still_receives(
    client,
    anna,
    ben,
    endpoint,  # noqa: F811
):
    subscribe(client, anna, endpoint)
    client.force_login(ben)
    response = client.post(
        "/n/push/subscribe/", json.dumps(browser_subscription(endpoint)), "application/json"
    )
    assert response.status_code == 409 and "another account" in response.json()["error"]
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["anna"]
    start_match(anna, ben)
    outbox.send_due()
    assert len(PushService.received) == 1  # Anna's turn, to Anna's browser
    subscribe(client, anna, endpoint)  # the owner's browser subscribing again is fine


def test_the_guard_holds_with_debug_on(settings):
    """A server left on its defaults (DJANGO_DEBUG on) still refuses private addresses."""
    from notifications.transports import check_webhook_url

    settings.DEBUG = True
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = False
    for url in (
        "http://127.0.0.1:8000/",
        "https://10.0.0.5/x",
        "https://[::1]/",
        "https://localhost/",
    ):
        assert check_webhook_url(url), url


def test_no_page_shows_another_persons_channel_push_endpoint_or_feed_token(
    client,
    private_world,
    anna,
    ben,
    endpoint,  # noqa: F811
):
    """Every page of the channels, the preferences, the match and the tournament, and the
    operators' list of notifications, as each person who might look: none shows a channel's
    token, another's push endpoint or another's feed address (not even to who owns them, a
    channel's; the owner sees their own feed, which is theirs to copy)."""
    from notifications.models import FeedToken
    from players.models import Preferences

    w = private_world
    subscribe(client, anna, endpoint)
    anna_feed = FeedToken.objects.create(user=anna).token
    own_hook = "https://127.0.0.1:9/anna-own-webhook"  # her preferences: hers to edit
    Preferences.objects.filter(user=anna).update(webhook_url=own_hook)
    post_message(match=w["match"], user=anna, text="hello")  # channel rows for the admin
    operator = user("operator", is_staff=True)
    operator.user_permissions.add(*Permission.objects.filter(codename="view_notification"))
    t = w["tournament"]
    pages = [
        "/n/preferences/",
        f"/n/matches/{w['match'].pk}/hooks/",
        f"/tournaments/{t.pk}/hooks/",
        f"/matches/{w['match'].pk}/",
        f"/tournaments/{t.pk}/",
        "/lobby/",
        "/admin/notifications/notification/",
    ]
    pages += [
        f"/admin/notifications/notification/{pk}/change/"
        for pk in Notification.objects.values_list("pk", flat=True)
    ]
    others_secrets = [*SECRETS, endpoint, anna_feed, own_hook]
    people = [
        ben,
        w["stranger"],
        w["staff"],
        w["keeper"],
        operator,
        t.organiser,
        w["entrants"][0],
        anna,
    ]
    seen = 0
    for person in people:
        for page in pages:
            status, body = shown(client, person, page)
            if status != 200:
                continue
            seen += 1
            secrets = others_secrets if person != anna else SECRETS
            leaked = [s for s in secrets if s in body]
            where = max(0, body.find(leaked[0]) - 300) if leaked else 0
            assert not leaked, (person.username, page, leaked, body[where : where + 400])
    assert seen > len(people)  # the pages were read, not all refused
