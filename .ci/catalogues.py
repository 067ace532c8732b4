"""The two catalogues against the source: the platform's (locale/, every source but the rules
packages) and the games' (games/rules/locale/, the rules packages' marked words). `update`
runs makemessages for the site's languages into each; `check` does the same on a copy and
fails if a string marked in the source is missing from the committed catalogues, or is there
untranslated (docs/platform.md, "Languages" and "The games' words").

Run with `uv run python .ci/catalogues.py update|check` from the repository's root."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ["nl", "de", "fr"]
IGNORED = ["games/rules/*", ".venv/*", "var/*", "tests/*", "bench/*", "node_modules/*", "deploy/*"]


# (the catalogue, the folder makemessages reads from, what it passes over there)
CATALOGUES = [
    (ROOT / "locale", ROOT, IGNORED),
    (ROOT / "games" / "rules" / "locale", ROOT / "games" / "rules", ["locale/*"]),
]


def update() -> None:
    from django.conf import settings
    from django.core.management import call_command

    for catalogue, source, ignored in CATALOGUES:
        # makemessages files a string in the first LOCALE_PATHS entry that holds its source,
        # and by default in the first entry: with only this one it cannot touch the other.
        settings.LOCALE_PATHS = [catalogue]
        os.chdir(source)
        try:
            call_command(
                "makemessages",
                locale=LANGUAGES,
                ignore_patterns=ignored,
                no_obsolete=True,
                no_wrap=True,  # one line per message: diffs show what changed
                verbosity=0,
            )
        finally:
            os.chdir(ROOT)


def msgids(path: Path) -> dict[tuple[str, str], bool]:
    """(context, msgid) -> translated, for every entry of a .po file."""
    import polib

    return {(e.msgctxt or "", e.msgid): e.translated() for e in polib.pofile(str(path))}


def check() -> int:
    def po(catalogue: Path, lang: str) -> Path:
        return catalogue / lang / "LC_MESSAGES" / "django.po"

    committed = {
        (catalogue, lang): msgids(po(catalogue, lang))
        for catalogue, _source, _ignored in CATALOGUES
        for lang in LANGUAGES
    }
    saved = Path(tempfile.mkdtemp())
    for n, (catalogue, _source, _ignored) in enumerate(CATALOGUES):
        shutil.copytree(catalogue, saved / str(n))
    problems = []
    try:
        update()
        for (catalogue, lang), before in committed.items():
            where = f"{catalogue.relative_to(ROOT)} {lang}"
            fresh = msgids(po(catalogue, lang))
            for key in sorted(set(fresh) - set(before)):
                problems.append(f"{where}: not in the committed catalogue: {key[1]!r}")
            for key, translated in sorted(before.items()):
                if key in fresh and not translated:
                    problems.append(f"{where}: untranslated: {key[1]!r}")
    finally:
        for n, (catalogue, _source, _ignored) in enumerate(CATALOGUES):
            shutil.rmtree(catalogue)
            shutil.copytree(saved / str(n), catalogue)
    for problem in problems:
        print(problem)
    if problems:
        print("Run `uv run python .ci/catalogues.py update`, translate, compile, commit.")
    return 1 if problems else 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    if sys.argv[1:] == ["update"]:
        update()
    elif sys.argv[1:] == ["check"]:
        sys.exit(check())
    else:
        sys.exit(__doc__)
