"""While the database cannot be reached, pages and the API answer 503 with Retry-After (the
API in its error shape), whether the view or a middleware met the lost connection, and the
log gets one line a while instead of a trace a request (config/database_outage.py). The
whole path, PostgreSQL cut under load, is tests/faults/test_database_outage.py."""

import logging

import pytest
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper

from config import database_outage

pytestmark = pytest.mark.django_db


@pytest.fixture
def database_gone(monkeypatch, client):
    def refuse(*args, **kwargs):
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed')

    database_outage.tally.logged_at = float("-inf")
    client.raise_request_exception = False  # as a server answers: no test-side re-raise
    database_outage.tally.count = 0
    return lambda: monkeypatch.setattr(CursorWrapper, "execute", refuse)


def test_a_signed_in_page_is_a_503_with_retry_after(client, django_user_model, database_gone):
    client.force_login(django_user_model.objects.create_user("anna", "anna@example.org", "pw"))
    database_gone()  # the session is read by a middleware: Django's 500 handler answers
    response = client.get("/lobby/")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert b"Back in a moment" in response.content


def test_the_api_answers_in_its_error_shape(client, database_gone):
    database_gone()  # the token is read by the view
    response = client.get("/api/v1/me", headers={"Authorization": "Bearer pb_x"})
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response.json()["error"]["code"] == "unavailable"


def test_many_requests_make_one_log_line(client, database_gone, caplog):
    database_gone()
    with caplog.at_level(logging.INFO):
        for _ in range(20):
            assert (
                client.get("/api/v1/me", headers={"Authorization": "Bearer pb_x"}).status_code
                == 503
            )
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1 and lines[0].name == "config.database", [r.getMessage() for r in lines]
    assert "answered 503" in lines[0].getMessage()
