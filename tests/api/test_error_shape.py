"""An error under /api/ is in the one error shape whatever made it: an unknown path (404), a
method the operation does not take (405, with Allow), a body over Django's limit (413)."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def error_of(response) -> dict:
    assert response["Content-Type"].startswith("application/json"), response.content[:80]
    return response.json()["error"]


def test_an_unknown_path_is_a_404_in_the_error_shape():
    response = Client().get("/api/v1/no-such-thing")
    assert response.status_code == 404 and error_of(response)["code"] == "not_found"


def test_a_method_the_operation_does_not_take_is_a_405_in_the_error_shape():
    response = Client().delete("/api/v1/me")
    assert response.status_code == 405 and error_of(response)["code"] == "method_not_allowed"
    assert "GET" in response["Allow"]


def test_a_body_over_the_limit_is_a_413_in_the_error_shape(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = Client().post(
        "/api/v1/matches", data="{" + '"x": 1, ' * 200 + '"y": 2}', content_type="application/json"
    )
    assert response.status_code == 413 and error_of(response)["code"] == "too_large"


def test_pages_outside_the_api_keep_their_html_errors():
    response = Client().get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")
