import json

import pytest
from django.core.management import call_command
from django.test import override_settings

from games import services
from games.engine import chain_digest
from games.models import Match, Move, Snapshot
from games.selectors import export_match, load_state, position_after, verify_match

pytestmark = pytest.mark.django_db


def bot_match(players=4, seed="replay"):
    return services.create_match(
        creator=None, game_slug="sealed-cards", players=players, bots=players, seed=seed
    )


def test_a_bot_match_plays_out_and_every_digest_replays():
    match = bot_match()
    match.refresh_from_db()
    assert match.status == "finished"
    report = verify_match(match)
    assert report.ok and report.checked == match.head_seq == 12


def test_a_changed_row_is_detected(django_db_blocker):
    match = bot_match()
    row = match.moves.get(seq=5)
    # Bypass the model's guard the way a stray SQL client would (not possible on PostgreSQL,
    # where the trigger refuses it).
    from django.db import connection

    if connection.vendor == "postgresql":
        pytest.skip("the trigger makes the tampering itself impossible")
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_move SET payload = %s WHERE id = %s",
            [json.dumps({"type": "play", "card": 99}), row.pk],
        )
    report = verify_match(Match.objects.get(pk=match.pk))
    assert not report.ok and report.first_bad_seq == 5


@override_settings(SNAPSHOT_EVERY=4)
def test_snapshots_are_a_cache_that_agrees_with_the_full_replay():
    match = bot_match()
    assert Snapshot.objects.filter(match=match).count() == 3
    for seq in range(match.head_seq + 1):
        with_snapshots = load_state(match, upto=seq)
        Snapshot.objects.filter(match=match).delete()
        without = load_state(match, upto=seq)
        assert with_snapshots == without
        # rebuild the cache from the log, as any reader may
        for snap_seq in (4, 8, 12):
            state = position_after(match, snap_seq)
            digest = Move.objects.get(match=match, seq=snap_seq).digest
            Snapshot.objects.get_or_create(
                match=match, seq=snap_seq, defaults={"state": state, "digest": digest}
            )


def test_export_hides_the_seed_until_the_end_and_import_replays_to_the_same_positions():
    from tests.factories import two_player_match

    live, *_ = two_player_match()
    assert export_match(live)["seed"] is None
    match = bot_match(players=3, seed="export-me")
    data = json.loads(json.dumps(export_match(match)))
    assert data["seed"] == "export-me"
    copy = services.import_match(data=data)
    assert verify_match(copy).ok
    originals = list(match.moves.order_by("seq").values_list("digest", flat=True))
    copies = list(copy.moves.order_by("seq").values_list("digest", flat=True))
    assert originals == copies
    for seq in range(match.head_seq + 1):
        assert position_after(match, seq) == position_after(copy, seq)


def test_import_refuses_a_tampered_log():
    match = bot_match(players=2, seed="tamper")
    data = export_match(match)
    data["moves"][0]["payload"] = {"type": "play", "card": data["moves"][1]["payload"]["card"]}
    with pytest.raises(services.ServiceError):
        services.import_match(data=data)
    data = export_match(match)
    data["seed"] = "another"
    with pytest.raises(services.ServiceError, match="commitment"):
        services.import_match(data=data)


def test_digest_chain_covers_the_previous_digest():
    assert chain_digest("a" * 64, {"x": 1}) != chain_digest("b" * 64, {"x": 1})


def test_simulate_and_verify_log_commands(capsys):
    call_command("simulate", game="sealed-cards", players=3, matches=4, seed="cmd", verify=True)
    figures = json.loads(capsys.readouterr().out)
    assert figures["finished"] == 4 and figures["errors"] == 0 and figures["verified"] == 4
    assert figures["moves"] == 4 * 9
    assert figures["forced"] == 4 * 3  # each player's last card
    assert figures["human_decisions"] == 4 * 6
    call_command("verify_log", verbosity=2)
    assert capsys.readouterr().out.count(": ok:") == 4


def test_a_window_of_history_narrates_as_the_whole_does():
    from games.selectors import history, recent_history

    match = bot_match(players=4, seed="window")
    whole = history(match, 0)
    assert [h["seq"] for h in whole] == list(range(1, 13))
    assert history(match, 0, since=5, upto=9) == whole[5:9]
    assert recent_history(match, 2) == history(match, 2)  # shorter than the window
