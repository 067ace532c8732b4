"""Playing a tournament's matches in tests: every decision the bot's, through the service."""

import random

from games import services as games
from games.engine import event_rng
from games.models import MatchStatus
from games.selectors import load_state
from tournaments.models import Table, Tournament


def play_by_bots(t: Tournament) -> list:
    """Every match of `t` in play, to its end; each move's result."""
    results = []
    for table in Table.objects.filter(round__tournament=t, match__status=MatchStatus.ACTIVE):
        match, rng = table.match, random.Random(table.match_id)
        while True:
            match.refresh_from_db()
            if match.status != MatchStatus.ACTIVE:
                break
            seat = match.to_act[0]
            move = match.game.bot_move(load_state(match), seat, event_rng(str(rng.random()), 0))
            result = games.submit_move(match_id=match.pk, seat=seat, move=move, source="bot")
            assert result.ok, result.message
            results.append(result)
    return results
