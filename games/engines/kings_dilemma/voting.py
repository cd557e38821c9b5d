"""Phases 3 and 4 of a round: the Vote of the Council, Bargaining and the Vote Resolution with its
cleanup (rulebook "Vote of the Council", "Vote Resolution"; docs/rules-decisions.md)."""

from __future__ import annotations

import random
from typing import Any

from games.engines.kernel.errors import RuleError
from games.engines.kernel.messages import join
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.board import from_pool, tell
from games.engines.kings_dilemma.turn import is_int, left_of, name, right_of, seat_index

SIDES = ("aye", "nay")
PASSES = ("gather", "moderator")


def start_voting(state: dict) -> None:
    """The Voting Phase starts with the Leader and goes clockwise."""
    count = len(state["seats"])
    state["vote"] = {
        "turn": state["leader"],
        "choice": [None] * count,
        "committed": [0] * count,
        "pass_coin": [0] * count,
        "moderator_pass": None,
    }
    state["phase"] = "voting"


def _power(state: dict, seat: int, amount: Any) -> int:
    if not is_int(amount, 1):
        raise RuleError(msg.POWER_AMOUNT)
    have = state["seats"][seat]["power"]
    if amount > have:
        raise RuleError(msg.POWER_TOO_MUCH.format(have=have))
    return amount


def _commit(state: dict, seat: int, amount: int) -> None:
    state["seats"][seat]["power"] -= amount
    state["vote"]["committed"][seat] += amount


def vote(state: dict, action: dict, rng: random.Random) -> None:
    """VOTE AYE / VOTE NAY: place 1 or more Power on the Vote card."""
    seat = action["seat"]
    if state["vote"]["choice"][seat] is not None:
        raise RuleError(msg.VOTE_CHANGE)
    side = action.get("side")
    if side not in SIDES:
        raise RuleError(msg.VOTE_SIDE)
    if state["seats"][seat]["power"] == 0:
        raise RuleError(msg.VOTE_NO_POWER)
    _commit(state, seat, _power(state, seat, action.get("power")))
    state["vote"]["choice"][seat] = side
    end_turn(state, seat)


def add_power(state: dict, action: dict, rng: random.Random) -> None:
    """On a later turn a voter may only add Power to their vote (or stay)."""
    seat = action["seat"]
    if state["vote"]["choice"][seat] is None:
        raise RuleError(msg.NOT_VOTED)
    _commit(state, seat, _power(state, seat, action.get("power")))
    end_turn(state, seat)


def stay(state: dict, action: dict, rng: random.Random) -> None:
    """'Stay' and do nothing: still in the vote, Power may be added on a later turn."""
    seat = action["seat"]
    if state["vote"]["choice"][seat] is None:
        raise RuleError(msg.NOT_VOTED)
    end_turn(state, seat)


def pass_gather(state: dict, action: dict, rng: random.Random) -> None:
    """PASS AND GATHER POWER: 1 Coin from the general pool onto the PASS card; a share of the Balance."""
    seat = action["seat"]
    if state["vote"]["choice"][seat] is not None:
        raise RuleError(msg.VOTE_CHANGE)
    state["vote"]["choice"][seat] = "gather"
    state["vote"]["pass_coin"][seat] = 1
    from_pool(state, "coins", 1)
    tell(state, msg.NEWS_GATHER.format(name=name(state, seat)))
    end_turn(state, seat)


def pass_moderator(state: dict, action: dict, rng: random.Random) -> None:
    """PASS AND BECOME MODERATOR: once per Voting Phase, the Moderator token at once, plus 1 Coin."""
    seat = action["seat"]
    vote_ = state["vote"]
    if vote_["choice"][seat] is not None:
        raise RuleError(msg.VOTE_CHANGE)
    if vote_["moderator_pass"] is not None:
        raise RuleError(msg.MODERATOR_TAKEN.format(name=name(state, vote_["moderator_pass"])))
    vote_["choice"][seat] = "moderator"
    vote_["moderator_pass"] = seat
    vote_["pass_coin"][seat] = 1
    state["moderator"] = seat
    from_pool(state, "coins", 1)
    tell(state, msg.NEWS_MODERATOR.format(name=name(state, seat)))
    end_turn(state, seat)


def end_turn(state: dict, seat: int) -> None:
    """The Leader token moves to a strict most-Power vote; the phase ends after the turn of the player
    to the right of the Leader. Seats that passed are skipped (their empty turn still ends)."""
    vote_ = state["vote"]
    committed = vote_["committed"]
    if vote_["choice"][seat] in SIDES and all(
        committed[seat] > power for other, power in enumerate(committed) if other != seat
    ):
        state["leader"] = seat
    current = seat
    while current != right_of(state, state["leader"]):
        current = left_of(state, current)
        if vote_["choice"][current] not in PASSES:
            vote_["turn"] = current
            return
    finish_voting(state)


def totals(vote_: dict) -> dict[str, int]:
    return {
        side: sum(p for p, c in zip(vote_["committed"], vote_["choice"], strict=True) if c == side)
        for side in SIDES
    }


def finish_voting(state: dict) -> None:
    """Vote Resolution: most Power wins; a tie or an all-pass is decided by the Moderator."""
    vote_ = state["vote"]
    vote_["turn"] = None
    if not any(c in SIDES for c in vote_["choice"]):
        vote_["undecided"] = "all_pass"
        state["phase"] = "tie_break"
        return
    sums = totals(vote_)
    if sums["aye"] == sums["nay"]:
        vote_["undecided"] = "tie"
        state["phase"] = "tie_break"
        return
    decide(state, "aye" if sums["aye"] > sums["nay"] else "nay")


def decide(state: dict, side: str) -> None:
    vote_ = state["vote"]
    state["winning_side"] = side
    if not any(c in SIDES for c in vote_["choice"]):
        # "they also assume responsibility for this decision and take the Leader token"
        state["leader"] = state["moderator"]
    elif vote_["choice"][state["leader"]] != side:
        winners = [i for i, c in enumerate(vote_["choice"]) if c == side]
        best = max(vote_["committed"][i] for i in winners)
        candidates = [i for i in winners if vote_["committed"][i] == best]
        if len(candidates) > 1:
            state["leader_candidates"] = candidates
            state["phase"] = "leader_choice"
            return
        state["leader"] = candidates[0]
    cleanup_and_resolve(state)


def break_tie(state: dict, action: dict, rng: random.Random) -> None:
    """The Moderator decides a tie (or an all-pass) for AYE or NAY."""
    side = action.get("side")
    if side not in SIDES:
        raise RuleError(msg.TIE_SIDE)
    decide(state, side)


def give_leader(state: dict, action: dict, rng: random.Random) -> None:
    """The Moderator gives the Leader token to one of the winning side's tied biggest voters."""
    to = action.get("to")
    if to not in state["leader_candidates"] or not is_int(to):
        names = join([name(state, i) for i in state["leader_candidates"]], ", ")
        raise RuleError(msg.LEADER_CANDIDATE.format(names=names))
    state["leader"] = to
    state["leader_candidates"] = None
    cleanup_and_resolve(state)


def cleanup_and_resolve(state: dict) -> None:
    """'Perform cleanup after the vote': the PASS Coins behind the screens, the Balance shared equally
    among PASS AND GATHER POWER players (the remainder stays), then the winners' Power onto the Balance
    and the losers' back behind their screens. Then the Dilemma Resolution."""
    vote_ = state["vote"]
    seats = state["seats"]
    for seat, coin in enumerate(vote_["pass_coin"]):
        seats[seat]["coins"] += coin
    gatherers = [i for i, c in enumerate(vote_["choice"]) if c == "gather"]
    shared = 0
    if gatherers:
        shared = state["balance"] // len(gatherers)
        for seat in gatherers:
            seats[seat]["power"] += shared
        state["balance"] -= shared * len(gatherers)
    side = state["winning_side"]
    for seat, (voted, power) in enumerate(zip(vote_["choice"], vote_["committed"], strict=True)):
        if voted == side:
            state["balance"] += power
        elif voted in SIDES:
            seats[seat]["power"] += power
    state["last_vote"] = {
        "choice": list(vote_["choice"]),
        "committed": list(vote_["committed"]),
        **totals(vote_),
        "side": side,
        "undecided": vote_.get("undecided"),
        "shared": shared,
        "gatherers": gatherers,
        "leader": state["leader"],
    }
    state["vote"] = None
    # Step A: the card is turned over on the winning side; the table reads the outcome.
    state["phase"] = "outcome"


def give_coins(state: dict, action: dict, rng: random.Random) -> None:
    """Bargaining: Coins given to another House are binding (docs/rules-decisions.md)."""
    seat = action["seat"]
    to = seat_index(state, action.get("to"))
    if to == seat:
        raise RuleError(msg.GIFT_SELF)
    coins = action.get("coins")
    if not is_int(coins, 1):
        raise RuleError(msg.GIFT_AMOUNT)
    have = state["seats"][seat]["coins"]
    if coins > have:
        raise RuleError(msg.GIFT_TOO_MUCH.format(have=have))
    state["seats"][seat]["coins"] -= coins
    state["seats"][to]["coins"] += coins
