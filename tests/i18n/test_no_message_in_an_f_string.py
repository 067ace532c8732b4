"""A message marked inside an f-string is never extracted (xgettext does not read f-strings),
so it stays English in every language: 'Your choices are below.' ended Dutch, German and
French refusals in English (issue 41). No gettext call may stand inside an f-string."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ["games", "notifications", "replies", "players", "api", "tournaments", "community", "config"]
MARKERS = {"_", "gettext", "ngettext", "pgettext", "npgettext", "gettext_lazy", "gettext_noop"}


def marked_in_f_strings(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(node, ast.JoinedStr):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Call) and getattr(inner.func, "id", None) in MARKERS:
                found.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    return found


def test_no_message_is_marked_inside_an_f_string():
    found = [
        where
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts
        for where in marked_in_f_strings(path)
    ]
    assert not found, found
