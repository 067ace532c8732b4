"""The API's docs page renders in a browser under the site's Content-Security-Policy: Swagger
UI comes from the site's own static files (django-ninja's, "ninja" in INSTALLED_APPS), never
from a CDN the policy blocks. The `page` fixture fails the test on any CSP violation."""

import pytest
from playwright.sync_api import Page, expect

from .helpers import watch_console

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_api_docs_render_with_the_csp_on(page: Page, live_server):
    errors = watch_console(page)
    outside = []
    page.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith(live_server.url) else None,
    )
    response = page.goto(f"{live_server.url}/api/v1/docs")
    assert response.ok and "content-security-policy" in response.headers
    # Swagger UI drew the schema: the API's title and an operation of each tag.
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Postal Boards API")
    expect(page.locator(".opblock").first).to_be_visible()
    assert page.locator(".opblock").count() >= 10
    assert not outside, outside
    assert not errors, errors
