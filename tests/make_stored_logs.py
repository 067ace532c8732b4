"""Write a finished bot match of every registered game (and player count) to
tests/fixtures/logs, to be replayed by test_rules_versions after every change of the rules.

    uv run python -m tests.make_stored_logs [SLUG ...]   (only these games)

Run it only when a game gets a new rules version (the old files stay: they are the old
version's logs)."""

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "sqlite://:memory:")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

import tests.sealed_cards  # noqa: E402,F401
from games import services  # noqa: E402
from games.engine import available_games  # noqa: E402
from games.engine.rng import HASH_STREAM  # noqa: E402
from games.selectors import export_match  # noqa: E402

OUT = Path(__file__).parent / "fixtures" / "logs"


def main() -> None:
    call_command("migrate", verbosity=0)
    OUT.mkdir(parents=True, exist_ok=True)
    only = set(sys.argv[1:])
    for game in available_games():
        if only and game.slug not in only:
            continue
        for players in range(game.min_players, game.max_players + 1):
            # Both event generators: seeds as matches made before HASH_STREAM had (the
            # Mersenne Twister) and as matches made since have (the SHA-256 stream).
            for kind, seed in (
                ("", f"stored-{game.slug}-{players}"),
                ("-stream", f"{HASH_STREAM}stored-{game.slug}-{players}"),
            ):
                path = OUT / f"{game.slug}-v{game.version}-{players}p{kind}.json"
                if path.exists():
                    continue
                match = services.create_match(
                    creator=None, game_slug=game.slug, players=players, bots=players, seed=seed
                )
                match.refresh_from_db()
                path.write_text(json.dumps(export_match(match), indent=1, sort_keys=True) + "\n")
                print(f"wrote {path.name}: {match.head_seq} moves")


if __name__ == "__main__":
    main()
