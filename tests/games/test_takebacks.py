"""Takebacks (docs/takebacks.md): a player takes back their own last decision while nobody
has acted on it, nothing was drawn by chance and nothing hidden was revealed. The takeback is
a new log entry; replay skips what it cancels; every digest still verifies."""

import pytest
from django.core import mail
from django.test import Client

from games import services
from games.models import Match, MoveKind
from games.selectors import history, load_state, verify_match
from tests.factories import make_user, two_player_match

pytestmark = pytest.mark.django_db


def seats_of(match):
    anna = match.created_by
    return match.seats.get(user=anna).number, match.seats.exclude(user=anna).get().number


def play(match, seat, card=None, source="web"):
    state = load_state(Match.objects.get(pk=match.pk))
    card = card if card is not None else state["hands"][seat][0]
    result = services.submit_move(
        match_id=match.pk, seat=seat, move={"type": "play", "card": card}, source=source
    )
    assert result.ok, result.message
    return card


def test_a_sealed_card_is_taken_back_before_the_other_player_answers():
    match, _a, _b = two_player_match(takebacks=True)
    anna, bram = seats_of(match)
    before = load_state(match)
    play(match, anna)
    result = services.take_back(match_id=match.pk, seat=anna, source="web")
    assert result.ok, result.message
    match.refresh_from_db()
    assert load_state(match) == before
    assert sorted(match.to_act) == sorted([anna, bram])
    kinds = list(match.moves.values_list("kind", flat=True))
    assert kinds == [MoveKind.MOVE, MoveKind.TAKEBACK]
    assert verify_match(match).ok
    told = [e["text"] for e in history(match, bram)]
    assert told[-1].endswith("took back their last move.") and "(taken back)" in told[0]
    play(match, anna, card=before["hands"][anna][-1])  # a different card this time
    play(match, bram)
    assert verify_match(Match.objects.get(pk=match.pk)).ok


def test_no_takeback_once_another_player_acted_or_the_cards_were_revealed():
    match, _a, _b = two_player_match(takebacks=True)
    anna, bram = seats_of(match)
    play(match, anna)
    play(match, bram)  # completes the trick: both cards are revealed
    refused_anna = services.take_back(match_id=match.pk, seat=anna, source="web")
    assert not refused_anna.ok and "acted" in refused_anna.message
    refused_bram = services.take_back(match_id=match.pk, seat=bram, source="web")
    assert not refused_bram.ok and "revealed" in refused_bram.message
    assert match.moves.count() == 2


def test_takebacks_only_where_the_match_allows_them_and_never_twice():
    plain, _a, _b = two_player_match()
    anna, _bram = seats_of(plain)
    play(plain, anna)
    refused = services.take_back(match_id=plain.pk, seat=anna, source="web")
    assert not refused.ok and "does not allow" in refused.message
    match, _a, _b = two_player_match(seed="twice", names=("Ada", "Ben"), takebacks=True)
    ada, _ben = seats_of(match)
    play(match, ada)
    assert services.take_back(match_id=match.pk, seat=ada, source="web").ok
    again = services.take_back(match_id=match.pk, seat=ada, source="web")
    assert not again.ok and match.moves.count() == 2


@pytest.mark.parametrize("slug,players", [("new-england", 3), ("nieuwstad", 2), ("blankenburg", 3)])
def test_every_game_allows_and_refuses_takebacks_as_the_policy_says(slug, players):
    """One person against bots: after each of the person's decisions that is still the
    log's last entry, a takeback is allowed exactly when no hidden thing changed (a card or
    tile drawn, sealed bids opened) and no randomness was drawn; after it, the log verifies
    and the person decides again. Both outcomes must be met in the playout."""
    import random

    from games.engine import event_rng, get_game

    match = services.create_match(
        creator=make_user(f"Tess{slug}"),
        game_slug=slug,
        players=players,
        bots=players - 1,
        takebacks=True,
        seed=f"takeback-{slug}",
    )
    game = get_game(slug, match.rules_version)
    seen = {"allowed": 0, "refused": 0}
    for _ in range(400):
        match.refresh_from_db()
        human = match.seats.get(is_bot=False).number
        if match.is_over or (seen["allowed"] and seen["refused"]):
            break
        if human not in match.to_act:
            break
        state = load_state(match)
        move = game.bot_move(state, human, random.Random(match.head_seq))
        assert services.submit_move(match_id=match.pk, seat=human, move=move, source="web").ok
        match.refresh_from_db()
        last = match.moves.order_by("-seq").first()
        result = services.take_back(match_id=match.pk, seat=human, source="web")
        if last.seat != human or last.source != "web":
            assert not result.ok  # the bots acted on it, or it was played for the person
            continue
        rng = event_rng(match.seed, last.seq)
        after = game.apply(load_state(match, upto=last.seq - 1), human, last.payload, rng)
        before = load_state(match, upto=last.seq - 1)
        hidden_changed = rng.drawn or any(
            game.secrets(before).get(k) != game.secrets(after).get(k)
            for k in set(game.secrets(before)) | set(game.secrets(after))
            if k != human
        )
        assert result.ok is not hidden_changed, result.message
        seen["refused" if hidden_changed else "allowed"] += 1
        if result.ok:
            assert verify_match(Match.objects.get(pk=match.pk)).ok
            match.refresh_from_db()
            assert human in match.to_act and load_state(match) == before
            again = game.bot_move(before, human, random.Random(match.head_seq + 7))
            assert services.submit_move(match_id=match.pk, seat=human, move=again, source="web").ok
    assert seen["allowed"] and seen["refused"], seen


def test_undo_by_web_and_by_email():
    match, _a, _b = two_player_match(takebacks=True)
    anna, _bram = seats_of(match)
    play(match, anna)
    client = Client()
    client.force_login(match.created_by)
    response = client.post(f"/matches/{match.pk}/takeback/", {"seq": match.head_seq})
    assert response.status_code == 302
    assert match.moves.filter(kind=MoveKind.TAKEBACK).count() == 1
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Take back my last move" in page
    play(match, anna)
    from replies.inbound import receive_raw
    from replies.tokens import reply_address

    match.refresh_from_db()
    address = reply_address(match.pk, anna, match.head_seq)
    raw = (
        f"From: {match.created_by.email}\r\nTo: {address}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: <undo-1@example.com>\r\nContent-Type: text/plain\r\n\r\nundo\r\n"
    ).encode()
    mail.outbox.clear()
    receive_raw(raw)
    assert match.moves.filter(kind=MoveKind.TAKEBACK).count() == 2
    assert verify_match(Match.objects.get(pk=match.pk)).ok


def test_undo_through_the_api():
    from api.tokens import make_token

    match, _a, _b = two_player_match(takebacks=True)
    anna, _bram = seats_of(match)
    play(match, anna)
    _token, key = make_token(user=match.created_by, name="t", scope="play")
    client = Client()
    headers = {"Authorization": f"Bearer {key}"}
    answer = client.post(f"/api/v1/matches/{match.pk}/takeback", headers=headers)
    assert answer.status_code == 200 and answer.json()["your_turn"] is True
    again = client.post(f"/api/v1/matches/{match.pk}/takeback", headers=headers)
    assert again.status_code == 409 and again.json()["error"]["code"] == "refused"


def play_out_with_takebacks(match):
    """Both people play every trick; the first of them takes back each first card once."""
    anna, bram = seats_of(match)
    while True:
        match.refresh_from_db()
        if match.is_over:
            return match
        state = load_state(match)
        play(match, anna, card=state["hands"][anna][0])
        if len(state["hands"][anna]) > 1:  # the last card is forced: nothing to take back
            assert services.take_back(match_id=match.pk, seat=anna, source="web").ok
            play(match, anna, card=state["hands"][anna][-1])
        match.refresh_from_db()
        if not match.is_over:
            play(match, bram)


def test_an_export_with_takebacks_imports_to_the_same_digests_and_positions():
    import json

    from games.selectors import export_match, position_after

    match = play_out_with_takebacks(two_player_match(seed="export-undo", takebacks=True)[0])
    assert match.moves.filter(kind=MoveKind.TAKEBACK).count() == 2
    data = json.loads(json.dumps(export_match(match)))
    copy = services.import_match(data=data)
    assert verify_match(copy).ok
    assert list(copy.moves.order_by("seq").values_list("kind", "digest")) == list(
        match.moves.order_by("seq").values_list("kind", "digest")
    )
    for seq in range(match.head_seq + 1):
        assert position_after(copy, seq) == position_after(match, seq)
    assert copy.result == match.result and copy.head_digest == match.head_digest


def test_an_import_refuses_a_takeback_the_policy_would_have_refused():
    from games.selectors import export_match, position_after

    match = play_out_with_takebacks(two_player_match(seed="forged-undo", takebacks=True)[0])
    exported = export_match(match)
    first = next(m for m in exported["moves"] if m["kind"] == MoveKind.TAKEBACK)
    # Cancelling an entry other than the one just before it.
    data = export_match(match)
    data["moves"][first["seq"] - 1]["payload"] = {"cancels": first["seq"] - 2}
    with pytest.raises(services.ServiceError, match=f"Entry {first['seq']}"):
        services.import_match(data=data)
    # Bram's card that completed the first trick (it revealed both cards), taken back by a
    # forged entry whose digest is right, so that only the policy can tell.
    from games.engine import chain_digest

    assert [m["kind"] for m in exported["moves"][:4]] == ["move", "takeback", "move", "move"]
    completing = exported["moves"][3]
    forged = {
        **completing,
        "seq": 5,
        "kind": MoveKind.TAKEBACK,
        "payload": {"cancels": 4},
        "digest": chain_digest(completing["digest"], position_after(match, 3)),
    }
    data = {**exported, "moves": [*exported["moves"][:4], forged]}
    with pytest.raises(services.ServiceError, match="Entry 5 is a takeback the policy refuses"):
        services.import_match(data=data)


def test_the_import_match_command_reads_an_admin_export_with_takebacks(tmp_path):
    import json

    from django.core.management import call_command

    from games.selectors import export_match

    match = play_out_with_takebacks(two_player_match(seed="command-undo", takebacks=True)[0])
    path = tmp_path / "matches.json"
    path.write_text(json.dumps([export_match(match)]))
    call_command("import_match", str(path))
    copy = Match.objects.exclude(pk=match.pk).get()
    assert copy.head_digest == match.head_digest and verify_match(copy).ok
