"""The platform's catalogue (locale/) against the source: `update` runs makemessages for the
site's languages into locale/ only (the games' catalogue, games/rules/locale, is kept by its own
step); `check` does the same on a copy and fails if a string marked in the source is missing
from the committed catalogues, or is there untranslated (docs/platform.md, "Languages").

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


def update() -> None:
    from django.conf import settings
    from django.core.management import call_command

    # makemessages files a string in the first LOCALE_PATHS entry that holds its source, and
    # by default in the first entry: with only locale/ it cannot touch the games' catalogue.
    settings.LOCALE_PATHS = [ROOT / "locale"]
    call_command(
        "makemessages", locale=LANGUAGES, ignore_patterns=IGNORED, no_obsolete=True, verbosity=0
    )


def msgids(path: Path) -> dict[tuple[str, str], bool]:
    """(context, msgid) -> translated, for every entry of a .po file."""
    import polib

    return {(e.msgctxt or "", e.msgid): e.translated() for e in polib.pofile(str(path))}


def check() -> int:
    committed = {lang: msgids(ROOT / f"locale/{lang}/LC_MESSAGES/django.po") for lang in LANGUAGES}
    saved = Path(tempfile.mkdtemp()) / "locale"
    shutil.copytree(ROOT / "locale", saved)
    try:
        update()
        problems = []
        for lang in LANGUAGES:
            fresh = msgids(ROOT / f"locale/{lang}/LC_MESSAGES/django.po")
            for key in sorted(set(fresh) - set(committed[lang])):
                problems.append(f"{lang}: not in the committed catalogue: {key[1]!r}")
            for key, translated in sorted(committed[lang].items()):
                if key in fresh and not translated:
                    problems.append(f"{lang}: untranslated: {key[1]!r}")
    finally:
        shutil.rmtree(ROOT / "locale")
        shutil.copytree(saved, ROOT / "locale")
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
