"""The reading steps on their own (no database): decoding that never raises, format=flowed,
HTML to text, the own-text finder, machine mail and our MX's authentication results."""

from __future__ import annotations

import pytest

from replies.reading import decode
from replies.reading.flowed import unflow
from replies.reading.html import html_to_text
from replies.reading.machine import machine_mail
from replies.reading.quotes import own_text
from replies.reading.trust import authentication_failures


@pytest.mark.parametrize(
    "charset", ["x-unknown-8bit", "unknown-8bit", "bogus", "base64", "rot13", "", None, "zlib"]
)
def test_unknown_and_bogus_charsets_fall_back(charset):
    assert decode.decode_bytes("Grüße".encode(), charset) == "Grüße"
    assert decode.decode_bytes("Grüße".encode("latin-1"), charset) in ("Grüße", "Gr\ufffd\ufffde")


def test_headers_with_control_characters_and_broken_encoded_words():
    raw = (
        b"From: =?utf-8?q?Anna=0D=0AExample?= <anna@example.com>\r\n"
        b"Subject: =?bogus?b?!!!?= \x07ring\r\nTo: =?utf-8?b?invalid base64?= <x@y>\r\n\r\n1"
    )
    message = decode.parse(raw)
    assert decode.address(message, "From") == "anna@example.com"
    assert "\x07" not in decode.header(message, "Subject")
    assert "\r" not in decode.header(message, "From") and "\n" not in decode.header(message, "From")
    decode.header(message, "To")  # does not raise


def test_format_flowed_is_joined_and_delsp_honoured():
    flowed = "say this is a long line that the client \nwrapped for me\n> quoted \n> too\n-- \nsig"
    assert unflow(flowed).split("\n") == [
        "say this is a long line that the client wrapped for me",
        "> quoted too",
        "-- ",
        "sig",
    ]
    assert unflow("say abc \ndef", delsp=True) == "say abcdef"
    assert unflow(" From me", delsp=False) == "From me"  # space-stuffing removed


def test_html_to_text_drops_head_style_script_and_decodes_entities():
    html = (
        "<html><head><title>play 10</title><style>p{x:'play 10'}</style></head><body>"
        "<script>play(10)</script><p>play&nbsp;9 &amp; more</p><div>next<br>line</div>"
        "<blockquote>quoted<blockquote>deeper</blockquote></blockquote></body></html>"
    )
    assert html_to_text(html).split("\n") == [
        "play 9 & more",
        "next",
        "line",
        "> quoted",
        "> > deeper",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "2\n\nAm Mo., 30. Nov. 2026 um 15:11 Uhr schrieb Postal Boards <\nplay@x.org>:\n\n> old",
        "Op 30 nov 2026, om 15:11 heeft Postal Boards <play@x.org>\nhet volgende geschreven:\n"
        "> old\n\n2",
        "Le 30/11/2026 à 15:11, Postal Boards a écrit :\n> old\n2",
        "W dniu 30.11.2026 o 15:11, Postal Boards pisze:\n> old\n2",
        "Dne 30. 11. 26 v 15:11 Postal Boards napsal(a):\n> old\n2",
        "2\n\n-----Ursprüngliche Nachricht-----\nVon: Postal Boards\nGesendet: Montag\n1. play 6",
        "2\n\nDe : Postal Boards\nEnvoyé : lundi\nÀ : Anna\nObjet : x\n\n1. play 6",
        "2\n\nGesendet: Montag, 30. November 2026\nVon: Postal Boards\nAn: anna\n\n1. play 6",
        "2\n\n---------- Forwarded message ---------\nFrom: Postal Boards\n\n1. play 6",
        "2\n\nBegin forwarded message:\n\n> From: Postal Boards",
        "2\n\n    On Monday, November 30, 2026, Postal Boards <p@x> wrote:\n\n1. play 6",
        "> old\n2\n> more old\n-- \nDieter\n10115 Berlin",
    ],
)
def test_the_own_text_is_found_in_each_layout(text):
    assert own_text(text) == ["2"]


def test_inline_replies_keep_every_own_block_in_order():
    text = "On Mon, X wrote:\n> question one\nplay 6\n> question two\n\nsay hi\n> end"
    assert [line for line in own_text(text) if line] == ["play 6", "say hi"]


@pytest.mark.parametrize(
    "headers, reason",
    [
        ("Auto-Submitted: auto-replied\r\n", "Auto-Submitted"),
        ("Precedence: bulk\r\n", "Precedence"),
        ("List-Id: <x.lists.example>\r\n", "List-Id"),
        ("Subject: Automatische Antwort: Ihr Zug\r\n", "auto-reply subject"),
        ("Content-Type: multipart/report; report-type=delivery-status\r\n", "report"),
    ],
)
def test_machine_mail_is_recognised(headers, reason):
    message = decode.parse(f"From: a@example.com\r\n{headers}\r\nbody".encode())
    assert reason in machine_mail(message, "a@example.com")


def test_a_person_is_not_machine_mail():
    message = decode.parse(b"From: a@example.com\r\nAuto-Submitted: no\r\n\r\n1")
    assert machine_mail(message, "a@example.com") == ""
    assert "bounce" in machine_mail(message, "")


def test_only_our_mx_is_believed_and_only_its_topmost_header():
    raw = (
        b"Authentication-Results: mx.ours.example; spf=pass; dmarc=fail (p=none; spf=fail)\r\n"
        b"Authentication-Results: mx.ours.example; dmarc=pass\r\n"
        b"Authentication-Results: other.example; spf=fail\r\n\r\nbody"
    )
    message = decode.parse(raw)
    assert authentication_failures(message, "mx.ours.example") == ["dmarc=fail"]
    assert authentication_failures(message, "MX.OURS.EXAMPLE") == ["dmarc=fail"]
    assert authentication_failures(message, "") == []
    assert authentication_failures(message, "nobody.example") == []
