"""Negotiating a community building through the real doors: the match page's buttons and
typed form, and replies by email through the inbound path. The match starts at a prepared
table (a test game whose setup skips the opening) so the log holds only the negotiation."""

import secrets
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import register
from games.rules.nieuwstad import NieuwstadV2
from games.rules.nieuwstad import geometry as B
from games.rules.nieuwstad import rules as R
from games.selectors import load_state
from notifications import outbox
from replies import inbound
from replies.models import InboundStatus
from replies.tokens import reply_address
from tests.factories import make_user

pytestmark = pytest.mark.django_db


class BuildersTable(NieuwstadV2):
    """Three players at the first choice of a character, 5 guilders and 5 wood each, D3 (by
    the Market) and A1 cleared."""

    slug = "nieuwstad-builders-table"
    title = "Nieuwstad: the Master Builder's table"
    min_players = max_players = 3

    def setup(self, players, options, rng):
        state = super().setup(players, options, rng)
        R.start_round(state)
        state["news"] = []
        geo = B.geometry(state["board"])
        for cell in ("D3", "A1"):
            state["forest"].pop(geo.partner[cell], None)
            state["forest"].pop(cell, None)
        for player in state["players"]:
            player["guilders"] = player["wood"] = 5
        return state


GAME = BuildersTable()


@pytest.fixture(autouse=True)
def registered(settings, tmp_path):
    from games.engine import registry

    settings.REPLY_DOMAIN = "reply.example.org"
    settings.SITE_URL = "https://boards.example.org"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.LOCAL_MAILBOX_DIR = tmp_path / "mailbox"
    settings.CELERY_BROKER_URL = "memory://"
    register(GAME)
    yield
    del registry._games[GAME.slug]  # other tests iterate over every registered game


@pytest.fixture
def table():
    people = [make_user(name) for name in ("Cor", "Emily", "Bram")]
    match = services.create_match(
        creator=people[0],
        game_slug=GAME.slug,
        players=3,
        invite_emails=[p.email for p in people[1:]],
    )
    for person in people[1:]:
        services.join_match(match_id=match.pk, user=person)
    match.refresh_from_db()
    names = load_state(match)["names"]
    by_seat = {s.number: s.user for s in match.seats.select_related("user")}
    return match, names, by_seat


def state_of(match) -> dict:
    match.refresh_from_db()
    return load_state(match)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(match, user, command: str):
    match.refresh_from_db()
    response = logged_in(user).post(
        reverse("match_move", args=[match.pk]),
        {"command": command, "seq": match.head_seq, "token": secrets.token_urlsafe(12)},
        follow=True,
    )
    assert response.status_code == 200
    return response.content.decode()


def email(match, seat: int, user, body: str):
    match.refresh_from_db()
    row = match.seats.get(number=seat)
    address = reply_address(match.pk, seat, row.deadline_seq)
    message = EmailMessage()
    message["From"] = user.email
    message["To"] = address
    message["Subject"] = "Re: your turn"
    message["Message-ID"] = make_msgid(domain="player.example")
    message.set_content(f"{body}\n\nOn Monday, Postal Boards wrote:\n> It is your turn.\n")
    handled = inbound.receive_raw(message.as_bytes(), recipient=address)
    assert handled.status == InboundStatus.DONE, handled.outcome
    return handled.outcome


def test_uneven_shares_and_a_counter_offer_on_the_web(table):
    match, names, user = table
    post(match, user[0], "master builder")
    page = post(
        match,
        user[0],
        f"propose hospice at D3 facing south: {names[0]} pays 3 g and 0 wood for 1 point, "
        f"{names[1]} pays 0 g and 4 wood for 3 points",
    )
    assert "Applied: propose hospice" in page
    page = logged_in(user[1]).get(reverse("match_detail", args=[match.pk])).content.decode()
    assert f"{names[1]} pays 0 g and 4 wood for 3 point(s)" in page
    assert 'data-target="cmd:accept"' in page  # the choices built on the board
    assert 'data-target="cmd:counter with an even split"' in page
    page = post(
        match,
        user[1],
        f"counter: {names[0]} pays 2 g and 2 wood for 2 points, {names[1]} pays 1 g and 2 "
        "wood for 2 points",
    )
    assert "Applied: counter" in page
    assert state_of(match)["pending"]["offered_by"] == 1
    post(match, user[0], "accept")
    state = state_of(match)
    assert state["cells"]["D3"] and state["pending"] is None
    assert [(p["guilders"], p["wood"], p["points"]) for p in state["players"][:2]] == [
        (3, 3, 2),
        (4, 3, 2),
    ]
    sources = list(match.moves.values_list("source", flat=True))
    assert sources == ["web"] * 4


def test_a_proposal_declined_by_email_and_the_help_answer(table):
    match, names, user = table
    assert "Applied" in email(match, 0, user[0], "master builder")
    outcome = email(
        match,
        0,
        user[0],
        f"propose hospice at D3 facing south: {names[0]} pays 1 g and 1 wood for 2 points, "
        f"{names[1]} pays 1 g and 2 wood for 1 point, {names[2]} pays 1 g and 1 wood for 1 "
        "point",
    )
    assert "Applied" in outcome
    outbox.send_due()
    turn = [m for m in mail.outbox if user[1].email in m.to][-1]
    assert f"{names[1]} pays 1 g and 2 wood for 1 point(s)" in turn.body
    assert "counter" in turn.body
    outcome = email(
        match,
        1,
        user[1],
        f"counter: {names[0]} pays 2 g and 1 wood for 2 points, {names[1]} pays 0 g and 2 wood "
        f"for 1 point, {names[2]} pays 1 g and 1 wood for 1 point",
    )
    assert "Applied" in outcome
    assert "Applied" in email(match, 2, user[2], "decline")
    state = state_of(match)
    assert state["pending"] is None and "D3" not in state["cells"]
    assert R.to_act(state) == [0]  # the proposer's turn goes on
    assert [p["guilders"] for p in state["players"]] == [5, 5, 5]
    email(match, 0, user[0], "help")
    outbox.send_due()
    answer = [m for m in mail.outbox if user[0].email in m.to][-1]
    assert "counter:" in answer.body


def test_a_counter_offer_by_email_when_the_menu_offers_none(table):
    """The proposal is the menu's even split, so the menu has no counter-offer; the counter
    typed as the email words it is still a command (it was 'No command found')."""
    match, names, user = table
    email(match, 0, user[0], "master builder")
    assert "Applied" in email(
        match, 0, user[0], f"propose hospice at D3 facing south with {names[1]}"
    )
    state = state_of(match)
    assert not R.counter_moves(state, 1) and R.to_act(state) == [1]
    counter = (
        f"counter: {names[0]} pays 3 g and 1 wood for 2 points, {names[1]} pays 0 g and 3 wood "
        "for 2 points"
    )
    outcome = email(match, 1, user[1], counter)
    assert outcome.startswith(f"{counter[:80]}: Applied"), outcome
    assert state_of(match)["pending"]["offered_by"] == 1


@pytest.mark.parametrize(("word", "answer"), [("Yes", "accept"), ("No", "decline")])
def test_one_word_answers_a_proposal_by_email(table, word, answer):
    match, names, user = table
    email(match, 0, user[0], "master builder")
    email(match, 0, user[0], f"propose hospice at D3 facing south with {names[1]}")
    outcome = email(match, 1, user[1], word)
    assert outcome == f"{word}: Applied: {answer}.", outcome


def test_a_counter_offer_wrapped_over_lines_by_the_mail_client(table):
    """Clients wrap long lines: the shares on the second line belong to the counter-offer
    (alone, the first line names one share and is refused, never half applied)."""
    match, names, user = table
    email(match, 0, user[0], "master builder")
    email(match, 0, user[0], f"propose hospice at D3 facing south with {names[1]}")
    outcome = email(
        match,
        1,
        user[1],
        f"counter: {names[0]} pays 3 g and 1 wood for 2 points,\n{names[1]} pays 0 g and\n"
        "3 wood for 2 points\n\nRegards",
    )
    assert ": Applied: counter" in outcome, outcome
    split = state_of(match)["pending"]["split"]
    assert (split["1"]["wood"], split["1"]["points"]) == (3, 2)
