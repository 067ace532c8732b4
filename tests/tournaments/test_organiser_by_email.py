"""The organiser's tools by email, end to end: a German organiser writes to the address the
tournament's page gives them (a new mail, as Thunderbird writes one), and replies to the
mail that tells them a seat let a deadline pass (a Thunderbird bottom-post); each command
does what the page's tool does, recorded with who and why, and one answer in German says
what came of each. A mail from anyone else, or to a forged address, changes nothing."""

from __future__ import annotations

import email
import re
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.utils import timezone

from games import services as games
from players.models import Preferences
from replies import inbound
from replies.models import InboundStatus
from replies.tokens import organiser_address
from tests.factories import make_user
from tests.replies.corpus.clients import THUNDERBIRD_ATTRIBUTION, flow, quote
from tournaments import services
from tournaments.models import Table, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)  # rounds follow on commit

# Words an answer in German must not hold (written here, not taken from the catalogue).
ENGLISH = re.compile(
    r"\b(the|your|is|are|stays|open|until|would|drawn|round|table|seat|offered|withdrawn|"
    r"cancelled|saved|command|write|found|page|record)\b",
    re.IGNORECASE,
)


def thunderbird(sender, to: str, own: str, *, answering=None) -> bytes:
    """A plain-text mail as German Thunderbird sends it (format=flowed): a new one, or a
    bottom-post under the quoted mail it answers, with a signature."""
    text = f"{own}\n\n-- \nOlga Organisatorin\nSchachclub Nordstadt\n"
    headers = [
        ("From", f"Olga Organisatorin <{sender}>"),
        ("To", to),
        ("Message-ID", f"<{uuid.uuid4()}@example.de>"),
        ("Date", email.utils.format_datetime(timezone.now())),
        ("User-Agent", "Mozilla Thunderbird"),
        ("Content-Language", "de-DE"),
        ("MIME-Version", "1.0"),
        ("Content-Type", "text/plain; charset=UTF-8; format=flowed"),
        ("Content-Transfer-Encoding", "8bit"),
    ]
    if answering is not None:
        said = THUNDERBIRD_ATTRIBUTION["de"].format(name="Postal Boards")
        text = f"{said}\n{quote(answering.body)}\n\n{text}"
        headers.append(("Subject", f"Re: {answering.subject}"))
        headers.append(("In-Reply-To", answering.extra_headers.get("Message-ID", "<x@y>")))
    else:
        headers.append(("Subject", "Turnier"))
    head = "".join(f"{name}: {value}\r\n" for name, value in headers)
    return head.encode() + b"\r\n" + flow(text).replace("\n", "\r\n").encode()


def answers(to: str) -> list:
    from notifications.outbox import send_due

    send_due()
    return [m for m in mail.outbox if m.to == [to]]


def answer_to(organiser, raw: bytes):
    """The answer mail to `raw` (the newest mail to the organiser after handling it)."""
    before = len(answers(organiser.email))
    row = inbound.receive_raw(raw)
    assert row.status == InboundStatus.DONE, row.outcome
    after = answers(organiser.email)
    assert len(after) == before + 1, row.outcome  # one answer for the mail
    return after[-1]


@pytest.fixture
def olga():
    user = make_user("Olga")
    Preferences.objects.create(user=user, language="de")
    return user


def test_an_organiser_runs_the_tournament_by_email(client, olga, time_machine, no_vacation_bank):
    t = services.create_tournament(
        organiser=olga,
        name="Nordstadt-Pokal",
        game_slug="sealed-cards",
        format="swiss",
        table_size=2,
        rounds=2,
        signup_until=timezone.now() + timedelta(days=1),
    )
    players = [make_user(name) for name in ("Anna", "Bram", "Cor", "Dirk", "Eva")]
    for user in players:
        services.join(t, user)

    # The address is on the tournament's page, for the organiser only.
    client.force_login(olga)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    address = organiser_address(t.pk, olga.pk)
    assert address in page
    client.force_login(players[0])
    assert address not in client.get(f"/tournaments/{t.pk}/").content.decode()

    # A new mail: the draw, sign-up two days longer, the description over two lines.
    end = t.signup_until
    answer = answer_to(
        olga,
        thunderbird(
            olga.email,
            address,
            "Hallo,\n\nAuslosung bitte\nverlängere 2 Tage: es haben sich noch Leute gemeldet\n"
            "beschreibe Hausregeln: freundlich bleiben.\nKeine Bots.\n\nDanke!",
        ),
    )
    t.refresh_from_db()
    assert t.signup_until == end + timedelta(days=2)
    assert t.description == "Hausregeln: freundlich bleiben.\nKeine Bots."
    extended = t.actions.get(action__startswith="extended sign-up")
    assert extended.by == str(olga) and extended.reason == "es haben sich noch Leute gemeldet"
    body = answer.body
    assert "Runde 1 würde jetzt so ausgelost:" in body and "Tisch 1: " in body
    assert "Freilos: " in body  # five players at tables of two
    assert "Die Anmeldung bleibt offen bis" in body and "Die Beschreibung ist gespeichert." in body
    assert answer.reply_to == [address]  # the answer can be answered
    own = body.split("\n-- \n")[0]
    assert not ENGLISH.search(own.replace(t.name, "")), own

    # A reason is asked for, and nothing changes without one.
    answer = answer_to(olga, thunderbird(olga.email, address, "verlängere 3"))
    t.refresh_from_db()
    assert t.signup_until == end + timedelta(days=2) and "warum" in answer.body.lower()

    # Started; a player lets a deadline pass: the organiser is told, with the lines to reply.
    services.start(t.pk, by=str(olga), reason="genug Leute")
    match = Table.objects.filter(round__tournament=t).first().match
    seat = match.seats.get(number=match.to_act[0])
    late = seat.name
    time_machine.move_to(seat.deadline_at + timedelta(minutes=1))
    games.enforce_timeout(match_id=match.pk, seat=seat.number, deadline_seq=seat.deadline_seq)
    (told,) = [m for m in answers(olga.email) if "Frist" in m.subject]
    assert told.reply_to == [address] and late in told.body
    assert f"biete an {match.pk} {late}" in told.body

    # A bottom-post under that mail offers the seat, with the line as the mail wrote it.
    answer = answer_to(
        olga,
        thunderbird(olga.email, address, f"biete an {match.pk} {late}", answering=told),
    )
    seat.refresh_from_db()
    assert seat.takeover_offered_at is not None
    offered = t.actions.get(action__startswith="offered seat")
    assert offered.by == str(olga)
    assert late in answer.body and "Ersatz" in answer.body

    # Someone else writing to the organiser's address changes nothing and is not answered.
    row = inbound.receive_raw(thunderbird(players[2].email, address, "absagen Ich mag nicht mehr"))
    assert row.status == InboundStatus.REJECTED
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    # Nor does an address whose signature was made up, from the organiser's own address.
    forged = address.replace(address.split("-")[-1].split("@")[0], "0" * 16)
    row = inbound.receive_raw(thunderbird(olga.email, forged, "absagen weg damit"))
    assert row.status == InboundStatus.REJECTED
    assert Tournament.objects.get(pk=t.pk).status == TournamentStatus.RUNNING

    # Withdraw a player, say why; a mail with no command gets the list of commands.
    leaver = next(u for u in players if u.first_name != late)
    said = f"ziehe zurück {leaver.first_name}, sie ist verschwunden"
    answer_to(olga, thunderbird(olga.email, address, said))
    assert t.entries.get(user=leaver).withdrawn_at is not None
    assert t.actions.get(action__startswith="withdrew").reason == "sie ist verschwunden"
    answer = answer_to(olga, thunderbird(olga.email, address, "Wie geht das?"))
    assert "Auslosung" in answer.body and "biete an 83 Anna" in answer.body

    # Cancel: the matches in play are abandoned; the record holds every step, by email too.
    answer_to(olga, thunderbird(olga.email, address, "sage ab Der Saal ist geschlossen."))
    t.refresh_from_db()
    assert t.status == TournamentStatus.CANCELLED
    assert t.actions.get(action="cancelled").reason == "Der Saal ist geschlossen."
    kinds = sorted(a.action.split(" ")[0] for a in t.actions.all())
    assert kinds == ["cancelled", "edited", "extended", "offered", "started", "withdrew"]


def test_a_name_that_fits_two_entrants_is_asked_again(olga):
    t = services.create_tournament(
        organiser=olga,
        name="Zwei Annas",
        game_slug="sealed-cards",
        format="swiss",
        table_size=2,
        rounds=1,
        signup_until=timezone.now() + timedelta(days=1),
    )
    for first, last in (("Anna", "Berg"), ("Anna", "Tal"), ("Cor", "Dam")):
        address = f"{first}.{last}@example.com".lower()
        services.join(
            t, User.objects.create_user(address, address, "x", first_name=first, last_name=last)
        )
    address = organiser_address(t.pk, olga.pk)
    answer = answer_to(olga, thunderbird(olga.email, address, "ziehe zurück Anna hat abgesagt"))
    assert "Anna Berg" in answer.body and "Anna Tal" in answer.body
    assert not t.entries.filter(withdrawn_at__isnull=False).exists()
    assert not t.actions.exists()


def test_a_nul_in_a_description_by_mail_is_left_out(olga):
    t = services.create_tournament(
        organiser=olga, name="Nul", game_slug="sealed-cards", format="swiss",
        table_size=2, rounds=1, signup_until=timezone.now() + timedelta(days=1),
    )  # fmt: skip
    answer = answer_to(
        olga, thunderbird(olga.email, organiser_address(t.pk, olga.pk), "beschreibe A\x00B")
    )
    t.refresh_from_db()
    assert t.description == "AB" and "gespeichert" in answer.body
