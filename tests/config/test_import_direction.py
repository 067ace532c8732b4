"""The apps depend one way: players (accounts, calendars) below games (the log, the clock, the
service layer) below notifications (mail out), replies (mail in, which answers through mail
out) and the API. The service layer tells the apps above it what happened through
games.events; it never imports them, so nothing imports in a circle. Mail out writes the reply
address of each turn email with replies' token, its one import from above."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

NEVER = {
    "games": {"notifications", "replies", "api", "tournaments"},
    "players": {"games", "notifications", "replies", "tournaments"},
    "notifications": {"replies", "api", "tournaments"},
}
# (file, module prefix): a page of the accounts app links to the local mailbox of the
# embedded defaults; mail out signs the reply address with replies' token.
ALLOWED = {
    ("players/views.py", "notifications.mailbox"),
    ("notifications/emails.py", "replies.tokens."),
}


def allowed(name: str, module: str) -> bool:
    return any(name == path and module.startswith(prefix) for path, prefix in ALLOWED)


def imports_of(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield from (f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


@pytest.mark.parametrize("app", sorted(NEVER))
def test_an_app_never_imports_the_apps_above_it(app):
    found = []
    for path in sorted((ROOT / app).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        name = str(path.relative_to(ROOT))
        for module in imports_of(path):
            if module.split(".")[0] in NEVER[app] and not allowed(name, module):
                found.append(f"{name} imports {module}")
    assert not found, found


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from notifications.outbox import write\n")
    assert list(imports_of(module)) == ["notifications.outbox.write"]
