"""Browser tests drive Debian's Chromium (no browser download works here; PRACTICE.md)."""

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture
def screenshots(tmp_path) -> Path:
    """Where the test leaves its screenshots: $E2E_SCREENSHOTS or the test's tmp folder."""
    folder = Path(os.environ.get("E2E_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def page(page):
    """Every browser test fails if a page it opened had no Content-Security-Policy or broke
    it: Chromium reports each violation as a `securitypolicyviolation` event and on the
    console."""
    violations: list[str] = []
    unprotected: list[str] = []
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => console.error("
        "'CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI + ' at ' + e.sourceFile"
        " + ':' + e.lineNumber));"
    )

    def on_console(message) -> None:
        if "CSP violation" in message.text or "Content Security Policy" in message.text:
            violations.append(message.text)

    def on_response(response) -> None:
        if response.request.resource_type == "document" and response.status < 300:
            if "content-security-policy" not in response.headers:
                unprotected.append(response.url)

    page.on("console", on_console)
    page.on("response", on_response)
    yield page
    assert not violations, violations
    assert not unprotected, unprotected
