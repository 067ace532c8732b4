"""Reply tokens: short, signed, and refused when tampered with."""

import pytest

from replies.tokens import (
    make_reply_token,
    read_reply_token,
    reply_address,
    token_in_addresses,
)


def test_a_token_round_trips_and_fits_a_local_part(settings):
    token = make_reply_token(123456789, 5, 987654)
    assert read_reply_token(token) == (read_reply_token(token).__class__)(123456789, 5, 987654)
    local = reply_address(123456789, 5, 987654).split("@")[0]
    assert len(local) <= 64


def test_case_folding_by_a_mail_system_is_harmless():
    token = make_reply_token(42, 1, 7)
    assert read_reply_token(token.upper()).match_id == 42


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.replace("m16", "m17"),  # another match
        lambda t: t.replace("-s1-", "-s0-"),  # another seat
        lambda t: t.replace("-p7-", "-p8-"),  # another position
        lambda t: t[:-1] + ("0" if t[-1] != "0" else "1"),  # a forged signature
        lambda t: t[:-3],  # cut short
        lambda t: "",
    ],
)
def test_a_tampered_token_is_refused(change):
    token = make_reply_token(42, 1, 7)  # 42 is "16" in base 36
    assert read_reply_token(change(token)) is None


def test_a_token_signed_with_another_key_is_refused(settings):
    token = make_reply_token(42, 1, 7)
    settings.SECRET_KEY = "another-secret-key-" + "x" * 40
    assert read_reply_token(token) is None


def test_the_token_is_found_among_addresses(settings):
    settings.REPLY_DOMAIN = "reply.example.org"
    address = reply_address(42, 1, 7)
    found = token_in_addresses(["someone@example.com", f"Postal Boards <{address}>"])
    assert (found.match_id, found.seat, found.seq) == (42, 1, 7)
    assert token_in_addresses(["play+nonsense@reply.example.org"]) is None
