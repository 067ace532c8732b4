"""The Merchant: the Market, the Timber trade, the Sawmill, the specialists' stalls, the Inn."""

from __future__ import annotations

from bisect import bisect_right

from games.engine import IllegalMove
from games.engine.words import Text, _

from ..data import (
    BUILDINGS,
    CONVERSIONS,
    GOOD_NAMES,
    PASTIES,
    PASTY_NAMES,
    SALE_PRICES,
    SAWMILL_WOOD,
    STALL_SLOTS,
)
from .helpers import gain_points, name, next_actor, say


def stall_slots(state, stall: str) -> int:
    # The Burgher counts that open each slot, in rising order: those reached are open.
    opened = bisect_right(STALL_SLOTS[stall], state["burghers"])
    return opened - state["slots"].get(stall, 0)


def stall_fee_error(state, seat: int, stall: str) -> Text | str:
    """Using another player's building costs its owner 1 guilder, once per turn."""
    if stall not in state["stalls"]:
        return _("The {building} has not been built.", building=BUILDINGS[stall].name)
    owner = state["stalls"][stall]
    if owner == seat or stall in state["act"]["turn"].get("used", []):
        return ""
    if state["players"][seat]["guilders"] < 1:
        return _(
            "Using {owner}'s {building} costs 1 guilder.",
            owner=name(state, owner),
            building=BUILDINGS[stall].name,
        )
    return ""


def stall_blocked(state, seat: int, stall: str) -> bool:
    """bool(stall_fee_error(...)) without writing the message."""
    stalls = state["stalls"]
    if stall not in stalls:
        return True
    if stalls[stall] == seat or stall in state["act"]["turn"].get("used", ()):
        return False
    return state["players"][seat]["guilders"] < 1


def use_stall(state, seat: int, stall: str) -> None:
    turn = state["act"]["turn"]
    used = turn.setdefault("used", [])
    if stall in used:
        return
    used.append(stall)
    owner = state["stalls"][stall]
    if owner != seat:
        state["players"][seat]["guilders"] -= 1
        state["players"][owner]["guilders"] += 1


RAW_OF = {done: raw for raw, (done, _stall) in CONVERSIONS.items()}  # processed -> raw


def merchant_moves(state, seat: int) -> list[dict]:
    moves = list(_trades(state, seat))
    moves.append({"type": "done"})
    return moves


def can_trade(state, seat: int) -> bool:
    """bool(list(_trades(...))) without making the moves: skip_actor asks after every
    Merchant move. The same tests in the same order as `_trades`."""
    player = state["players"][seat]
    turn = state["act"]["turn"]
    if player["grain"] > 0 or player["livestock"] > 0 or player["game"] > 0:
        return True
    if not stall_blocked(state, seat, "timbertrade"):
        fee = (
            0
            if state["stalls"]["timbertrade"] == seat or "timbertrade" in turn.get("used", [])
            else 1
        )
        if turn.get("timber") != "buy" and player["wood"] > 0:
            return True
        if turn.get("timber") != "sell" and player["guilders"] - fee > 0:
            return True
    if (
        player["wood"] >= SAWMILL_WOOD
        and not turn.get("sawmill")
        and not stall_blocked(state, seat, "sawmill")
    ):
        return True
    for raw, (_done, stall) in CONVERSIONS.items():
        if player[raw] > 0 and not stall_blocked(state, seat, stall):
            return True
    for good, (stall, _g, _p) in SALE_PRICES.items():
        have = player[good] + player[RAW_OF[good]]
        if have > 0 and not stall_blocked(state, seat, stall) and stall_slots(state, stall) > 0:
            return True
    if player["bread"] and not stall_blocked(state, seat, "inn") and stall_slots(state, "inn") > 0:
        return any(player[filling] for filling, _g, _p in PASTIES.values())
    return False


def _trades(state, seat: int):
    """The Merchant's moves but 'done', in menu order, one at a time (skip_actor stops at
    the first)."""
    player = state["players"][seat]
    turn = state["act"]["turn"]
    for good in ("grain", "livestock", "game"):
        for k in range(1, player[good] + 1):
            yield {"type": "sell", "good": good, "count": k, "at": "market"}
    if not stall_blocked(state, seat, "timbertrade"):
        fee = (
            0
            if state["stalls"]["timbertrade"] == seat or "timbertrade" in turn.get("used", [])
            else 1
        )
        if turn.get("timber") != "buy":
            for k in range(1, player["wood"] + 1):
                yield {"type": "sell", "good": "wood", "count": k, "at": "timbertrade"}
        if turn.get("timber") != "sell":
            for k in range(1, player["guilders"] - fee + 1):
                yield {"type": "buy", "good": "wood", "count": k, "at": "timbertrade"}
    # Below, what the player holds is tested before the stalls (the cheaper test).
    if (
        player["wood"] >= SAWMILL_WOOD
        and not turn.get("sawmill")
        and not stall_blocked(state, seat, "sawmill")
    ):
        yield {"type": "sawmill"}
    for raw, (_done, stall) in CONVERSIONS.items():
        if player[raw] and not stall_blocked(state, seat, stall):
            for k in range(1, player[raw] + 1):
                yield {"type": "convert", "good": raw, "count": k}
    for good, (stall, _g, _p) in SALE_PRICES.items():
        have = player[good] + player[RAW_OF[good]]
        if not have or stall_blocked(state, seat, stall):
            continue
        for k in range(1, min(have, stall_slots(state, stall)) + 1):
            yield {"type": "sell", "good": good, "count": k, "at": stall}
    if player["bread"] and not stall_blocked(state, seat, "inn") and stall_slots(state, "inn") > 0:
        for pasty, (filling, _g, _p) in PASTIES.items():
            if player[filling]:
                yield {"type": "pasty", "filling": pasty}


def merchant_act(state, seat: int, move: dict, checked: bool = True) -> None:
    """A Merchant's trade or 'done'. Not `checked` (a logged move): the checks that can only
    refuse the trade are skipped."""
    kind = move["type"]
    player = state["players"][seat]
    turn = state["act"]["turn"]
    if kind == "done":
        if state["news"] is not None:
            say(state, _("{who} finished trading.", who=name(state, seat)))
        next_actor(state)
        return
    if kind == "sawmill":
        if checked:
            error = stall_fee_error(state, seat, "sawmill")
            if error:
                raise IllegalMove(error)
            if turn.get("sawmill"):
                raise IllegalMove(_("The Sawmill saws 2 wood per player per Merchant phase."))
            if player["wood"] < SAWMILL_WOOD:
                raise IllegalMove(_("The Sawmill needs 2 wood."))
        use_stall(state, seat, "sawmill")
        turn["sawmill"] = True
        player["wood"] -= SAWMILL_WOOD
        player["plank"] += SAWMILL_WOOD
        if state["news"] is not None:
            say(state, _("{who} sawed 2 wood into 2 planks at the Sawmill.", who=name(state, seat)))
        return
    count = move.get("count", 1)
    if checked and kind != "pasty" and (not isinstance(count, int) or count < 1):
        raise IllegalMove(_("Say how many (1 or more)."))
    good = move.get("good")
    if kind == "sell":
        at = move.get("at")
        if at == "market":
            market_sale(state, seat, good, count, checked)
        elif at == "timbertrade":
            timber_sale(state, seat, good, count, checked)
        else:
            stall_sale(state, seat, good, count, at, checked)
        return
    if kind == "convert":
        if checked and good not in CONVERSIONS:
            raise IllegalMove(
                _("Convert livestock or game (Butcher), grain (Baker) or fish (Fishmonger).")
            )
        done, stall = CONVERSIONS[good]
        if checked:
            error = stall_fee_error(state, seat, stall)
            if error:
                raise IllegalMove(error)
            if player[good] < count:
                raise IllegalMove(
                    _("You have {count} {good}.", count=player[good], good=GOOD_NAMES[good])
                )
        use_stall(state, seat, stall)
        player[good] -= count
        player[done] += count
        if state["news"] is not None:
            say(
                state,
                _(
                    "{who} turned {count} {good} into {made}.",
                    who=name(state, seat),
                    count=count,
                    good=GOOD_NAMES[good],
                    made=GOOD_NAMES[done],
                ),
            )
        return
    if kind == "buy":
        if checked:
            if good != "wood" or move.get("at") != "timbertrade":
                raise IllegalMove(_("Only wood can be bought, at the Timber trade."))
            error = stall_fee_error(state, seat, "timbertrade")
            if error:
                raise IllegalMove(error)
            if turn.get("timber") == "sell":
                raise IllegalMove(_("You sold wood this turn; you cannot also buy it."))
            fee = (
                0
                if state["stalls"]["timbertrade"] == seat or "timbertrade" in turn.get("used", [])
                else 1
            )
            if player["guilders"] - fee < count:
                raise IllegalMove(
                    _(
                        "{count} wood cost {count} guilders (+{fee} fee); you have {guilders}.",
                        count=count,
                        fee=fee,
                        guilders=player["guilders"],
                    )
                )
        use_stall(state, seat, "timbertrade")
        turn["timber"] = "buy"
        player["guilders"] -= count
        player["wood"] += count
        if state["news"] is not None:
            say(
                state,
                _(
                    "{who} bought {count} wood at the Timber trade.",
                    who=name(state, seat),
                    count=count,
                ),
            )
        return
    if kind == "pasty":
        pasty = move.get("filling")
        if checked and pasty not in PASTIES:
            raise IllegalMove(_("Sell a meat, game or fish pasty."))
        filling, g, p = PASTIES[pasty]
        if checked:
            error = stall_fee_error(state, seat, "inn")
            if error:
                raise IllegalMove(error)
            if stall_slots(state, "inn") <= 0:
                raise IllegalMove(_("The Inn has no demand left (it grows with the Burghers)."))
            if not player["bread"] or not player[filling]:
                raise IllegalMove(
                    _(
                        "A {pasty} needs 1 bread and 1 {good}.",
                        pasty=PASTY_NAMES[pasty],
                        good=GOOD_NAMES[filling],
                    )
                )
        use_stall(state, seat, "inn")
        player["bread"] -= 1
        player[filling] -= 1
        state["slots"]["inn"] = state["slots"].get("inn", 0) + 1
        player["guilders"] += g
        gain_points(player, p)
        if state["news"] is not None:
            say(
                state,
                _(
                    "{who} sold a {pasty} at the Inn: +{guilders} g, +{points} points.",
                    who=name(state, seat),
                    pasty=PASTY_NAMES[pasty],
                    guilders=g,
                    points=p,
                ),
            )
        return
    raise IllegalMove(_("Trade at the Market or a stall, or say 'done'."))


def market_sale(state, seat: int, good, count: int, checked: bool) -> None:
    player = state["players"][seat]
    if checked:
        if good not in ("grain", "livestock", "game"):
            raise IllegalMove(_("The Market buys grain, livestock and game."))
        if player[good] < count:
            raise IllegalMove(
                _("You have {count} {good}.", count=player[good], good=GOOD_NAMES[good])
            )
    player[good] -= count
    player["guilders"] += count
    if state["news"] is not None:
        say(
            state,
            _(
                "{who} sold {count} {good} at the Market for {count} g.",
                who=name(state, seat),
                count=count,
                good=GOOD_NAMES[good],
            ),
        )


def timber_sale(state, seat: int, good, count: int, checked: bool) -> None:
    player = state["players"][seat]
    turn = state["act"]["turn"]
    if checked:
        if good != "wood":
            raise IllegalMove(_("The Timber trade buys wood (not planks)."))
        error = stall_fee_error(state, seat, "timbertrade")
        if error:
            raise IllegalMove(error)
        if turn.get("timber") == "buy":
            raise IllegalMove(_("You bought wood this turn; you cannot also sell it."))
        if player["wood"] < count:
            raise IllegalMove(_("You have {count} wood.", count=player["wood"]))
    use_stall(state, seat, "timbertrade")
    turn["timber"] = "sell"
    player["wood"] -= count
    player["guilders"] += count
    if state["news"] is not None:
        say(
            state,
            _(
                "{who} sold {count} wood at the Timber trade for {count} g.",
                who=name(state, seat),
                count=count,
            ),
        )


def stall_sale(state, seat: int, good, count: int, at, checked: bool) -> None:
    """Processed goods at their specialist's stall, raw goods made up the shortfall."""
    player = state["players"][seat]
    if checked and (good not in SALE_PRICES or SALE_PRICES[good][0] != at):
        raise IllegalMove(
            _(
                "Sell meat or game meat at the butcher, bread at the baker, smoked fish at the "
                "fishmonger."
            )
        )
    stall, g, p = SALE_PRICES[good]
    raw = RAW_OF[good]
    if checked:
        error = stall_fee_error(state, seat, stall)
        if error:
            raise IllegalMove(error)
        free = stall_slots(state, stall)
        if count > free:
            raise IllegalMove(
                _(
                    "The {stall} has demand for {free} more now ({burghers} Burghers).",
                    stall=BUILDINGS[stall].name,
                    free=free,
                    burghers=state["burghers"],
                )
            )
        if player[good] + player[raw] < count:
            raise IllegalMove(
                _(
                    "You have {count} {good} and {raw_count} {raw}.",
                    count=player[good],
                    good=GOOD_NAMES[good],
                    raw_count=player[raw],
                    raw=GOOD_NAMES[raw],
                )
            )
    use_stall(state, seat, stall)
    from_raw = max(0, count - player[good])
    player[raw] -= from_raw
    player[good] -= count - from_raw
    state["slots"][stall] = state["slots"].get(stall, 0) + count
    player["guilders"] += g * count
    gain_points(player, p * count)
    if state["news"] is not None:
        say(
            state,
            _(
                "{who} sold {count} {good} at the {stall}: +{guilders} g, +{points} points.",
                who=name(state, seat),
                count=count,
                good=GOOD_NAMES[good],
                stall=BUILDINGS[stall].name,
                guilders=g * count,
                points=p * count,
            ),
        )
