"""Snapshots are a cache: one whose state or digest was changed in the database is detected
on load (the position is replayed from the log instead, and the mismatch is logged) and by
verify_log."""

import logging

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import override_settings

from games import selectors, services
from games.models import Match, Snapshot
from games.selectors import load_state, verify_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished():
    with override_settings(SNAPSHOT_EVERY=4):
        match = services.create_match(
            creator=None, game_slug="sealed-cards", players=4, bots=4, seed="tamper"
        )
    match.refresh_from_db()
    assert Snapshot.objects.filter(match=match).count() == 3
    return match


def truth(match: Match, seq: int):
    """The position replayed from the setup with no snapshot at all."""
    saved = list(Snapshot.objects.filter(match=match).values("seq", "state", "digest"))
    Snapshot.objects.filter(match=match).delete()
    cache.clear()  # the shared position cache
    state = load_state(match, upto=seq)
    Snapshot.objects.bulk_create(Snapshot(match=match, **row) for row in saved)
    cache.clear()  # the shared position cache
    return state


def tamper(match: Match, seq: int, **fields) -> None:
    Snapshot.objects.filter(match=match, seq=seq).update(**fields)
    cache.clear()  # the shared position cache


def test_a_changed_snapshot_state_is_not_served(finished, caplog):
    expected = truth(finished, 9)
    snapshot = Snapshot.objects.get(match=finished, seq=8)
    forged = {**snapshot.state, "hands": [[1], [2], [3], [4]]}
    tamper(finished, 8, state=forged)
    with caplog.at_level(logging.ERROR, logger="games.selectors"):
        assert load_state(finished, upto=9) == expected
    assert "does not match the log" in caplog.text and f"match {finished.pk}" in caplog.text


def test_a_snapshot_with_a_forged_digest_is_not_served(finished, caplog):
    expected = truth(finished, 5)
    forged = {**Snapshot.objects.get(match=finished, seq=4).state, "trick": 99}
    from games.engine import chain_digest

    before = finished.moves.get(seq=3).digest
    tamper(finished, 4, state=forged, digest=chain_digest(before, forged))
    with caplog.at_level(logging.ERROR, logger="games.selectors"):
        assert load_state(finished, upto=5) == expected
    assert "does not match the log" in caplog.text


def test_an_intact_snapshot_is_used(finished, caplog, monkeypatch):
    calls = []
    original = selectors.setup_state
    monkeypatch.setattr(selectors, "setup_state", lambda m: calls.append(1) or original(m))
    cache.clear()  # the shared position cache
    with caplog.at_level(logging.ERROR, logger="games.selectors"):
        load_state(finished, upto=9)
    assert calls == [] and caplog.text == ""


def test_verify_log_reports_a_changed_snapshot(finished):
    assert verify_match(finished).ok
    forged = {**Snapshot.objects.get(match=finished, seq=8).state, "trick": 99}
    tamper(finished, 8, state=forged)
    report = verify_match(Match.objects.get(pk=finished.pk))
    assert not report.ok and "snapshot at seq 8" in report.message
    with pytest.raises(CommandError):
        call_command("verify_log", "--match", str(finished.pk))
