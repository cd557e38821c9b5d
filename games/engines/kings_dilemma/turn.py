"""The phases of a game night and who acts in each (``state["phase"]``):

- ``deal``: the table's ``deal`` only (the Secret Agenda draft's hidden randomness).
- ``draft``: the seat in ``state["draft"]`` chooses a Secret Agenda (``drafting_seat``).
- ``draw``: the table types the Dilemma card drawn (``draw_dilemma``).
- ``voting``: the seat whose voting turn it is (``voter``) votes, passes, adds Power or stays; any House
  may give Coins meanwhile (Bargaining), without claiming the turn.
- ``tie_break``: the Moderator decides the winning side (a tie, or everybody passed).
- ``leader_choice``: the Moderator gives the Leader token among the winning side's tied biggest voters.
- ``outcome``: the vote is over; the table turns the card over and types the winning side's outcome
  from its back (``read_outcome``), which is applied at once.
- ``resolution``: the table may apply printed effects by hand, then places the card on the Time
  Counter (the lightning typed with the outcome decides the King's death) or in the Event area.
- ``end``: the end was triggered; the table reveals the Secret Agendas and scores (``score``).
- ``heir``: totals are tied at the top; the Moderator chooses who marries into the royal line.
- ``over``: nobody acts.

``to_act`` says who must act now; the ``acting`` functions (``drafting_seat``, ``voter``,
``moderator``) are what the moves declared in ``rules.py`` name as their actor. Seats are in
clockwise table order.
"""

from __future__ import annotations

from typing import Any

from games.engines.kernel.errors import RuleError
from games.engines.kernel.turns import TABLE
from games.engines.kings_dilemma import messages as msg

VOTING_PHASES = ("voting", "tie_break", "leader_choice")
HOST_PHASES = ("draw", "voting", "tie_break", "leader_choice", "resolution")
MODERATOR_PHASES = ("tie_break", "leader_choice", "heir")


def drafting_seat(state: dict) -> int:
    """The seat choosing a Secret Agenda (rulebook "Game Setup", step 6: lowest Prestige first)."""
    draft = state["draft"]
    return int(draft["order"][draft["index"]])


def voter(state: dict) -> int:
    """The seat whose voting turn it is ("Vote of the Council": from the Leader, clockwise)."""
    return int(state["vote"]["turn"])


def moderator(state: dict) -> int:
    """The Moderator, who decides ties, the Leader token among tied voters and the heir."""
    return int(state["moderator"])


def to_act(state: dict) -> list[int | None]:
    """Who the game waits for: the drafting seat, the voter whose turn it is, the Moderator, the table
    (None), or nobody once the game is over. Gifts of Coins never wait: no House must give."""
    phase = state["phase"]
    if state["over"]:
        return []
    if phase == "draft":
        return [drafting_seat(state)]
    if phase == "voting":
        return [voter(state)]
    if phase in MODERATOR_PHASES:
        return [moderator(state)]
    return [TABLE]


def name(state: dict, seat: int | None) -> str:
    return msg.THE_TABLE if seat is None else str(state["seats"][seat]["name"])


def is_int(value: Any, low: int | None = None, high: int | None = None) -> bool:
    """A whole number (never a bool) within ``low`` and ``high`` when given."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return (low is None or value >= low) and (high is None or value <= high)


def seat_index(state: dict, value: Any) -> int:
    """A seat named in an action's parameters (a House to give to, a target), checked."""
    if not is_int(value, 0, len(state["seats"]) - 1):
        raise RuleError(msg.NO_SUCH_SEAT)
    return int(value)


def right_of(state: dict, seat: int) -> int:
    """Seats are in clockwise table order: the player to your right plays just before you."""
    return (seat - 1) % len(state["seats"])


def left_of(state: dict, seat: int) -> int:
    return (seat + 1) % len(state["seats"])
