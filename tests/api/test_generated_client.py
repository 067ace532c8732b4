"""A client generated from the served schema plays a move, so the schema stays truthful: the
test fetches /api/v1/openapi.json from a live server, generates a Python client from it with
openapi-python-client (a dev dependency), and plays the first legal move of a waiting turn
with the generated functions and models alone."""

import importlib
import shutil
import subprocess
import sys
import urllib.request
import uuid

import pytest

from api.tokens import make_token
from games.models import Match
from tests.factories import two_player_match


@pytest.mark.django_db(transaction=True)
def test_a_client_generated_from_the_schema_plays_a_move(live_server, tmp_path, monkeypatch):
    generator = shutil.which("openapi-python-client", path=str(sys.prefix) + "/bin")
    assert generator, "openapi-python-client is a dev dependency: uv sync"
    schema = tmp_path / "openapi.json"
    with urllib.request.urlopen(live_server.url + "/api/v1/openapi.json") as answer:
        schema.write_bytes(answer.read())
    subprocess.run(
        [generator, "generate", "--path", str(schema), "--meta", "none"]
        + ["--output-path", str(tmp_path / "pbm_client")],
        check=True,
        capture_output=True,
        timeout=120,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    client_module = importlib.import_module("pbm_client.client")
    turns = importlib.import_module("pbm_client.api.matches.api_v1_turns")
    legal = importlib.import_module("pbm_client.api.matches.api_v1_legal")
    play = importlib.import_module("pbm_client.api.matches.api_v1_play")
    models = importlib.import_module("pbm_client.models")

    match, _anna, _bram = two_player_match()
    _token, key = make_token(user=match.created_by, name="generated", scope="play")
    client = client_module.AuthenticatedClient(base_url=live_server.url, token=key)

    waiting = turns.sync(client=client, wait=0)
    assert isinstance(waiting, models.TurnsOut), waiting
    (turn,) = waiting.matches
    assert turn.id == match.pk and turn.your_turn
    choices = legal.sync(match_id=match.pk, client=client)
    assert choices and isinstance(choices[0], models.LegalMove)
    move = models.MoveInMoveType0.from_dict(choices[0].move.to_dict())
    body = models.MoveIn(move=move, seq=turn.seq, idempotency_key=uuid.uuid4().hex)
    answer = play.sync(match_id=match.pk, client=client, body=body)
    assert isinstance(answer, models.MoveOut), answer
    assert answer.message.startswith("Applied") and not answer.duplicate
    assert Match.objects.get(pk=match.pk).head_seq == turn.seq + 1
    # A refusal comes back as the documented error model, not an exception or a None.
    again = play.sync(match_id=match.pk, client=client, body=body.__class__(command="nonsense"))
    assert isinstance(again, models.ErrorOut), again
