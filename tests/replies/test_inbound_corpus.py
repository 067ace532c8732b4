"""The reply corpus: real clients' replies (tests/replies/corpus/messages, written by
corpus/make_corpus.py), each piped through `manage.py receive_email` as Postfix would, each
with the outcome a player or an operator expects (corpus/expectations.json)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from games.models import ChatMessage
from games.selectors import load_state
from notifications.models import Kind, Notification
from replies.models import InboundMessage
from replies.tokens import reply_address

from .conftest import start_match

CORPUS = Path(__file__).parent / "corpus"
EXPECTED = json.loads((CORPUS / "expectations.json").read_text())
LANGUAGES = {"en", "de", "fr", "nl", "es", "it", "pt", "sv", "da", "no", "pl", "cs"}


def pipe(monkeypatch, raw: bytes, recipient: str, sender: str) -> int:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    args = ["--recipient", recipient, "--sender", sender]
    try:
        call_command("receive_email", *args, stdout=io.StringIO(), stderr=io.StringIO())
    except SystemExit as stopped:
        return int(stopped.code)
    return 0


def test_the_corpus_covers_clients_languages_and_kinds():
    assert len(EXPECTED) >= 80
    clients = {e["client"].split(" (")[0] for e in EXPECTED.values()}
    assert len(clients) >= 8, clients
    assert LANGUAGES <= {e["language"] for e in EXPECTED.values()}
    statuses = {e.get("status") for e in EXPECTED.values()}
    assert {"done", "rejected", "dropped"} <= statuses
    for name in EXPECTED:
        assert (CORPUS / "messages" / f"{name}.eml").exists(), name


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_reply_from_the_corpus(name, anna, ben, settings, monkeypatch):
    expected = EXPECTED[name]
    for key, value in expected.get("settings", {}).items():
        setattr(settings, key, value)
    match = start_match(anna, ben)
    seat = match.seats.get(user=anna)
    hand = list(load_state(match)["hands"][seat.number])  # the menu lists the hand in order
    address = expected.get("recipient") or reply_address(match.pk, seat.number, seat.deadline_seq)
    sender = expected.get("sender", anna.email)
    raw = (CORPUS / "messages" / f"{name}.eml").read_bytes()
    raw = raw.replace(b"REPLY_ADDRESS", address.encode()).replace(b"SENDER", sender.encode())

    code = pipe(monkeypatch, raw, address, expected.get("envelope_sender", sender))

    assert code == expected.get("exit", 0)
    if code:
        assert not InboundMessage.objects.exists()
        return
    row = InboundMessage.objects.get()
    assert row.status == expected["status"], row.outcome
    assert expected.get("reason", "") in row.outcome
    played = [m.payload["card"] for m in match.moves.filter(seat=seat.number, source="email")]
    assert played == [hand[n - 1] for n in expected.get("moves", [])], row.outcome
    answers = list(Notification.objects.filter(kind=Kind.ANSWER))
    if expected["status"] == "done":
        [answer] = answers
        assert answer.address == anna.email
        assert answer.context["summary"].startswith(expected["subject"]), answer.context
        passed_over = [e for e in answer.context["report"] if e["line"] == "(not commands)"]
        assert bool(passed_over) == expected.get("passed_over", False), answer.context["report"]
        assert "Not applied" not in answer.context["summary"] or expected["subject"].startswith(
            "Not applied"
        )
        if expected.get("size_note"):
            assert "KB" in answer.context["intro"]
    elif expected.get("answered_to_player"):
        assert [a.address for a in answers] == [anna.email]
    else:
        assert answers == []
    said = list(ChatMessage.objects.values_list("text", flat=True))
    assert said == ([expected["say"]] if "say" in expected else [])
