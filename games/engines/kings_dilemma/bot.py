"""A simple King's Dilemma bot for a House: it votes with modest Power for the side that helps its
agendas, and never gives Coins away.

It reads only what its own seat may see: the Dilemma card on the table, the Realm board and its own
Secret and Open Agendas.

- Voting: it plays each side's Resource moves on a copy of the Realm board and scores its Resource
  Goal (Secret Agenda) plus its Open Agenda tokens. It votes for the better side with a modest amount
  of Power (more when more is at stake, never more than a third of what it holds), and passes and
  gathers Power when it is low on Power or indifferent. On a later turn it adds just enough Power to
  put its side ahead when that stays modest, and stays otherwise.
- As Moderator it decides a tie for the side it voted (or prefers), and gives the Leader token to
  itself when it may.
- The Secret Agenda draft: any card (its ``rng`` picks). Table actions are never the bot's.
- ``give_coins`` never reaches it (``bot_excluded``); it would not pick it anyway.
"""

from __future__ import annotations

import copy
import random

from games.engines.kernel.choices import Choice
from games.engines.kings_dilemma.board import move_resource
from games.engines.kings_dilemma.data import RESOURCES
from games.engines.kings_dilemma.scoring import open_agenda_points, resource_goal_points
from games.engines.kings_dilemma.voting import SIDES, totals

LOW_POWER = 2  # at or below this, pass and gather Power
POWER_SHARE = 3  # commit at most a third of its Power to one vote
POINTS_PER_POWER = 3  # one more Power for every this many points at stake


def agenda_points(state: dict, seat: int) -> int:
    """What the bot's Secret Agenda (Resource Goal) and Open Agendas score on this board."""
    house = state["seats"][seat]
    heights = {r: state["resources"][r]["position"] for r in RESOURCES}
    points = open_agenda_points(house["open_agendas"], heights, state["tracks"])
    if house["secret_agenda"]:
        agenda = state["tracks"]["secret_agendas"][house["secret_agenda"]]
        points += resource_goal_points(agenda, list(heights.values()))
    return points


def side_points(state: dict, seat: int, side: str) -> int:
    """The bot's agenda points if ``side`` wins the card on the table, reading only the front: each
    Outcome token moves its Resource one space (the back, with the real amounts, is not known yet)."""
    board = {
        "resources": copy.deepcopy(state["resources"]),
        "stability": state["stability"],
        "abdicated": state["abdicated"],
        "tracks": state["tracks"],
        "seats": state["seats"],
    }
    for row, direction in state["card"]["front"][side]["resources"]:
        move_resource(board, row, 1 if direction == "up" else -1)
    return agenda_points(board, seat)


def preference(state: dict, seat: int) -> tuple[str | None, int]:
    """The side the bot wants and how many points it is worth (None when it does not care)."""
    if not state.get("card"):
        return None, 0
    points = {side: side_points(state, seat, side) for side in SIDES}
    gain = points["aye"] - points["nay"]
    if gain == 0:
        return None, 0
    return ("aye" if gain > 0 else "nay"), abs(gain)


def modest_power(power: int, stake: int) -> int:
    return max(1, min(power // POWER_SHARE, 1 + stake // POINTS_PER_POWER))


def _first_turn(state: dict, seat: int, types: set[str]) -> dict | None:
    power = state["seats"][seat]["power"]
    side, stake = preference(state, seat)
    if side is not None and power > LOW_POWER and "vote" in types:
        return {"type": "vote", "seat": seat, "side": side, "power": modest_power(power, stake)}
    kind = "pass_gather" if "pass_gather" in types else "pass_moderator"
    return {"type": kind, "seat": seat}


def _later_turn(state: dict, seat: int, types: set[str]) -> dict | None:
    vote_ = state["vote"]
    side = vote_["choice"][seat]
    power = state["seats"][seat]["power"]
    if side in SIDES and power > LOW_POWER and "add_power" in types:
        sums = totals(vote_)
        behind = sums["nay" if side == "aye" else "aye"] - sums[side]
        committed = vote_["committed"][seat]
        _, stake = preference(state, seat)
        budget = modest_power(power + committed, stake) - committed
        if 0 <= behind < budget:
            return {"type": "add_power", "seat": seat, "power": behind + 1}
    return {"type": "stay", "seat": seat}


def _own_side(state: dict, seat: int) -> str:
    """The side the bot voted, else the side it prefers, else AYE."""
    vote_ = state.get("vote")
    voted = vote_["choice"][seat] if vote_ else None
    if voted in SIDES:
        return voted
    side, _ = preference(state, seat)
    return side or "aye"


def choose(state: dict, seat: int | None, choices: list[Choice], rng: random.Random) -> dict | None:
    """The policy the engine's ``bot_policy`` hook calls: a concrete action of one of ``choices``."""
    if seat is None or not choices:
        return None
    by_type = {c["type"]: c for c in choices if c["type"] != "give_coins"}
    types = set(by_type)
    if "choose_secret_agenda" in types:
        agendas = by_type["choose_secret_agenda"]["params"]["agenda"]["options"]
        return {"type": "choose_secret_agenda", "seat": seat, "agenda": rng.choice(agendas)}
    if types & {"vote", "pass_gather", "pass_moderator"}:
        return _first_turn(state, seat, types)
    if types & {"add_power", "stay"}:
        return _later_turn(state, seat, types)
    if "break_tie" in types:
        return {"type": "break_tie", "seat": seat, "side": _own_side(state, seat)}
    if "give_leader" in types:
        options = by_type["give_leader"]["params"]["to"]["options"]
        return {"type": "give_leader", "seat": seat, "to": seat if seat in options else options[0]}
    if "choose_heir" in types:
        options = by_type["choose_heir"]["params"]["heir"]["options"]
        return {"type": "choose_heir", "seat": seat, "heir": seat if seat in options else options[0]}
    return None
