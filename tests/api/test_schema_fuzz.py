"""schemathesis against the generated OpenAPI schema: for every operation, generated requests
(valid and not) never get a 5xx, and every answer matches the schema (status, content type,
body shape). Runs in-process through the WSGI app, with a play token."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.tokens import make_token
from config.wsgi import application
from tests.factories import two_player_match

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """As Django's test client does around each request: the bare WSGI app's
    close_old_connections would otherwise close the test's connection, in the middle of its
    transaction, once it is older than CONN_MAX_AGE (60 s on PostgreSQL), and every later
    request would fail with 'the connection is closed'."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def bearer(db):
    match, _a, _b = two_player_match()
    _token, key = make_token(user=match.created_by, name="fuzz", scope="play")
    return {"Authorization": f"Bearer {key}"}


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@pytest.mark.django_db
def test_the_api_keeps_to_its_schema(case, bearer):
    if case.path == "/api/v1/turns" and case.query:
        case.query["wait"] = 0  # the long-poll would make each example wait
    if case.path == "/api/v1/stream":
        case.query = {**(case.query or {}), "hold": 0}  # what is there, then the end
    case.call_and_validate(headers=bearer, checks=CHECKS)
