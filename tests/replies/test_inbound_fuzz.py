"""Hypothesis fuzz of the inbound path through its real entry points (the pipe's
receive_raw and the ESP webhook): random bytes, random headers, random MIME trees. Never an
exception, every row terminal, nothing applied unless the token and the sender are right."""

from __future__ import annotations

import base64
import json
import quopri

import pytest
from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replies import inbound
from replies.models import InboundMessage, InboundStatus
from replies.tokens import reply_address

from .conftest import start_match

pytestmark = pytest.mark.django_db
FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TERMINAL = {InboundStatus.DONE, InboundStatus.REJECTED, InboundStatus.DROPPED}
CHARSETS = ["utf-8", "us-ascii", "iso-8859-1", "windows-1252", "iso-8859-8-i", "x-unknown-8bit",
            "bogus", "base64", "utf-16", "utf-7", "koi8-r", "gb2312", ""]  # fmt: skip
HEADER_NAMES = ["From", "To", "Cc", "Subject", "Message-ID", "Content-Type", "Auto-Submitted",
                "Precedence", "Authentication-Results", "Content-Transfer-Encoding",
                "Delivered-To", "X-Anything", "Return-Path", "MIME-Version"]  # fmt: skip
header_text = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=80
) | st.sampled_from(["=?utf-8?q?Anna=0D=0AExample?= <anna@example.com>", "=?bogus?b?!!?=",
                     "<>", "multipart/mixed; boundary=", "text/plain; charset=x-unknown-8bit",
                     "auto-replied", "no", "mx.example; dmarc=fail"])  # fmt: skip


@pytest.fixture
def world(anna, ben):
    match = start_match(anna, ben)
    seat = match.seats.get(user=anna)
    return match, anna, reply_address(match.pk, seat.number, seat.deadline_seq)


def encoded(text: str, charset: str, cte: str) -> bytes:
    try:
        data = text.encode(charset or "utf-8")
    except Exception:
        data = text.encode("utf-8", "replace")
    if cte == "base64":
        return base64.encodebytes(data)
    if cte == "quoted-printable":
        return quopri.encodestring(data)
    return data


@st.composite
def mime_tree(draw, depth: int = 0) -> bytes:
    if depth < 3 and draw(st.booleans()):
        boundary = draw(st.sampled_from(["b1", "b2", "==x==", "", "b1"]))
        subtype = draw(st.sampled_from(["mixed", "alternative", "related", "report", "digest"]))
        children = draw(st.lists(mime_tree(depth + 1), max_size=3))
        body = b"".join(b"--" + boundary.encode() + b"\r\n" + c + b"\r\n" for c in children)
        closing = draw(st.booleans())
        return (
            f'Content-Type: multipart/{subtype}; boundary="{boundary}"\r\n\r\n'.encode()
            + body
            + (b"--" + boundary.encode() + b"--\r\n" if closing else b"")
        )
    kind = draw(st.sampled_from(["text/plain", "text/html", "message/rfc822", "image/png"]))
    charset = draw(st.sampled_from(CHARSETS))
    cte = draw(st.sampled_from(["7bit", "8bit", "base64", "quoted-printable", "x-uuencode"]))
    flowed = "; format=flowed; delsp=yes" if draw(st.booleans()) else ""
    text = draw(st.sampled_from(["1", "play 6", "say hi", "> quoted", "On Mon, X wrote:"]))
    text += "\n" + draw(st.text(max_size=120))
    if kind == "text/html":
        text = f"<html><head><style>p{{}}</style></head><body><p>{text}</p></body></html>"
    return (
        f"Content-Type: {kind}; charset={charset}{flowed}\r\n"
        f"Content-Transfer-Encoding: {cte}\r\n\r\n".encode()
        + encoded(text, charset, cte)
    )


def check(row, match, moves_before: int, trusted: bool) -> None:
    row.refresh_from_db()
    assert row.status in TERMINAL, (row.status, row.outcome)
    if not trusted:
        assert match.moves.count() == moves_before


@FUZZ
@given(raw=st.binary(max_size=2000))
def test_random_bytes_through_the_pipe(world, raw):
    match, anna, address = world
    before = match.moves.count()
    row = inbound.receive_raw(raw, recipient="", sender=None)
    check(row, match, before, trusted=False)


@FUZZ
@given(
    headers=st.lists(st.tuples(st.sampled_from(HEADER_NAMES), header_text), max_size=12),
    body=st.binary(max_size=300) | st.sampled_from([b"1\r\n", b"play 6\r\n"]),
    real_token=st.booleans(),
    real_sender=st.booleans(),
)
def test_random_headers(world, headers, body, real_token, real_sender):
    match, anna, address = world
    before = match.moves.count()
    top = [("From", anna.email if real_sender else "mallory@evil.example")]
    top.append(("To", address if real_token else "play+m1-s0-p1-0000000000000000@x.example"))
    lines = "".join(f"{name}: {value}\r\n" for name, value in top + headers)
    raw = lines.encode("utf-8", "surrogateescape") + b"\r\n" + body
    row = inbound.receive_raw(raw, recipient=address if real_token else "")
    # Headers may add a second From; only one that is Anna's alone and a valid token count.
    froms = [v for n, v in top + headers if n == "From"]
    check(row, match, before, trusted=real_token and froms == [anna.email])


@FUZZ
@given(tree=mime_tree(), real_token=st.booleans(), real_sender=st.booleans())
def test_random_mime_trees(world, tree, real_token, real_sender):
    match, anna, address = world
    before = match.moves.count()
    sender = anna.email if real_sender else "mallory@evil.example"
    raw = (
        f"From: {sender}\r\nTo: {address if real_token else 'play+nothing@x.example'}\r\n"
        "Subject: Re: your turn\r\nMIME-Version: 1.0\r\n"
    ).encode() + tree
    row = inbound.receive_raw(raw, recipient=address if real_token else "")
    check(row, match, before, trusted=real_token and real_sender)


SECRET = "hook-user:hook-password"


@FUZZ
@given(raw=st.binary(max_size=1500) | mime_tree(), real_token=st.booleans())
def test_random_messages_through_the_webhook(world, client, raw, real_token):
    match, anna, address = world
    before = match.moves.count()
    to = address if real_token else "play+x@reply.example.org"
    raw = f"From: {anna.email}\r\nTo: {to}\r\n".encode() + raw
    payload = {
        "RawEmail": raw.decode("latin-1"),
        "OriginalRecipient": to,
        "Headers": [],
        "MessageID": "x",
    }
    auth = "Basic " + base64.b64encode(SECRET.encode()).decode()
    seen = set(InboundMessage.objects.values_list("pk", flat=True))
    with override_settings(ANYMAIL={"WEBHOOK_SECRET": SECRET}):
        response = client.post(
            "/anymail/postmark/inbound/",
            json.dumps(payload),
            content_type="application/json",
            HTTP_AUTHORIZATION=auth,
        )
    assert response.status_code == 200
    for row in InboundMessage.objects.exclude(pk__in=seen):
        handled = inbound.handle(row.pk)  # what the worker does after commit
        check(handled, match, before, trusted=real_token)
