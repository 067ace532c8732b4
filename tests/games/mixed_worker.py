"""One process of the mixed writers' test (test_mixed_writers.py): for a few seconds it does
one thing over and over through the web pages, as a player would, on the first match of the
test's list that is still in play, and writes down every answer's status.

    python -m tests.games.mixed_worker FOLDER ROLE USER_ID MATCH_ID...

ROLE: chat (post a line), move (play a card for its player when asked), takeback (ask to
take back its player's last card), resign (now and then). The test touches FOLDER/go to
start them all at once; each writes FOLDER/result-ROLE-USER_ID.json. The database comes
from DATABASE_URL, as the test's own.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections import Counter
from pathlib import Path

SECONDS = 12.0


class Conflicts(logging.Handler):
    """Counts the lock conflicts games.conflicts had to retry."""

    count = 0

    def emit(self, record):
        Conflicts.count += 1


def main(folder: Path, role: str, user_id: int, match_ids: list[int]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    import tests.sealed_cards  # noqa: F401  the platform's test game
    from games.models import Match
    from games.selectors import load_state

    settings.ALLOWED_HOSTS = ["testserver"]
    logging.getLogger("games.conflicts").addHandler(Conflicts())
    user = get_user_model().objects.get(pk=user_id)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    (folder / f"ready-{role}-{user_id}").touch()
    while not (folder / "go").exists():
        time.sleep(0.005)
    statuses: Counter = Counter()
    said = 0
    end = time.monotonic() + SECONDS
    while time.monotonic() < end:
        match = Match.objects.filter(pk__in=match_ids, status="active").order_by("pk").first()
        if match is None:
            break
        url = f"/matches/{match.pk}"
        if role == "chat":
            said += 1
            response = client.post(f"{url}/chat/", {"text": f"line {said} from {user_id}"})
        elif role == "move":
            seat = match.seats.get(user=user).number
            if seat not in match.to_act:
                time.sleep(0.01)
                continue
            card = load_state(match)["hands"][seat][0]
            response = client.post(
                f"{url}/move/",
                {"command": f"play {card}", "seq": match.head_seq, "token": f"t{time.time_ns()}"},
            )
        elif role == "takeback":
            response = client.post(f"{url}/takeback/", {"seq": match.head_seq})
            time.sleep(0.05)
        else:  # resign: now and then, so each match sees moves, chat and takebacks first
            time.sleep(1.5)
            response = client.post(f"{url}/resign/")
        statuses[response.status_code] += 1
    result = {"statuses": statuses, "said": said, "conflicts": Conflicts.count}
    target = folder / f"result-{role}-{user_id}.json"
    target.with_suffix(".tmp").write_text(json.dumps(result))
    target.with_suffix(".tmp").rename(target)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), [int(m) for m in sys.argv[4:]])
